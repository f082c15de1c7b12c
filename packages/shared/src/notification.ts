// In-app notifications (站内消息): the REST queries and answers and the WebSocket messages shared by the web's
// navbar bell and the server. Import it as `@piibs/shared/notification`.
//
// WebSocket protocol (GET /api/notifications/ws): the client's first message is
//   { type: 'auth', token: '<the Authorization token>', after: <last notification id seen, or 0> }
// (never the token in the URL). An invalid token, or no auth message within 10 s, closes with code 4401; so does
// the session's end (logout, password change, force logout …) within a second. Too many sockets waiting to sign
// in (from one address, or in all) close at once with 1013 (try again later). Then the
// server sends `ready` with the unread count, every notification with id > after in id order, then live ones —
// each notification once per socket — and `read` whenever notifications are marked read (in any tab).
import { z } from 'zod';
import { boolParam } from './admin.ts';
import { formatFen } from './money.ts';
import { type ReviewDecision, TASK_KIND_LABELS, type TaskKind } from './review.ts';
import { SERVICE_ITEM_LABELS } from './risk-control/states.ts';

/** The kinds of event a user is told about. */
export const NOTIFICATION_KINDS = [
  'task.assigned',
  'customer.approved',
  'customer.returned',
  'customer.rejected',
  'application.approved',
  'application.returned',
  'application.rejected',
  'application.materials_requested',
  'tender.approved',
  'tender.returned',
  'tender.rejected',
  'payment.received',
  'policy.issued',
  'service.dispatched',
  'service.confirmed',
  'policy.expiring',
  'policy_change.submitted',
  'policy_change.decided',
  'policy_change.done',
  'policy_change.lapsed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const NOTIFICATION_KIND_LABELS: Readonly<Record<NotificationKind, string>> = Object.freeze({
  'task.assigned': '待审核任务',
  'customer.approved': '投保人审核通过',
  'customer.returned': '投保人被退回',
  'customer.rejected': '投保人被拒绝',
  'application.approved': '投保单审核通过',
  'application.returned': '投保单被退回',
  'application.rejected': '投保单被拒绝',
  'application.materials_requested': '投保单需补充资料',
  'tender.approved': '二次下单审核通过',
  'tender.returned': '二次下单被退回',
  'tender.rejected': '二次下单被拒绝',
  'payment.received': '支付成功',
  'policy.issued': '保单已签发',
  'service.dispatched': '新的服务单',
  'service.confirmed': '服务已确认',
  'policy.expiring': '保单即将到期',
  'policy_change.submitted': '待核保的批改/退保',
  'policy_change.decided': '批改/退保审核结果',
  'policy_change.done': '批改/退保已生效',
  'policy_change.lapsed': '批改已失效',
});

// ---- what each notification says ----

/** A notification's words; every template takes names (姓名, company names) and business numbers, never ids. */
export interface NotificationText {
  title: string;
  body: string;
}

const DECIDED_WORDS: Readonly<Record<ReviewDecision, string>> = Object.freeze({
  approve: '已审核通过',
  return: '已被退回',
  reject: '已被拒绝',
});
/** 审核意见：…。 (the opinion's own closing punctuation dropped), or nothing. */
const opinionText = (opinion: string | null) =>
  opinion ? `审核意见：${opinion.replace(/[。.!！]+$/, '')}。` : '';

/**
 * The one wording of every notification (the server's events fill them in). Money is written by formatFen
 * (¥26,760.00), people by name, records by their business number.
 */
export const NOTIFICATION_TEXTS = Object.freeze({
  taskOpened: (t: { kind: TaskKind; title: string; submitterName: string }): NotificationText => ({
    title: `新的${TASK_KIND_LABELS[t.kind]}任务`,
    body: `${t.submitterName} 提交了「${t.title}」，等待审核。`,
  }),
  taskAssigned: (t: { kind: TaskKind; title: string; assignedByName: string }): NotificationText => ({
    title: `指派给您的${TASK_KIND_LABELS[t.kind]}任务`,
    body: `${t.assignedByName} 将「${t.title}」指派给您审核。`,
  }),
  taskReassigned: (t: {
    kind: TaskKind;
    title: string;
    assignedByName: string;
    assigneeName: string;
  }): NotificationText => ({
    title: `${TASK_KIND_LABELS[t.kind]}任务已改派`,
    body: `${t.assignedByName} 已将「${t.title}」改派给 ${t.assigneeName}，您无需再处理。`,
  }),
  customerDecided: (d: {
    decision: ReviewDecision;
    name: string;
    uscc: string;
    opinion: string | null;
  }): NotificationText => ({
    title: `投保人${DECIDED_WORDS[d.decision].slice(1)}`,
    body: `投保人「${d.name}」（${d.uscc}）${DECIDED_WORDS[d.decision]}。${opinionText(d.opinion)}`,
  }),
  applicationDecided: (d: {
    decision: ReviewDecision;
    number: string;
    customerName: string;
    opinion: string | null;
    /** The documents a return asks for, by name. */
    requested?: readonly string[];
  }): NotificationText => ({
    title: `投保单${DECIDED_WORDS[d.decision].slice(1)}`,
    body: `投保单 ${d.number}（${d.customerName}）${DECIDED_WORDS[d.decision]}。${opinionText(d.opinion)}${
      d.decision === 'approve'
        ? '请在支付期限内完成支付。'
        : d.requested?.length
          ? `请补充影像资料：${d.requested.join('、')}。`
          : ''
    }`,
  }),
  materialsRequested: (r: {
    number: string;
    customerName: string;
    requested: readonly string[];
    opinion: string | null;
  }): NotificationText => ({
    title: '投保单需补充资料',
    body: `投保单 ${r.number}（${r.customerName}）审核中，请补充影像资料：${r.requested.join('、')}。${opinionText(r.opinion)}`,
  }),
  tenderDecided: (d: {
    decision: ReviewDecision;
    number: string;
    projectName: string;
    opinion: string | null;
  }): NotificationText => ({
    title: `二次下单${DECIDED_WORDS[d.decision].slice(1)}`,
    body: `二次下单 ${d.number}（${d.projectName}）${DECIDED_WORDS[d.decision]}。${opinionText(d.opinion)}`,
  }),
  paymentReceived: (p: {
    applicationNumber: string;
    holderName: string;
    amountFen: number;
  }): NotificationText => ({
    title: '保费支付成功',
    body: `投保单 ${p.applicationNumber}（${p.holderName}）的保费 ${formatFen(p.amountFen)} 已支付成功，保单正在出具。`,
  }),
  policyIssued: (p: { number: string; applicationNumber: string; holderName: string }): NotificationText => ({
    title: '保单已签发',
    body: `投保单 ${p.applicationNumber}（${p.holderName}）已出单，保单号 ${p.number}，可查看并下载电子保单。`,
  }),
  serviceDispatched: (o: {
    number: string;
    holderName: string;
    itemType: string;
    scheduledDate: string;
  }): NotificationText => ({
    title: '新的服务单',
    body: `服务单 ${o.number}：为「${o.holderName}」提供${serviceItem(o.itemType)}，计划服务日期 ${o.scheduledDate}，请及时接单。`,
  }),
  serviceConfirmed: (o: { number: string; holderName: string; itemType: string }): NotificationText => ({
    title: '服务已确认',
    body: `「${o.holderName}」已确认服务单 ${o.number}（${serviceItem(o.itemType)}）。`,
  }),
  policyChangeSubmitted: (c: {
    kindLabel: string;
    number: string;
    policyNumber: string;
    holderName: string;
    changeText: string;
  }): NotificationText => ({
    title: `新的${c.kindLabel}申请`,
    body: `「${c.holderName}」申请${c.kindLabel}保单 ${c.policyNumber}（${c.number}）：${c.changeText}，等待核保。`,
  }),
  policyChangeLapsed: (c: { number: string; policyNumber: string; deltaFen: number }): NotificationText => ({
    title: '批改已失效',
    body: `保单 ${c.policyNumber} 的批改申请 ${c.number} 未在期限内补缴保费 ${formatFen(c.deltaFen)}，已失效，保单内容不变。如仍需批改，请重新申请。`,
  }),
  policyChangeDecided: (c: {
    kindLabel: string;
    number: string;
    policyNumber: string;
    decision: ReviewDecision;
    opinion: string | null;
    deltaFen: number;
  }): NotificationText => ({
    title: `${c.kindLabel}申请${DECIDED_WORDS[c.decision]}`,
    body:
      `保单 ${c.policyNumber} 的${c.kindLabel}申请 ${c.number} ${DECIDED_WORDS[c.decision]}` +
      (c.decision === 'approve' && c.deltaFen > 0 ? `，请补缴保费 ${formatFen(c.deltaFen)}` : '') +
      (c.opinion ? `。意见：${c.opinion}` : '') +
      '。',
  }),
  policyChangeDone: (c: {
    kind: 'ENDORSEMENT' | 'CANCELLATION';
    number: string;
    policyNumber: string;
    effectiveDate: string;
    deltaFen: number;
  }): NotificationText =>
    c.kind === 'CANCELLATION'
      ? {
          title: '保单已退保',
          body: `保单 ${c.policyNumber} 自 ${c.effectiveDate} 起退保，退还保费 ${formatFen(-c.deltaFen)} 已原路退回。`,
        }
      : {
          title: '批改已生效',
          body:
            `保单 ${c.policyNumber} 的批改 ${c.number} 自 ${c.effectiveDate} 起生效` +
            (c.deltaFen > 0
              ? `，已补缴保费 ${formatFen(c.deltaFen)}`
              : c.deltaFen < 0
                ? `，退还保费 ${formatFen(-c.deltaFen)} 已原路退回`
                : '') +
            '，可下载批单。',
        },
  policyExpiring: (p: {
    number: string;
    holderName: string;
    endDate: string;
    days: number;
  }): NotificationText => ({
    title: '保单即将到期',
    body: `保单 ${p.number}（${p.holderName}）将于 ${p.endDate} 到期${p.days > 0 ? `（还有 ${p.days} 天）` : '（今天到期）'}，请及时办理续保。`,
  }),
});

const serviceItem = (itemType: string) =>
  (SERVICE_ITEM_LABELS as Readonly<Record<string, string>>)[itemType] ?? '风控服务';

/** The WebSocket close code of a missing, invalid, revoked or expired sign-in. */
export const NOTIFICATION_WS_UNAUTHORIZED = 4401;
export const NOTIFICATION_WS_PATH = '/api/notifications/ws';
export const DEFAULT_NOTIFICATION_PAGE_SIZE = 20;
export const MAX_NOTIFICATION_PAGE_SIZE = 100;

export const notification = z.object({
  id: z.number(),
  /** One of NOTIFICATION_KINDS (a string, so an older client shows a newer kind too). */
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  /** A web route path to the record, e.g. /piibs/projectManage/policyInsuranceView/12. */
  link: z.string().nullable(),
  /** ISO 8601. */
  createTime: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notification>;

/** GET /api/notifications: newest first, keyset paged by id. */
export const notificationQuery = z.object({
  size: z.coerce
    .number({ error: '请输入整数' })
    .int({ error: '请输入整数' })
    .min(1, { error: '不能小于 1' })
    .max(MAX_NOTIFICATION_PAGE_SIZE, { error: `不能大于 ${MAX_NOTIFICATION_PAGE_SIZE}` })
    .default(DEFAULT_NOTIFICATION_PAGE_SIZE)
    .meta({ title: '每页条数' }),
  /** Only notifications with a smaller id (the `next` of the previous page). */
  before: z.coerce
    .number({ error: '请输入正确的通知ID' })
    .int({ error: '请输入正确的通知ID' })
    .positive({ error: '请输入正确的通知ID' })
    .max(Number.MAX_SAFE_INTEGER, { error: '请输入正确的通知ID' })
    .optional()
    .meta({ title: '起始通知ID' }),
  /** true: unread only; false: read only; missing: all. */
  unread: boolParam('是否未读').optional(),
});
export type NotificationQuery = z.input<typeof notificationQuery>;

export const notificationPage = z.object({
  content: z.array(notification),
  /** The caller's unread count (of every notification, whatever the filter). */
  unread: z.number(),
  /** The `before` of the next page; null at the end. */
  next: z.number().nullable(),
});
export type NotificationPage = z.infer<typeof notificationPage>;

/** PUT /api/notifications/read: `{ ids }` or `{ all: true }`. */
export const markReadForm = z
  .object({
    ids: z
      .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER), { error: '请选择要标记为已读的通知' })
      .min(1, { error: '请选择要标记为已读的通知' })
      .max(500, { error: '一次最多标记 500 条' })
      .optional()
      .meta({ title: '通知' }),
    all: z.literal(true, { error: '只能为 true' }).optional().meta({ title: '全部已读' }),
  })
  .refine((f) => (f.ids ? !f.all : f.all), { error: '请选择要标记为已读的通知，或全部标记为已读' });
export type MarkReadForm = z.input<typeof markReadForm>;

export const unreadCount = z.object({ unread: z.number() });

// ---- WebSocket messages ----

/** The client's first (and only) message. */
export const wsAuthMessage = z.object({
  type: z.literal('auth'),
  token: z.string().min(1).max(4096),
  after: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});
export type WsAuthMessage = z.input<typeof wsAuthMessage>;

export type WsServerMessage =
  | { type: 'ready'; unread: number }
  | { type: 'notification'; notification: Notification; unread: number }
  | { type: 'read'; unread: number };
