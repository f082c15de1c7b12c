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
});

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
