// In-app notifications: storing them (inside the business transaction that causes them), reading and marking
// them read.
//
// notify() inserts one row per recipient with ON CONFLICT (user_id, event_key) DO NOTHING, so a retried request,
// a replayed gateway notification or a re-run job never stores an event twice, and in the same statement calls
// pg_notify for the rows it actually inserted. PostgreSQL delivers a NOTIFY only when its transaction commits
// (and never when it rolls back), to every session listening on the channel — every server instance (./hub.ts)
// hears it and pushes the row to that user's open sockets.
import type { Notification, NotificationKind } from '@piibs/shared/notification';
import { and, count, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';

/**
 * The pg_notify channel; payloads are JSON `{ userId, id }` (a new row), `{ type: 'read', userId }` or
 * `{ type: 'revoked', userId, sessionId }` (a session ended: its sockets close, on every instance).
 */
export const NOTIFY_CHANNEL = 'piibs_notification';

export const NOTIFICATION_NOT_FOUND = '通知不存在';

export interface NotifyInput {
  /** Recipients; null/undefined entries and duplicates are dropped. */
  userIds: readonly (number | null | undefined)[];
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  /** Deterministic per business event, e.g. `application:12:approved:34`. */
  eventKey: string;
}

/**
 * Stores a notification for each recipient (once per event and user) and queues its live push for when the
 * caller's transaction commits. Pass the business transaction. Answers the ids of the rows inserted.
 */
export async function notify(tx: Pick<Db, 'execute'>, n: NotifyInput): Promise<number[]> {
  const userIds = [...new Set(n.userIds.filter((id): id is number => typeof id === 'number'))];
  if (userIds.length === 0) return [];
  const res = await tx.execute<{ id: number }>(sql`
    WITH ins AS (
      INSERT INTO ${notifications} (user_id, kind, title, body, link, event_key)
      SELECT u, ${n.kind}, ${n.title}, ${n.body}, ${n.link}, ${n.eventKey}
      FROM unnest(${`{${userIds.join(',')}}`}::bigint[]) AS u
      ON CONFLICT (user_id, event_key) DO NOTHING
      RETURNING id, user_id)
    SELECT id, pg_notify(${NOTIFY_CHANNEL}, json_build_object('userId', user_id, 'id', id)::text)
    FROM ins ORDER BY id`);
  return res.rows.map((r) => Number(r.id));
}

/**
 * Tells every instance's hub that these sessions ended (logout, password change, revoke-others, force logout,
 * password reset, disabled account), so their sockets close at once. Pass the transaction that revoked them: the
 * message goes out when it commits.
 */
export async function notifyRevoked(
  tx: Pick<Db, 'execute'>,
  revoked: readonly { id: string; userId: number }[],
): Promise<void> {
  if (revoked.length === 0) return;
  const ids = `{${revoked.map((r) => r.id).join(',')}}`;
  const userIds = `{${revoked.map((r) => r.userId).join(',')}}`;
  await tx.execute(sql`
    SELECT pg_notify(${NOTIFY_CHANNEL}, json_build_object('type', 'revoked', 'userId', u, 'sessionId', s)::text)
    FROM unnest(${ids}::uuid[], ${userIds}::bigint[]) AS t(s, u)`);
}

const columns = {
  id: notifications.id,
  kind: notifications.kind,
  title: notifications.title,
  body: notifications.body,
  link: notifications.link,
  createdAt: notifications.createdAt,
  readAt: notifications.readAt,
};
interface Row {
  id: number;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  createdAt: Date;
  readAt: Date | null;
}

export const toNotification = (r: Row): Notification => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  body: r.body,
  link: r.link,
  createTime: r.createdAt.toISOString(),
  read: r.readAt !== null,
});

export async function unreadCountOf(db: Pick<Db, 'select'>, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** A user's notifications with id > after, oldest first (the WebSocket catch-up). */
export async function notificationsAfter(
  db: Pick<Db, 'select'>,
  userId: number,
  after: number,
  limit: number,
): Promise<Notification[]> {
  const rows = await db
    .select(columns)
    .from(notifications)
    .where(and(eq(notifications.userId, userId), sql`${notifications.id} > ${after}`))
    .orderBy(notifications.id)
    .limit(limit);
  return rows.map(toNotification);
}

export interface ListInput {
  size: number;
  before?: number | undefined;
  unread?: boolean | undefined;
}

/** The caller's notifications, newest first, keyset paged by id. */
export async function listNotifications(
  db: Db,
  userId: number,
  q: ListInput,
): Promise<{ content: Notification[]; unread: number; next: number | null }> {
  const rows = await db
    .select(columns)
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        q.before ? lt(notifications.id, q.before) : undefined,
        q.unread === true ? isNull(notifications.readAt) : undefined,
        q.unread === false ? isNotNull(notifications.readAt) : undefined,
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(q.size + 1);
  const page = rows.slice(0, q.size);
  return {
    content: page.map(toNotification),
    unread: await unreadCountOf(db, userId),
    next: rows.length > q.size ? page[page.length - 1]!.id : null,
  };
}

/**
 * Marks the caller's notifications read: the ids given (all of them must be the caller's, else 404 and nothing
 * changes) or all. Idempotent; when something changed, every tab of the user (on any instance) is told the new
 * unread count. Answers the unread count.
 */
export async function markRead(
  db: Db,
  userId: number,
  form: { ids?: number[] | undefined; all?: true | undefined },
): Promise<{ unread: number }> {
  return db.transaction(async (tx) => {
    const ids = form.all ? null : [...new Set(form.ids ?? [])];
    if (ids) {
      const [own] = await tx
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), inArray(notifications.id, ids)));
      if ((own?.n ?? 0) !== ids.length) throw notFound(NOTIFICATION_NOT_FOUND);
    }
    const changed = await tx
      .update(notifications)
      .set({ readAt: sql`now()` })
      .where(
        and(
          eq(notifications.userId, userId),
          isNull(notifications.readAt),
          ids ? inArray(notifications.id, ids) : undefined,
        ),
      )
      .returning({ id: notifications.id });
    if (changed.length)
      await tx.execute(
        sql`SELECT pg_notify(${NOTIFY_CHANNEL}, json_build_object('type', 'read', 'userId', ${userId}::bigint)::text)`,
      );
    return { unread: await unreadCountOf(tx, userId) };
  });
}
