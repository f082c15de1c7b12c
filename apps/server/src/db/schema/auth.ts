// Signing in: sessions, captchas, one-time tokens and the sign-in attempts.

import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { users } from './system.ts';

/** Server-side sessions: a token is only valid while its row is unrevoked and unexpired. */
export const sessions = pgTable(
  'session',
  {
    id: uuid('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** full | password_change (a weak-password sign-in may only change the password) | handoff */
    scope: text('scope').notNull().default('full'),
    /** password | ca | handoff */
    method: text('method').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('session_user').on(t.userId)],
);

/** Captcha answers, stored hashed, single use, short-lived. */
export const captchas = pgTable(
  'captcha',
  {
    id: uuid('id').primaryKey(),
    answerHash: text('answer_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('captcha_expires').on(t.expiresAt)],
);

/**
 * Single-use secrets handed to a client: CA sign-in challenges and hand-off tokens. Only the SHA-256 of the
 * secret is stored; using one deletes the row.
 */
export const oneTimeTokens = pgTable(
  'one_time_token',
  {
    hash: text('hash').primaryKey(),
    /** ca_challenge | handoff */
    kind: text('kind').notNull(),
    /** The account a hand-off token signs in as. */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    createdBy: bigint('created_by', { mode: 'number' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('one_time_token_expires').on(t.expiresAt)],
);

/** Sign-in attempts, for the per-IP limit and the user's own sign-in history. */
export const loginAttempts = pgTable(
  'login_attempt',
  {
    id: id(),
    username: text('username').notNull(),
    userId: bigint('user_id', { mode: 'number' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    method: text('method').notNull(),
    success: boolean('success').notNull(),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_attempt_ip_time').on(t.ip, t.createdAt),
    index('login_attempt_user_time').on(t.userId, t.createdAt),
    index('login_attempt_time').on(t.createdAt),
    /** The per-IP failure budget counts only failures: behind a NAT the successes would be read at every sign-in. */
    index('login_attempt_ip_failures')
      .on(t.ip, t.createdAt)
      .where(sql`${t.success} = false and ${t.reason} is distinct from 'ip_limited'`),
  ],
);
