// Idempotency keys on the retryable writes (create and submit an application, decide a review task), through the
// real routes: a retry answers the first answer and changes nothing more; concurrent duplicates make one change;
// another request under a used key is 422; an error is not stored; keys are per user and expire.
import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, tokenFor } from '../../test/auth.ts';
import { attachMaterials } from '../../test/business.ts';
import {
  applicationEvents,
  applications,
  auditLog,
  idempotencyKeys,
  products,
  reviewTasks,
} from '../db/schema.ts';
import { createPayWorld, type PayWorld } from '../modules/payments/test-fixtures.ts';
import { BAD_KEY, KEY_REUSED, REPLAYED_HEADER } from './idempotency.ts';

let w: PayWorld;
let entToken: string;
let ent2Token: string;
let uwToken: string;
let productId: number;
beforeAll(async () => {
  w = await createPayWorld();
  entToken = await tokenFor(w.t, 'ent');
  ent2Token = await tokenFor(w.t, 'ent2');
  uwToken = await tokenFor(w.t, 'uw');
  const [p] = await w.t.database.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, 'AZX_GM_2025'));
  productId = p!.id;
});
afterAll(() => w.t.close());

const db = () => w.t.database.db;

function post(token: string, url: string, payload: unknown, key?: string) {
  return w.t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: payload as object,
  });
}

const create = (key?: string, token = entToken, customerId = w.entCustomerId) =>
  post(token, '/api/applications', { productId, customerId }, key);

async function applicationsOf(customerId: number): Promise<number> {
  const [row] = await db()
    .select({ n: count() })
    .from(applications)
    .where(eq(applications.customerId, customerId));
  return row!.n;
}

describe('Idempotency-Key', () => {
  it('a retried create answers the first answer and makes one application, one event, one audit row', async () => {
    const key = randomUUID();
    const before = await applicationsOf(w.entCustomerId);
    const first = await create(key);
    expect(first.statusCode).toBe(200);
    expect(first.headers[REPLAYED_HEADER]).toBeUndefined();
    const again = await create(key);
    expect(again.statusCode).toBe(200);
    expect(again.headers[REPLAYED_HEADER]).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await applicationsOf(w.entCustomerId)).toBe(before + 1);
    const id = first.json().id as number;
    const [events] = await db()
      .select({ n: count() })
      .from(applicationEvents)
      .where(eq(applicationEvents.applicationId, id));
    expect(events!.n).toBe(1);
    const [audits] = await db()
      .select({ n: count() })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'application'),
          eq(auditLog.entityId, String(id)),
          eq(auditLog.action, 'create'),
        ),
      );
    expect(audits!.n).toBe(1);
    // Without a key every call is a new request, as before.
    const plain = await create();
    expect(plain.json().id).not.toBe(id);
  });

  it('concurrent duplicates make one change and all answer the same', async () => {
    const key = randomUUID();
    const before = await applicationsOf(w.entCustomerId);
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(key)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(answers.filter((a) => a.headers[REPLAYED_HEADER] === 'true')).toHaveLength(5);
    expect(await applicationsOf(w.entCustomerId)).toBe(before + 1);
  });

  it('another request under a used key is 422 and changes nothing', async () => {
    const key = randomUUID();
    const first = await create(key);
    expect(first.statusCode).toBe(200);
    const before = await applicationsOf(w.entCustomerId);
    const otherBody = await post(
      entToken,
      '/api/applications',
      { productId, customerId: w.entCustomerId, policyholderType: 2 },
      key,
    );
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toEqual({ status: 422, message: KEY_REUSED });
    const otherPath = await post(
      entToken,
      `/api/applications/${first.json().id}/submit`,
      { version: 1 },
      key,
    );
    expect(otherPath.statusCode).toBe(422);
    expect(await applicationsOf(w.entCustomerId)).toBe(before);
    const [a] = await db().select().from(applications).where(eq(applications.id, first.json().id));
    expect(a!.status).toBe('DRAFT');
  });

  it('an error is not stored: the same key works once the request is right', async () => {
    const key = randomUUID();
    const refused = await create(key, entToken, 99_999_999);
    expect(refused.statusCode).toBe(404);
    const stored = await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(stored).toHaveLength(0);
    const ok = await create(key);
    expect(ok.statusCode).toBe(200);
  });

  it('keys belong to their user', async () => {
    const key = randomUUID();
    const mine = await create(key);
    const theirs = await create(key, ent2Token, w.ent2CustomerId);
    expect(mine.statusCode).toBe(200);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
  });

  it('a retried submit opens one review task; a retried decision answers 200, not 409', async () => {
    const a = (await create()).json();
    await attachMaterials(w.ent, a.id);
    const key = randomUUID();
    const submits = await Promise.all([
      post(entToken, `/api/applications/${a.id}/submit`, { version: a.version }, key),
      post(entToken, `/api/applications/${a.id}/submit`, { version: a.version }, key),
    ]);
    expect(submits.map((s) => s.statusCode)).toEqual([200, 200]);
    const retry = await post(entToken, `/api/applications/${a.id}/submit`, { version: a.version }, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(submits[0]!.json());
    const tasks = await db()
      .select()
      .from(reviewTasks)
      .where(and(eq(reviewTasks.kind, 'application'), eq(reviewTasks.subjectId, a.id)));
    expect(tasks).toHaveLength(1);

    const task = tasks[0]!;
    const decision = { decision: 'return', version: task.version, opinion: '请补充材料' };
    const dKey = randomUUID();
    const first = await post(uwToken, `/api/tasks/${task.id}/decide`, decision, dKey);
    expect(first.statusCode).toBe(200);
    const replay = await post(uwToken, `/api/tasks/${task.id}/decide`, decision, dKey);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    // Without the key the same retry is refused as already decided, as before.
    expect((await post(uwToken, `/api/tasks/${task.id}/decide`, decision)).statusCode).toBe(409);
    const [decided] = await db()
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(a.id)), eq(auditLog.action, 'review_return')));
    expect(decided!.n).toBe(1);
  });

  it('a malformed key is 400 naming the header', async () => {
    for (const key of ['', 'x'.repeat(256), '键', 'a b']) {
      const res = await create(key);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json()).toEqual({ status: 400, message: BAD_KEY });
    }
    expect((await create('x'.repeat(255))).statusCode).toBe(200);
  });

  it('a key older than 24 hours is forgotten', async () => {
    const key = randomUUID();
    const first = await create(key);
    await db()
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(idempotencyKeys.key, key));
    const again = await create(key);
    expect(again.statusCode).toBe(200);
    expect(again.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(again.json().id).not.toBe(first.json().id);
    expect(await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(1);
  });
});
