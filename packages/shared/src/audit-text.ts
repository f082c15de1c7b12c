// The audit trail in plain Chinese: one translation of its actions, objects and recorded details (and of the
// sign-in methods and failure reasons), used by the operation and login logs, their exports, and the change
// history of a review task. A detail written as
// `{ before, after }` reads 字段：旧值 → 新值; other details read 字段：值. Money (…Fen) is formatted, statuses are
// named, and nothing is shown as JSON. Import it as `@piibs/shared/audit-text`.
import { APPLICATION_STATUS_LABELS, POLICYHOLDER_TYPE_LABELS } from './application-status.ts';
import { formatFen, microPercentText } from './money.ts';
import { COVERAGE_LABELS } from './rating.ts';

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

/** The recorded fields, by the names the server writes them with. */
const FIELD_LABELS: Readonly<Record<string, string>> = Object.freeze({
  status: '状态',
  reviewStatus: '审核状态',
  name: '名称',
  nickName: '姓名',
  username: '用户名',
  uscc: '统一社会信用代码',
  code: '代码',
  phone: '手机号',
  email: '邮箱',
  address: '地址',
  region: '地区',
  headcount: '人数',
  insuredCount: '参保人数',
  contactName: '联系人',
  legalRepresentative: '法定代表人',
  enabled: '启用',
  number: '编号',
  note: '备注',
  opinion: '意见',
  reason: '原因',
  title: '标题',
  fields: '修改的字段',
  version: '版本号',
  premiumFen: '保费',
  preventionFeeFen: '事故预防费用',
  projectCostFen: '工程造价',
  quotaFen: '保费额度',
  minPremiumFen: '最低保费',
  minProjectCostFen: '最低工程造价',
  issuerLeads: '本公司为主承保',
  coinsuranceDropped: '未沿用的共保信息',
  requiredMaterials: '必备资料',
  requestedDocTypes: '要求补充的资料',
  amountFen: '金额',
  costFen: '服务费用',
  startDate: '起保日期',
  endDate: '终保日期',
  scheduledDate: '计划服务日期',
  serviceDate: '服务日期',
  satisfaction: '满意度',
  roles: '角色',
  menus: '菜单',
  taskId: '审核任务号',
  // An application's fields (投保单), as its wizard names them.
  policyholderType: '投保人类型',
  insuredName: '被保险人名称',
  insuredUscc: '被保险人证件号码',
  insuredAddress: '被保险人地址',
  contactPhone: '联系电话',
  contactEmail: '电子邮箱',
  specialTerms: '特别约定',
  industrySection: '行业门类',
  industryDivision: '行业大类',
  payrollFen: '工资总额',
  perPersonLimitFen: '每人伤亡限额',
  coverages: '附加责任',
  factors: '浮动因子',
  guaranteeAmountFen: '保证金额',
  projectName: '工程名称',
  projectAddress: '工程地址',
  contractor: '施工单位',
  highRisk: '高风险工程',
  preventionRatio: '事故预防费用比例',
  commissionRate: '手续费比例',
});

/** Where one object names a field otherwise: an application's headcount is 参保人数, a customer's 单位总人数. */
const ENTITY_FIELD_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.freeze({
  application: { headcount: '参保人数' },
  customer: { headcount: '单位总人数' },
});

/** Ratios stored as percent × 10⁶. */
const MICRO_PERCENT_FIELDS: ReadonlySet<string> = new Set(['preventionRatio', 'commissionRate']);

const REVIEW_STATUS_LABELS: Readonly<Record<string, string>> = Object.freeze({
  pending: '待审核',
  approved: '审核通过',
  returned: '已退回',
  rejected: '已拒绝',
});

/** A field's name (of `entity`, where given); a name not in the table is shown as written (never hidden). */
export const auditFieldLabel = (field: string, entity?: string): string =>
  (entity ? ENTITY_FIELD_LABELS[entity]?.[field] : undefined) ?? FIELD_LABELS[field] ?? field;

/** One recorded value in words: money formatted, statuses named, yes/no, lists joined, empty as （空）. */
export function auditValueText(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '（空）';
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'number' && field.endsWith('Fen')) return formatFen(value);
  if (typeof value === 'number' && MICRO_PERCENT_FIELDS.has(field)) return `${microPercentText(value)}%`;
  if (typeof value === 'number' && field === 'policyholderType')
    return POLICYHOLDER_TYPE_LABELS[value as 1 | 2] ?? String(value);
  if (typeof value === 'string') {
    if (field === 'reviewStatus') return REVIEW_STATUS_LABELS[value] ?? value;
    if (field === 'status')
      return (
        (APPLICATION_STATUS_LABELS as Record<string, string>)[value] ?? REVIEW_STATUS_LABELS[value] ?? value
      );
    if (field === 'fields') return auditFieldLabel(value);
    if (field === 'coverages') return (COVERAGE_LABELS as Record<string, string>)[value] ?? value;
    return value;
  }
  if (Array.isArray(value))
    return value.length ? value.map((v) => auditValueText(field, v)).join('、') : '（空）';
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${auditFieldLabel(k)} ${auditValueText(k, v)}`)
      .join('，');
  return String(value);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A detail as lines: 字段：旧值 → 新值 for each changed field, then 字段：值 for the rest; `entity` (the audit
 * entry's object) names the fields it names otherwise.
 */
export function auditDetailLines(detail: unknown, entity?: string): string[] {
  if (detail === null || detail === undefined) return [];
  if (!isRecord(detail)) return [auditValueText('', detail)];
  const { before, after, ...rest } = detail;
  const lines: string[] = [];
  if (isRecord(before) || isRecord(after)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    for (const field of new Set([...Object.keys(b), ...Object.keys(a)]))
      lines.push(
        `${auditFieldLabel(field, entity)}：${auditValueText(field, b[field])} → ${auditValueText(field, a[field])}`,
      );
  }
  for (const [field, value] of Object.entries(rest))
    lines.push(`${auditFieldLabel(field, entity)}：${auditValueText(field, value)}`);
  return lines;
}

/** An action in words, with its object where given: 修改 · 客户. */
export const auditActionText = (action: string, entity?: string): string =>
  [AUDIT_ACTION_LABELS[action] ?? action, entity ? (AUDIT_ENTITY_LABELS[entity] ?? entity) : null]
    .filter(Boolean)
    .join(' · ');
