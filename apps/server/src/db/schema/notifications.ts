// In-app notifications.

import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { users } from './system.ts';

/**
 * In-app notifications: one row per (user, event). `event_key` is deterministic per business event, so a
 * retried request, a replayed gateway notification or a re-run job never stores the same event twice.
 * Rows are written by `notify` inside the business transaction and pushed live via pg_notify on commit.
 */
export const notifications = pgTable(
  'notification',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** e.g. task.assigned, application.approved, payment.received, policy.expiring. */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** A web route path to the record. */
    link: text('link'),
    eventKey: text('event_key').notNull(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notification_user_event').on(t.userId, t.eventKey),
    index('notification_user_id').on(t.userId, t.id.desc()),
    index('notification_unread').on(t.userId, t.id).where(sql`${t.readAt} is null`),
  ],
);
