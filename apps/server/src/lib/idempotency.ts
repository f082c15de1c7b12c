// Idempotency keys (request header `Idempotency-Key`) for the writes a client may have to retry without knowing
// whether the first attempt went through (a dropped connection, a timeout, a restarted server): creating and
// submitting an application, deciding a review task.
//
// With a key, the handler runs in one transaction that first claims (user, key) in idempotency_key and last
// stores its answer there, so the change and the stored answer commit together or not at all:
// - the same request again after the commit answers the stored answer (header `Idempotent-Replayed: true`);
// - the same request while the first is still running waits on the first one's row lock, then replays it;
// - another request (method, path or body) under a used key answers 422;
// - an error answer is not stored (its transaction rolls back), so a retry runs again.
// Keys are kept 24 hours, then dropped by the same user's next keyed request. Without the header nothing changes.
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { badRequest, conflict, HttpError } from './errors.ts';
import { adminErrors, errorBody } from './schemas.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const KEY_TTL_HOURS = 24;
export const BAD_KEY = '请求头 Idempotency-Key：须为 1–255 个可见 ASCII 字符';
export const KEY_REUSED = '请求头 Idempotency-Key：该幂等键已用于另一个请求，新的请求请使用新的幂等键';
export const KEY_BUSY = '相同幂等键的请求正在处理，请稍后重试';

/** The error answers of a route that takes an idempotency key (422: the key was used for another request). */
export const idempotentErrors = { ...adminErrors, 422: errorBody };

/** The note for a route's OpenAPI summary. */
export const IDEMPOTENT_NOTE = '（可带 Idempotency-Key 请求头：重试答首次结果，不重复执行）';

/** The request's idempotency key, or null without the header; 400 when malformed. */
export function idempotencyKeyOf(req: FastifyRequest): string | null {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(raw)) throw badRequest(BAD_KEY);
  return raw;
}

const fingerprintOf = (req: FastifyRequest) =>
  createHash('sha256')
    .update(`${req.method} ${req.url}\n${JSON.stringify(req.body ?? null)}`)
    .digest('hex');

/**
 * Runs a write handler under the request's idempotency key (see the top of the file). `run` gets the database
 * to work with: the key's transaction when there is a key (nested transactions become savepoints), else the
 * app's database. What `run` answers must be JSON (it is stored and replayed as such).
 */
export async function idempotent<T>(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  run: (db: Db) => Promise<T>,
): Promise<T> {
  const db = app.deps.database.db;
  const key = idempotencyKeyOf(req);
  if (key === null) return run(db);
  const userId = req.user.id;
  const fingerprint = fingerprintOf(req);
  const mine = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
  const answer = await db.transaction(async (tx) => {
    // Expired keys of this user go first; rows another request holds are skipped, not waited for.
    await tx.execute(sql`delete from ${idempotencyKeys} where (user_id, key) in (
      select user_id, key from ${idempotencyKeys}
      where user_id = ${userId} and created_at < now() - make_interval(hours => ${KEY_TTL_HOURS})
      for update skip locked)`);
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ userId, key, method: req.method, path: req.url.slice(0, 2048), fingerprint })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const [prior] = await tx.select().from(idempotencyKeys).where(mine);
      if (!prior || prior.status === null) throw conflict(KEY_BUSY);
      if (prior.fingerprint !== fingerprint) throw new HttpError(422, KEY_REUSED);
      return { replayed: true, status: prior.status, body: prior.response as T };
    }
    // A transaction is not a Db by type (no $client), but it offers everything the services call on one.
    const body = await run(tx as unknown as Db);
    const status = reply.statusCode;
    await tx
      .update(idempotencyKeys)
      .set({ status, response: JSON.parse(JSON.stringify(body ?? null)) })
      .where(mine);
    return { replayed: false, status, body };
  });
  if (answer.replayed) reply.header(REPLAYED_HEADER, 'true');
  reply.status(answer.status);
  return answer.body;
}
