// The audit trail in plain Chinese: one translation of its actors, actions, objects and recorded details (and
// of the sign-in methods and failure reasons), used by the operation and login logs, their exports, the change
// history of a review task and every timeline. A detail written as `{ before, after }` reads 字段：旧值 → 新值;
// other details read 字段：值. Money (…Fen) is formatted, statuses and codes are named, records are named by
// their business number or name (the server looks them up: auditRefs lists what to look up, AuditNames holds
// the answers), and nothing is shown as JSON. Import it as `@piibs/shared/audit-text`.
import { DATA_SCOPE_LABELS } from './admin.ts';
import { APPLICATION_STATUS_LABELS, CHANNEL_LABELS, POLICYHOLDER_TYPE_LABELS } from './application-status.ts';
import { USER_CHANNEL_LABELS } from './auth.ts';
import { fileSizeText, MATERIAL_BUSINESS_LABELS, MATERIAL_EXTENSIONS } from './material.ts';
import { formatFen, microPercentText, multiplierText } from './money.ts';
import { PAYMENT_ORDER_STATUS_LABELS, PAYMENT_PROVIDER_LABELS, PAYMENT_PROVIDERS } from './payment.ts';
import { POLICY_STATUS_LABELS } from './policy.ts';
import {
  CANCELLATION_REASON_LABELS,
  POLICY_CHANGE_KIND_LABELS,
  POLICY_CHANGE_STATUS_LABELS,
} from './policy-change.ts';
import { RATE_TABLE_STATUS_LABELS } from './product.ts';
import { DECLARATION_STATUS_LABELS } from './project-order/states.ts';
import { COVERAGE_LABELS, PRODUCT_CLASS_LABELS } from './rating.ts';
import {
  REVIEW_DECISION_LABELS,
  REVIEW_STATUS_LABELS,
  TASK_KIND_LABELS,
  TASK_STATUS_LABELS,
} from './review.ts';
import {
  HAZARD_LEVEL_LABELS,
  SERVICE_FREQUENCY_LABELS,
  SERVICE_ITEM_LABELS,
  SERVICE_ORDER_STATUS_LABELS,
} from './risk-control/states.ts';
import { SUPPLEMENT_VARIANT_LABELS } from './sales.ts';

type Labels = Readonly<Record<string, string>>;

export const AUDIT_ACTION_LABELS: Readonly<Record<string, string>> = Object.freeze({
  create: '新增',
  update: '修改',
  delete: '删除',
  enable: '启用',
  disable: '停用',
  activate: '激活',
  init: '系统初始化',
  seed: '生成演示数据',
  probe: '探测',
  grant_menus: '分配菜单',
  members: '调整机构账号',
  password_change: '修改密码',
  password_reset: '重置密码',
  profile_change: '修改资料',
  avatar_change: '更换头像',
  session_revoke: '注销会话',
  handoff_issue: '签发交接令牌',
  login: '登录',
  logout: '退出登录',
  submit: '提交',
  resubmit: '重新提交',
  cancel: '撤销',
  close: '关闭',
  expire: '到期',
  review_approve: '审核通过',
  review_return: '审核退回',
  review_reject: '审核拒绝',
  approve: '通过',
  return: '退回',
  reject: '拒绝',
  request_materials: '要求补充资料',
  coinsurers: '修改共保信息',
  upload: '上传资料',
  pay: '支付',
  charge: '收款',
  late_payment: '逾期到账',
  duplicate_payment: '重复支付',
  issue: '出具保单',
  renew: '续保',
  endorse: '批改生效',
  endorsement: '出具批单',
  change_salesperson: '变更业务员',
  dispatch: '派发服务单',
  accept: '接单',
  start: '开始服务',
  record: '保存服务记录',
  confirm: '确认服务',
  rate: '评价服务',
  rectify: '登记整改',
  complain: '投诉',
  reply: '答复投诉',
  unmask: '查看完整号码',
  tampered: '数据被篡改',
  refund_refused: '退款被拒绝',
  budget: '调整预算',
  insured_list: '保存从业人员名单',
});

export const AUDIT_ENTITY_LABELS: Readonly<Record<string, string>> = Object.freeze({
  user: '用户',
  role: '角色',
  menu: '菜单',
  dept: '部门',
  job: '岗位',
  dict: '字典',
  dict_detail: '字典项',
  session: '会话',
  system: '系统',
  site_settings: '站点设置',
  volume: '演示数据',
  customer: '客户',
  product: '产品',
  rate_table: '费率表',
  application: '投保单',
  review_task: '审核任务',
  material: '影像资料',
  payment_order: '支付订单',
  policy: '保单',
  sales_supplement: '销售补录',
  annual_order: '年度订单',
  secondary_order: '二次下单',
  endorsement: '批单',
  service_org: '服务机构',
  service_person: '服务人员',
  service_order: '服务单',
  prevention_plan_item: '服务计划项',
  policy_change: '批改/退保申请',
  prevention_fund: '事故预防费用',
});

export const LOGIN_METHOD_LABELS: Readonly<Record<string, string>> = Object.freeze({
  password: '账号密码',
  ca: '数字证书',
  handoff: '交接令牌',
});

export const LOGIN_REASON_LABELS: Readonly<Record<string, string>> = Object.freeze({
  bad_password: '密码错误',
  unknown_user: '用户不存在',
  captcha: '验证码错误',
  locked: '账号已锁定',
  locking: '密码错误，账号被锁定 15 分钟',
  disabled: '账号已停用',
  ip_limited: 'IP 失败次数过多',
  one_time_used: '一次性密码已使用',
  challenge: '挑战码无效',
  certificate: '证书无效',
  unbound: '证书未绑定用户',
  handoff: '交接令牌无效',
});

// ---- who ----

/** The actor name recorded for what the system does on its own (policy issue, endorsements, expiry). */
export const SYSTEM_ACTOR = 'system';
const PAYMENT_ACTOR_PREFIX = 'payment:';
/** The actor name recorded for a payment provider's notification or the answer to a query of it. */
export const paymentActor = (provider: string): string => `${PAYMENT_ACTOR_PREFIX}${provider}`;
/** Every actor name the server records for a step no person took. */
export const MACHINE_ACTORS: readonly string[] = Object.freeze([
  SYSTEM_ACTOR,
  ...PAYMENT_PROVIDERS.map(paymentActor),
]);

/**
 * Who did it, in words: a person as recorded (their 姓名, see the server's actorNameOf), a system step as
 * 系统自动, a payment provider by its own name (沙箱支付（测试环境）). Null stays null.
 */
export function actorText(name: string | null | undefined): string | null {
  if (!name) return null;
  if (name === SYSTEM_ACTOR) return '系统自动';
  if (name.startsWith(PAYMENT_ACTOR_PREFIX)) {
    const provider = name.slice(PAYMENT_ACTOR_PREFIX.length);
    return (PAYMENT_PROVIDER_LABELS as Labels)[provider] ?? '支付平台';
  }
  return name;
}

// ---- what it was about ----

/**
 * A record or dictionary entry a detail names by its id or code: `kind` is an entity of AUDIT_ENTITY_LABELS
 * (named by its business number or name), 'region', 'industry', 'username' or 'dict.<dictionary name>'.
 */
export interface AuditRef {
  kind: string;
  value: string;
}
/** What the server found for the references, by auditRefKey. */
export type AuditNames = Readonly<Record<string, string>>;
export const auditRefKey = (ref: AuditRef): string => `${ref.kind}:${ref.value}`;

/** The object of an entry, where it has one: whose business number or name the log shows. */
function auditRecordRef(entity: string, entityId: string | null, detail: unknown): AuditRef | null {
  if (entity === 'material') {
    const d = isRecord(detail) ? detail : {};
    return d.businessType != null && d.businessId != null
      ? { kind: String(d.businessType), value: String(d.businessId) }
      : null;
  }
  if (entityId === null) return null;
  // A sales supplement is kept under its policy's id.
  return { kind: entity === 'sales_supplement' ? 'policy' : entity, value: entityId };
}

/**
 * The object in words: 投保单号, a customer's name, a user's 姓名, a material's record (投保单 AZX2026000001);
 * for a record deleted since, the number or name the entry recorded; null when there is nothing to name.
 */
export function auditRecordText(
  entity: string,
  entityId: string | null,
  detail: unknown,
  names: AuditNames,
): string | null {
  const ref = auditRecordRef(entity, entityId, detail);
  const name = ref ? names[auditRefKey(ref)] : undefined;
  if (entity === 'material' && ref)
    return `${(MATERIAL_BUSINESS_LABELS as Labels)[ref.kind] ?? ''} ${name ?? DELETED}`.trim();
  if (name) return name;
  if (!ref || !isRecord(detail)) return null;
  const { before, after } = detail;
  for (const d of [detail, isRecord(after) ? after : {}, isRecord(before) ? before : {}])
    for (const field of ['number', 'policyNumber', 'name', 'title', 'label'])
      if (typeof d[field] === 'string' && d[field]) return d[field] as string;
  return null;
}

// ---- details ----

interface TextContext {
  /** The entry's entity: decides what a status, a channel or an `ids` list means. */
  entity?: string | undefined;
  names?: AuditNames | undefined;
}

interface FieldSpec {
  label: string;
  /** The values are codes of this vocabulary. */
  labels?: Labels | ((ctx: TextContext) => Labels);
  /** The values are ids or codes of this kind of reference (see AuditRef); a function picks it by the detail. */
  ref?: string | ((detail: Record<string, unknown>, ctx: TextContext) => string | undefined);
  /** How to write one value (not a list). */
  text?: (value: unknown) => string;
  /** Not shown: hashes, storage keys, internal ids of rows nobody sees. */
  hidden?: true;
}

const DELETED = '（已删除）';
const EMPTY = '（空）';

const STATUS_LABELS: Readonly<Record<string, Labels>> = Object.freeze({
  payment_order: PAYMENT_ORDER_STATUS_LABELS,
  service_order: SERVICE_ORDER_STATUS_LABELS,
  secondary_order: DECLARATION_STATUS_LABELS,
  policy: POLICY_STATUS_LABELS,
  policy_change: POLICY_CHANGE_STATUS_LABELS,
  rate_table: RATE_TABLE_STATUS_LABELS,
  review_task: TASK_STATUS_LABELS,
});
const statusLabels = (ctx: TextContext): Labels => ({
  ...APPLICATION_STATUS_LABELS,
  ...REVIEW_STATUS_LABELS,
  ...(ctx.entity ? STATUS_LABELS[ctx.entity] : undefined),
});

const percent = (v: unknown) => (typeof v === 'number' ? `${microPercentText(v)}%` : String(v));
const SUBJECT_ENTITIES: Labels = Object.freeze({
  customer: 'customer',
  application: 'application',
  tender: 'secondary_order',
});
const sameEntity = (_: Record<string, unknown>, ctx: TextContext) => ctx.entity;

/** The recorded fields, by the names the server writes them with (nested ones too). */
const FIELDS: Readonly<Record<string, FieldSpec>> = Object.freeze({
  status: { label: '状态', labels: statusLabels },
  reviewStatus: { label: '审核状态', labels: REVIEW_STATUS_LABELS },
  applicationStatus: { label: '投保单状态', labels: APPLICATION_STATUS_LABELS },
  name: { label: '名称' },
  nickName: { label: '姓名' },
  username: { label: '用户名' },
  uscc: { label: '统一社会信用代码' },
  code: { label: '代码' },
  phone: { label: '手机号' },
  contactPhone: { label: '联系电话' },
  email: { label: '邮箱' },
  gender: { label: '性别' },
  address: { label: '地址' },
  projectAddress: { label: '项目地址' },
  projectName: { label: '项目名称' },
  region: { label: '地区', ref: 'region' },
  regions: { label: '服务地区', ref: 'region' },
  industrySection: { label: '行业门类', ref: 'industry' },
  industryDivision: { label: '行业大类', ref: 'industry' },
  industries: { label: '服务行业', ref: 'industry' },
  headcount: { label: '人数' },
  insuredCount: { label: '参保人数' },
  // the 从业人员名单 saved on a draft: how many, and who was added or removed (numbers masked)
  count: { label: '名单人数' },
  added: { label: '增加人员' },
  removed: { label: '减少人员' },
  participants: { label: '参与人数' },
  contactName: { label: '联系人' },
  legalRepresentative: { label: '法定代表人' },
  licenceNo: { label: '许可证号' },
  caFingerprint: { label: '数字证书', text: () => '已绑定' },
  enabled: { label: '启用' },
  expert: { label: '专家' },
  highRisk: { label: '高风险' },
  mandatory: { label: '必选' },
  lead: { label: '主承' },
  allowsCoinsurance: { label: '允许共保' },
  namedInsuredRequired: { label: '需要从业人员名单' },
  mustChangePassword: { label: '须修改密码' },
  number: { label: '编号' },
  policyNumber: { label: '保单号' },
  chargeNo: { label: '支付流水号' },
  tradeNo: { label: '交易号' },
  seqNo: { label: '事故预防编号' },
  note: { label: '备注' },
  remark: { label: '备注' },
  description: { label: '描述' },
  opinion: { label: '意见' },
  reason: { label: '原因' },
  title: { label: '标题' },
  label: { label: '标签' },
  value: { label: '值' },
  sort: { label: '排序' },
  level: { label: '级别' },
  content: { label: '内容' },
  specialty: { label: '专业' },
  position: { label: '职务' },
  certNo: { label: '证书编号' },
  certificateName: { label: '证书名称' },
  certificateNo: { label: '证书编号' },
  certificateValidFrom: { label: '证书有效期起' },
  certificateValidTo: { label: '证书有效期止' },
  validFrom: { label: '有效期起' },
  validTo: { label: '有效期止' },
  effectiveDate: { label: '生效日期' },
  qualifications: { label: '资质' },
  contacts: { label: '联系人' },
  fields: { label: '修改的字段', text: (v) => auditFieldLabel(String(v)) },
  changed: { label: '修改的字段', text: (v) => auditFieldLabel(String(v)) },
  field: { label: '查看的字段', text: (v) => auditFieldLabel(String(v).split('.').pop() ?? '') },
  version: { label: '版本号' },
  versionNo: { label: '版本号' },
  activeVersion: { label: '生效版本' },
  rateTableVersion: { label: '费率表版本' },
  clauseVersion: { label: '条款版本' },
  rows: { label: '费率行数' },
  factors: { label: '系数个数' },
  coverages: { label: '保障责任', labels: COVERAGE_LABELS },
  type: { label: '类型' },
  premiumFen: { label: '保费' },
  preventionFeeFen: { label: '事故预防费用' },
  projectCostFen: { label: '工程造价' },
  quotaFen: { label: '保费额度' },
  consumedFen: { label: '已占用额度' },
  reservedFen: { label: '占用额度' },
  premiumDiffFen: { label: '保费差额' },
  amountFen: { label: '金额' },
  costFen: { label: '服务费用' },
  unitCostFen: { label: '单次费用' },
  plannedDeltaFen: { label: '计划变动' },
  perPersonLimitFen: { label: '每人限额' },
  perAccidentLimitFen: { label: '每次事故限额' },
  aggregateLimitFen: { label: '累计限额' },
  deductibleFen: { label: '免赔额' },
  share: { label: '份额', text: percent },
  commissionRate: { label: '手续费比例', text: percent },
  preventionRatio: { label: '事故预防费用比例', text: percent },
  minPremiumFen: { label: '最低保费' },
  minProjectCostFen: { label: '最低工程造价' },
  issuerLeads: { label: '本公司为主承保' },
  coinsuranceDropped: { label: '未沿用的共保信息' },
  requiredMaterials: { label: '必备资料' },
  requestedDocTypes: { label: '要求补充的资料', ref: 'dict.document_type' },
  insuredName: { label: '被保险人名称' },
  insuredUscc: { label: '被保险人证件号码' },
  insuredAddress: { label: '被保险人地址' },
  changeText: { label: '变更内容' },
  changeKind: { label: '申请类型', labels: POLICY_CHANGE_KIND_LABELS },
  cancellationReason: { label: '退保原因', labels: CANCELLATION_REASON_LABELS },
  cancelledOn: { label: '退保生效日期' },
  policyChange: { label: '批改/退保申请号' },
  premiumDeltaFen: { label: '保费增减' },
  annualPremiumFen: { label: '年保费' },
  refundFen: { label: '退还保费' },
  earnedFen: { label: '已赚保费' },
  refundNo: { label: '退款单号' },
  refundTradeNo: { label: '退款流水号' },
  orderNo: { label: '支付单号' },
  totalFen: { label: '预算总额' },
  contactEmail: { label: '电子邮箱' },
  specialTerms: { label: '特别约定' },
  payrollFen: { label: '工资总额' },
  guaranteeAmountFen: { label: '保证金额' },
  contractor: { label: '施工单位' },
  commissionCap: { label: '手续费比例上限', text: percent },
  preventionRatioMin: { label: '事故预防费用比例下限', text: percent },
  preventionRatioMax: { label: '事故预防费用比例上限', text: percent },
  highRiskLoading: {
    label: '高风险加成系数',
    text: (v) => (typeof v === 'number' ? `×${multiplierText(v)}` : String(v)),
  },
  startDate: { label: '起保日期' },
  endDate: { label: '终保日期' },
  period: { label: '保险期间' },
  scheduledDate: { label: '计划服务日期' },
  scheduledDates: { label: '计划服务日期' },
  serviceDate: { label: '服务日期' },
  rectifiedDate: { label: '整改日期' },
  deadline: { label: '期限' },
  satisfaction: { label: '满意度' },
  times: { label: '次数' },
  hazards: { label: '隐患' },
  coinsurers: { label: '共保公司数' },
  shares: { label: '共保份额' },
  quoteProblem: { label: '报价问题' },
  revoked: { label: '注销的会话数' },
  revokedSessions: { label: '注销的会话数' },
  bytes: { label: '文件大小', text: (v) => (typeof v === 'number' ? fileSizeText(v) : String(v)) },
  sizeBytes: { label: '文件大小', text: (v) => (typeof v === 'number' ? fileSizeText(v) : String(v)) },
  originalName: { label: '文件名' },
  mime: {
    label: '文件类型',
    text: (v) => ((MATERIAL_EXTENSIONS as Labels)[String(v)] ?? String(v)).toUpperCase(),
  },
  salespersonName: { label: '业务员' },
  salespersonNo: { label: '业务员工号' },
  agentName: { label: '代理人' },
  agentLicenceNo: { label: '代理人执业证号' },
  nbProjectName: { label: '项目名称' },
  migrantWorkerCount: { label: '农民工人数' },
  wageBank: { label: '工资专户开户行' },
  wageAccountNo: { label: '工资专户账号' },
  labourContractFilingNo: { label: '劳动合同备案号' },
  supervisingAuthority: { label: '监管部门' },
  organisationName: { label: '机构名称' },
  admin: { label: '管理员', ref: 'username' },
  // The first-run setup records login names; a forced sign-out the accounts' ids.
  users: { label: '账号', ref: (_, ctx) => (ctx.entity === 'system' ? 'username' : 'user') },
  sessions: { label: '会话', hidden: true },
  footerTxt: { label: '页脚文字' },
  caseNumber: { label: 'ICP备案号' },
  policeNumber: { label: '公安备案号' },
  // codes of a vocabulary
  channel: {
    label: '渠道',
    labels: (ctx) => (ctx.entity === 'user' ? USER_CHANNEL_LABELS : CHANNEL_LABELS),
  },
  policyholderType: { label: '投保人类型', labels: POLICYHOLDER_TYPE_LABELS },
  provider: { label: '支付渠道', labels: PAYMENT_PROVIDER_LABELS },
  source: { label: '到账方式', labels: { notify: '支付通知', query: '主动查询' } },
  kind: { label: '类型', labels: TASK_KIND_LABELS },
  decision: { label: '审核结论', labels: REVIEW_DECISION_LABELS },
  itemType: { label: '服务项目', labels: SERVICE_ITEM_LABELS },
  frequency: { label: '服务频次', labels: SERVICE_FREQUENCY_LABELS },
  productClass: { label: '产品类别', labels: PRODUCT_CLASS_LABELS },
  dataScope: { label: '数据权限', labels: DATA_SCOPE_LABELS },
  variant: { label: '补录类型', labels: SUPPLEMENT_VARIANT_LABELS },
  method: { label: '登录方式', labels: LOGIN_METHOD_LABELS },
  scope: {
    label: '范围',
    labels: {
      full: '正常登录',
      password_change: '仅可修改密码',
      others: '其他设备',
      force_logout: '强制下线',
    },
  },
  businessType: { label: '业务类型', labels: MATERIAL_BUSINESS_LABELS },
  // records and dictionary entries, named by the server
  businessId: { label: '业务记录', ref: (d) => (d.businessType ? String(d.businessType) : undefined) },
  subjectId: { label: '审核对象', ref: (d) => SUBJECT_ENTITIES[String(d.kind)] },
  ids: { label: '记录', ref: sameEntity },
  parentId: { label: '上级', ref: sameEntity },
  applicationId: { label: '投保单号', ref: 'application' },
  fromApplicationId: { label: '原投保单号', ref: 'application' },
  customerId: { label: '投保人', ref: 'customer' },
  productId: { label: '产品', ref: 'product' },
  rateTableId: { label: '费率表', ref: 'rate_table' },
  policyId: { label: '保单号', ref: 'policy' },
  renewalOfPolicyId: { label: '续保原保单号', ref: 'policy' },
  annualOrderId: { label: '年度订单', ref: 'annual_order' },
  secondaryOrderId: { label: '二次下单', ref: 'secondary_order' },
  changeId: { label: '批改申报', ref: 'secondary_order' },
  planItemId: { label: '服务计划项', ref: 'prevention_plan_item' },
  taskId: { label: '审核任务', ref: 'review_task' },
  orgId: { label: '服务机构', ref: 'service_org' },
  personIds: { label: '服务人员', ref: 'service_person' },
  userId: { label: '账号', ref: 'user' },
  userIds: { label: '账号', ref: 'user' },
  agentUserId: { label: '代理人账号', ref: 'user' },
  ownerId: { label: '归属账号', ref: 'user' },
  assigneeId: { label: '处理人', ref: 'user' },
  target: { label: '账号', ref: 'username' },
  roleIds: { label: '角色', ref: 'role' },
  jobIds: { label: '岗位', ref: 'job' },
  deptId: { label: '部门', ref: 'dept' },
  deptIds: { label: '数据权限部门', ref: 'dept' },
  menuIds: { label: '菜单', ref: 'menu' },
  dictId: { label: '字典', ref: 'dict' },
  docType: { label: '资料类型', ref: 'dict.document_type' },
  insurerCode: { label: '共保公司', ref: 'dict.coinsurer' },
  businessSource: { label: '业务来源', ref: 'dict.business_source' },
  // kept for the record, not for reading
  sha256: { label: '文件校验值', hidden: true },
  pdfSha256: { label: '文件校验值', hidden: true },
  storageKey: { label: '存储位置', hidden: true },
  avatar: { label: '头像文件', hidden: true },
  paymentId: { label: '支付记录', hidden: true },
  hazardId: { label: '隐患', hidden: true },
  complaintId: { label: '投诉', hidden: true },
  refund: { label: '需退款' },
});

/** Fields one entity writes with a meaning of its own. */
const ENTITY_FIELD_LABELS: Readonly<Record<string, Labels>> = Object.freeze({
  service_person: { title: '职称' },
  service_org: { code: '统一社会信用代码' },
  // An application's fields as its wizard names them; a customer's headcount is its whole staff.
  application: {
    headcount: '参保人数',
    coverages: '附加责任',
    highRisk: '高风险工程',
    projectName: '工程名称',
    projectAddress: '工程地址',
  },
  customer: { headcount: '单位总人数' },
});

/** A field's name; a name not in the table is shown as written (never hidden). */
export const auditFieldLabel = (field: string, entity?: string): string =>
  (entity ? ENTITY_FIELD_LABELS[entity]?.[field] : undefined) ?? FIELDS[field]?.label ?? field;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const refKind = (field: string, detail: Record<string, unknown>, ctx: TextContext): string | undefined => {
  const ref = FIELDS[field]?.ref;
  return typeof ref === 'function' ? ref(detail, ctx) : ref;
};

/** Every record and dictionary entry the detail names by id or code (for the server to look up). */
export function auditRefs(entity: string, entityId: string | null, detail: unknown): AuditRef[] {
  const refs: AuditRef[] = [];
  const record = auditRecordRef(entity, entityId, detail);
  if (record) refs.push(record);
  const ctx: TextContext = { entity };
  const walk = (obj: Record<string, unknown>) => {
    for (const [field, value] of Object.entries(obj)) {
      const kind = refKind(field, obj, ctx);
      if (kind)
        for (const v of Array.isArray(value) ? value : [value])
          if (v !== null && v !== undefined && v !== '') refs.push({ kind, value: String(v) });
      for (const v of Array.isArray(value) ? value : [value]) if (isRecord(v)) walk(v);
    }
  };
  if (isRecord(detail)) walk(detail);
  return refs;
}

/** One recorded value in words: money formatted, codes and records named, yes/no, lists joined, empty as （空）. */
function valueText(
  field: string,
  value: unknown,
  ctx: TextContext,
  owner: Record<string, unknown> = {},
): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  if (Array.isArray(value)) {
    if (field === 'period' && value.length === 2) return `${value[0]} 至 ${value[1]}`;
    return value.length ? value.map((v) => valueText(field, v, ctx, owner)).join('、') : EMPTY;
  }
  const spec = FIELDS[field];
  const kind = refKind(field, owner, ctx);
  if (kind) {
    const name = ctx.names?.[auditRefKey({ kind, value: String(value) })];
    // A dictionary code nobody can name any more is still the code; a record gone is said to be gone.
    return (
      name ?? (kind === 'region' || kind === 'industry' || kind.startsWith('dict.') ? String(value) : DELETED)
    );
  }
  if (spec?.text) return spec.text(value);
  if (spec?.labels) {
    const labels = typeof spec.labels === 'function' ? spec.labels(ctx) : spec.labels;
    return labels[String(value)] ?? String(value);
  }
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'number' && field.endsWith('Fen')) return formatFen(value);
  if (field === 'hazards' && isRecord(value))
    return `${(HAZARD_LEVEL_LABELS as Labels)[String(value.level)] ?? String(value.level)}隐患${value.deadline ? `（整改期限 ${value.deadline}）` : ''}`;
  if (isRecord(value))
    return Object.entries(value)
      .filter(([k]) => !FIELDS[k]?.hidden)
      .map(([k, v]) => `${auditFieldLabel(k)} ${valueText(k, v, ctx, value)}`)
      .join('，');
  return String(value);
}

/**
 * A detail as lines: 字段：旧值 → 新值 for each changed field (字段：值 for what was created or deleted), then
 * 字段：值 for the rest; fields kept only for the record (hashes, storage keys) are left out. `names` are what the
 * server found for auditRefs.
 */
export function auditDetailLines(detail: unknown, ctx: TextContext = {}): string[] {
  if (detail === null || detail === undefined) return [];
  if (!isRecord(detail)) return [valueText('', detail, ctx)];
  const { before, after, ...rest } = detail;
  const lines: string[] = [];
  const label = (field: string) => auditFieldLabel(field, ctx.entity);
  const fieldLines = (values: Record<string, unknown>) => {
    for (const [field, value] of Object.entries(values))
      if (!FIELDS[field]?.hidden) lines.push(`${label(field)}：${valueText(field, value, ctx, values)}`);
  };
  if (isRecord(before) && isRecord(after)) {
    for (const field of new Set([...Object.keys(before), ...Object.keys(after)]))
      if (!FIELDS[field]?.hidden)
        lines.push(
          `${label(field)}：${valueText(field, before[field], ctx, before)} → ${valueText(field, after[field], ctx, after)}`,
        );
  } else if (isRecord(after)) fieldLines(after);
  else if (isRecord(before)) fieldLines(before);
  fieldLines(rest);
  return lines;
}

/** An action in words, with its object where given: 修改 · 客户. */
export const auditActionText = (action: string, entity?: string): string =>
  [AUDIT_ACTION_LABELS[action] ?? action, entity ? (AUDIT_ENTITY_LABELS[entity] ?? entity) : null]
    .filter(Boolean)
    .join(' · ');
