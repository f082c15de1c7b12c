import { formatFen } from '@piibs/shared/money';
import { PAYMENT_MESSAGES } from '@piibs/shared/payment';
import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  applicationEvents,
  applications,
  auditLog,
  paymentNotifications,
  paymentOrders,
  payments,
  policies,
} from '../../db/schema.ts';
import { jobHandlers } from '../../jobs/boss.ts';
import { businessContext } from './context.ts';
import { handleNotification } from './notify.ts';
import { signFields } from './provider.ts';
import {
  cashier,
  createPayWorld,
  type PayWorld,
  paidSilently,
  pendingPayment,
  postNotification,
  startPay,
} from './test-fixtures.ts';

let w: PayWorld;
beforeAll(async () => {
  w = await createPayWorld();
});
afterAll(() => w.t.close());

const db = () => w.t.database.db;
const n = async (table: typeof payments | typeof policies, applicationId: number) =>
  (await db().select({ n: count() }).from(table).where(eq(table.applicationId, applicationId)))[0]!.n;
const appStatus = async (id: number) =>
  (await db().select({ s: applications.status }).from(applications).where(eq(applications.id, id)))[0]!.s;
const orderOf = async (number: string) =>
  (await db().select().from(paymentOrders).where(eq(paymentOrders.number, number)))[0]!;
const notificationsOf = (orderNo: string) =>
  db()
    .select()
    .from(paymentNotifications)
    .where(eq(paymentNotifications.orderNo, orderNo))
    .orderBy(asc(paymentNotifications.id));

describe('opening the charge', () => {
  it('the owner gets the sandbox cashier; others 404/403; the cashier page is marked as a sandbox', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    expect(a.status).toBe('PENDING_PAYMENT');
    expect((await w.ent2.post(`/api/payments/orders/${a.id}/pay`)).statusCode).toBe(404);
    expect((await w.underwriter.post(`/api/payments/orders/${a.id}/pay`)).statusCode).toBe(403);
    const start = await startPay(w.ent, a.id);
    expect(start).toMatchObject({
      payId: a.paymentOrder!.number,
      amountFen: a.premiumFen,
      provider: 'sandbox',
    });
    expect(start.cashierUrl).toMatch(/^\/sandbox-pay\/cashier\?.*sign=[0-9a-f]{64}/);
    // Asking again answers the same charge.
    expect((await startPay(w.ent, a.id)).chargeNo).toBe(start.chargeNo);
    const page = await w.t.app.inject({ method: 'GET', url: start.cashierUrl });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('沙箱支付 · 测试环境');
    expect(page.body).toContain(start.payId);
    expect(page.body).toContain(formatFen(a.premiumFen));
    expect(page.body).toContain('确认支付');
    expect(page.body).toContain('取消支付');
    // A tampered link (the amount changed) is refused.
    const tampered = start.cashierUrl.replace(/amountFen=\d+/, 'amountFen=1');
    expect((await w.t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(400);
    // Cancel goes back to the result page with nothing paid.
    const cancel = await cashier(w, start.cashierUrl, 'cancel');
    expect(cancel.statusCode).toBe(303);
    expect(cancel.headers.location).toBe(`/piibs/insured/paymentWebResult/${start.payId}/cancel`);
    expect((await orderOf(start.payId)).status).toBe('PENDING');
    // Paying a non-pending application answers 409.
    const draft = (await w.ent.get(`/api/applications/${a.id}`)).json();
    const cancelled = await w.ent.post(`/api/applications/${a.id}/cancel`, { version: draft.version });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await w.ent.post(`/api/payments/orders/${a.id}/pay`)).json()).toEqual({
      status: 409,
      message: PAYMENT_MESSAGES.notPending,
    });
  });
});

describe('notifications', () => {
  it('the cashier pays, the sandbox notifies, the server settles and issues; the result page tells the truth', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const start = await startPay(w.ent, a.id);
    const res = await cashier(w, start.cashierUrl, 'pay');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/piibs/insured/paymentWebResult/${start.payId}/success`);
    const result = await w.ent.get(`/api/payments/${start.payId}`);
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json()).toMatchObject({
      payId: start.payId,
      status: 'PAID',
      amountFen: a.premiumFen,
      applicationId: a.id,
      applicationStatus: 'ISSUED',
      provider: 'sandbox',
    });
    expect(result.json().policyNumber).toMatch(/^PAZX\d{4}\d{8}$/);
    expect(result.json().tradeNo).toMatch(/^SBX/);
    const [note] = await notificationsOf(start.payId);
    expect(note).toMatchObject({ signatureValid: true, outcome: 'PAID', provider: 'sandbox' });
    const [payment] = await db().select().from(payments).where(eq(payments.applicationId, a.id));
    expect(payment).toMatchObject({ source: 'notify', notificationId: note!.id, amountFen: a.premiumFen });
    const events = (await w.ent.get(`/api/applications/${a.id}/events`)).json() as { action: string }[];
    expect(events.map((e) => e.action)).toEqual(['create', 'submit', 'approve', 'pay', 'issue']);
    // Someone else's result: 404.
    expect((await w.ent2.get(`/api/payments/${start.payId}`)).statusCode).toBe(404);
  });

  it('20 replays of one notification, one after another: one payment, one policy, the same answer', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const body = await paidSilently(w, await startPay(w.ent, a.id));
    const answers: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await postNotification(w, body);
      expect(res.statusCode, res.body).toBe(200);
      answers.push(res.body);
    }
    expect(new Set(answers)).toEqual(new Set([JSON.stringify({ code: 'SUCCESS', message: '已接收' })]));
    expect(await n(payments, a.id)).toBe(1);
    expect(await n(policies, a.id)).toBe(1);
    expect(await appStatus(a.id)).toBe('ISSUED');
    const notes = await notificationsOf(a.paymentOrder!.number);
    expect(notes).toHaveLength(20);
    expect(notes.filter((x) => x.outcome === 'PAID')).toHaveLength(1);
    expect(notes.filter((x) => x.outcome === 'DUPLICATE')).toHaveLength(19);
    const pays = await db()
      .select({ n: count() })
      .from(applicationEvents)
      .where(and(eq(applicationEvents.applicationId, a.id), eq(applicationEvents.action, 'pay')));
    expect(pays[0]!.n).toBe(1);
  });

  it('20 replays at once: one payment, one policy, every answer the same', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const body = await paidSilently(w, await startPay(w.ent, a.id));
    const all = await Promise.all(Array.from({ length: 20 }, () => postNotification(w, body)));
    expect(all.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(all.map((r) => r.body)).size).toBe(1);
    expect(await n(payments, a.id)).toBe(1);
    expect(await n(policies, a.id)).toBe(1);
    expect(await appStatus(a.id)).toBe('ISSUED');
    expect((await notificationsOf(a.paymentOrder!.number)).filter((x) => x.outcome === 'PAID')).toHaveLength(
      1,
    );
  });

  it('a forged signature answers 400, changes nothing and is recorded', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const body = JSON.parse(await paidSilently(w, await startPay(w.ent, a.id)));
    // Signed with another key.
    const { sign: _sign, ...fields } = body;
    const forged = JSON.stringify({
      ...fields,
      sign: signFields(fields, 'not-the-merchant-key-0123456789abcdef'),
    });
    const res = await postNotification(w, forged);
    expect(res.json()).toEqual({ status: 400, message: PAYMENT_MESSAGES.badSignature });
    // The right signature, a changed field.
    const tampered = await postNotification(w, JSON.stringify({ ...body, tradeNo: 'SBX-OTHER' }));
    expect(tampered.statusCode).toBe(400);
    // Garbage.
    expect((await postNotification(w, '{not json')).json()).toEqual({
      status: 400,
      message: PAYMENT_MESSAGES.malformed,
    });
    expect((await orderOf(a.paymentOrder!.number)).status).toBe('PENDING');
    expect(await appStatus(a.id)).toBe('PENDING_PAYMENT');
    expect(await n(payments, a.id)).toBe(0);
    const notes = await notificationsOf(a.paymentOrder!.number);
    expect(notes.map((x) => [x.outcome, x.signatureValid])).toEqual([
      ['BAD_SIGNATURE', false],
      ['BAD_SIGNATURE', false],
    ]);
    expect(notes[0]!.rawBody).toBe(forged);
    const [garbage] = await db()
      .select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.rawBody, '{not json'));
    expect(garbage).toMatchObject({ outcome: 'MALFORMED', signatureValid: false });
  });

  it('a correctly signed notification with the wrong amount changes nothing; an unknown order neither', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const body = JSON.parse(await paidSilently(w, await startPay(w.ent, a.id)));
    const { sign: _sign, ...fields } = body;
    const cheaper = { ...fields, amountFen: fields.amountFen - 1 };
    const res = await postNotification(w, JSON.stringify({ ...cheaper, sign: signFields(cheaper, w.key) }));
    expect(res.json()).toEqual({ status: 400, message: PAYMENT_MESSAGES.amountMismatch });
    const unknown = { ...fields, orderNo: 'ZF20990101000000' };
    const res2 = await postNotification(w, JSON.stringify({ ...unknown, sign: signFields(unknown, w.key) }));
    expect(res2.json()).toEqual({ status: 400, message: PAYMENT_MESSAGES.unknownOrder });
    expect((await orderOf(a.paymentOrder!.number)).status).toBe('PENDING');
    expect(await appStatus(a.id)).toBe('PENDING_PAYMENT');
    expect(await n(payments, a.id)).toBe(0);
    expect((await notificationsOf(a.paymentOrder!.number)).map((x) => x.outcome)).toEqual([
      'AMOUNT_MISMATCH',
    ]);
    // The genuine one still settles afterwards.
    expect((await postNotification(w, JSON.stringify(body))).statusCode).toBe(200);
    expect(await appStatus(a.id)).toBe('ISSUED');
  });
});

describe('notifications to a provider the server does not have', () => {
  const notify = (provider: string, payload: string, contentType = 'application/json') =>
    w.t.app.inject({
      method: 'POST',
      url: `/api/payments/notify/${provider}`,
      headers: { 'content-type': contentType },
      payload,
    });
  const recordedFor = (provider: string) =>
    db()
      .select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.provider, provider))
      .orderBy(asc(paymentNotifications.id));

  it('answers 404 naming the field, records nothing and changes nothing', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    // A genuinely signed sandbox body, sent to another provider's address.
    const body = await paidSilently(w, await startPay(w.ent, a.id));
    const res = await notify('alipay', body);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: '支付渠道：不支持的支付渠道' });
    expect(res.json().message).toBe(PAYMENT_MESSAGES.unknownProvider);
    expect(await recordedFor('alipay')).toEqual([]);
    expect(await notificationsOf(a.paymentOrder!.number)).toEqual([]);
    expect((await orderOf(a.paymentOrder!.number)).status).toBe('PENDING');
    expect(await n(payments, a.id)).toBe(0);
    // The same body at the right address still settles.
    expect((await postNotification(w, body)).statusCode).toBe(200);
    expect(await appStatus(a.id)).toBe('ISSUED');
  });

  it('names that are not providers (inherited properties, long names), empty bodies and other content types: 404, nothing recorded', async () => {
    const before = (await db().select().from(paymentNotifications)).length;
    for (const name of ['constructor', '__proto__', 'toString']) {
      const res = await notify(name, '{}');
      expect(res.statusCode, `${name}: ${res.body}`).toBe(404);
    }
    // A form-encoded body to a name the server does not have.
    const form1 = await notify('wxpay', 'out_trade_no=ZF1&total_fee=1', 'application/x-www-form-urlencoded');
    expect(form1.statusCode).toBe(404);
    // A long name, an empty body.
    const empty = await w.t.app.inject({ method: 'POST', url: `/api/payments/notify/${'x'.repeat(100)}` });
    expect(empty.statusCode, empty.body).toBe(404);
    expect((await db().select().from(paymentNotifications)).length).toBe(before);
    // A form-encoded body to the sandbox is recorded as malformed (it was refused unread before).
    const form = await notify('sandbox', 'orderNo=ZF1&amountFen=1', 'application/x-www-form-urlencoded');
    expect(form.json()).toEqual({ status: 400, message: PAYMENT_MESSAGES.malformed });
    const [formRow] = await db()
      .select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.rawBody, 'orderNo=ZF1&amountFen=1'));
    expect(formRow).toMatchObject({ provider: 'sandbox', outcome: 'MALFORMED' });
  });

  it('logs a warning with the name, the sender and the size, never the body or its signature', async () => {
    const ctx = businessContext(w.t.app);
    const warn = vi.fn();
    const body = JSON.stringify({ orderNo: 'ZF20990101000000', sign: 'f'.repeat(64) });
    const answer = await handleNotification(
      { ...ctx, log: { ...ctx.log, warn } },
      'unionpay',
      { 'content-type': 'application/json', authorization: 'Bearer secret-token' },
      body,
      '203.0.113.9',
    );
    expect(answer).toEqual({
      status: 404,
      message: PAYMENT_MESSAGES.unknownProvider,
      refused: 'UNKNOWN_PROVIDER',
    });
    expect(warn).toHaveBeenCalledTimes(1);
    const [fields, text] = warn.mock.calls[0]!;
    expect(fields).toEqual({ provider: 'unionpay', ip: '203.0.113.9', bytes: body.length });
    expect(text).toMatch(/unknown provider/);
    expect(JSON.stringify(warn.mock.calls)).not.toMatch(/f{64}|secret-token/);
    expect(await recordedFor('unionpay')).toEqual([]);
  });
});

describe('the active query', () => {
  it('no callback: the result endpoint asks the sandbox, settles and issues', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const start = await startPay(w.ent, a.id);
    await paidSilently(w, start);
    expect(await appStatus(a.id)).toBe('PENDING_PAYMENT');
    const res = await w.ent.get(`/api/payments/${start.payId}`);
    expect(res.json()).toMatchObject({ status: 'PAID', applicationStatus: 'ISSUED' });
    expect(res.json().policyId).toBeGreaterThan(0);
    const [payment] = await db().select().from(payments).where(eq(payments.applicationId, a.id));
    expect(payment).toMatchObject({ source: 'query', notificationId: null });
    expect(await notificationsOf(start.payId)).toHaveLength(0);
    // A late notification afterwards is a duplicate.
    const charge = await w.sandbox.chargeByOrder(start.payId);
    expect((await postNotification(w, w.sandbox.notificationBody(charge!))).statusCode).toBe(200);
    expect(await n(payments, a.id)).toBe(1);
    expect(await n(policies, a.id)).toBe(1);
  });

  it('pending and unpaid: the result says PENDING (by order id as well)', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const start = await startPay(w.ent, a.id);
    const res = await w.ent.get(`/api/payments/${start.orderId}`);
    expect(res.json()).toMatchObject({ payId: start.payId, status: 'PENDING', policyId: null });
  });
});

describe('expiry (the pg-boss job handler, called directly)', () => {
  it('moves a due order to EXPIRED and its application to PAYMENT_EXPIRED, with event and audit; the cashier closes', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const start = await startPay(w.ent, a.id);
    const b = await pendingPayment(w, w.ent, w.entCustomerId); // not due
    await db()
      .update(paymentOrders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(paymentOrders.id, start.orderId));
    expect(await jobHandlers.expire(w.ctx)).toBe(1);
    expect(await jobHandlers.expire(w.ctx)).toBe(0);
    const order = await orderOf(start.payId);
    expect(order.status).toBe('EXPIRED');
    expect(await appStatus(a.id)).toBe('PAYMENT_EXPIRED');
    expect(await appStatus(b.id)).toBe('PENDING_PAYMENT');
    const events = (await w.ent.get(`/api/applications/${a.id}/events`)).json() as {
      action: string;
      toStatus: string;
    }[];
    expect(events.at(-1)).toMatchObject({ action: 'expire', toStatus: 'PAYMENT_EXPIRED' });
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'payment_order'), eq(auditLog.action, 'expire')));
    expect(audit.map((r) => r.entityId)).toContain(String(start.orderId));
    // The gateway closed the charge: paying now is refused and nothing changes.
    const res = await cashier(w, start.cashierUrl, 'pay').catch((e: Error) => e);
    expect(res).toBeInstanceOf(Error); // the cashier page itself answers 409 (closed)
    expect(await n(payments, a.id)).toBe(0);
    expect((await w.ent.post(`/api/payments/orders/${a.id}/pay`)).statusCode).toBe(409);
  });

  it('a charge paid at the gateway just before expiry is settled, not expired', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const start = await startPay(w.ent, a.id);
    await paidSilently(w, start);
    await db()
      .update(paymentOrders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(paymentOrders.id, start.orderId));
    expect(await jobHandlers.expire(w.ctx)).toBe(0);
    expect((await orderOf(start.payId)).status).toBe('PAID');
    expect(await appStatus(a.id)).toBe('ISSUED');
  });
});

describe('cancelling while the payment waits', () => {
  it('closes the charge at the gateway: the cashier no longer takes the money', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const start = await startPay(w.ent, a.id);
    const cancelled = await w.ent.post(`/api/applications/${a.id}/cancel`, { version: a.version });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('CANCELLED');
    expect((await orderOf(start.payId)).status).toBe('CANCELLED');
    expect((await w.sandbox.chargeByOrder(start.payId))?.status).toBe('CLOSED');
    await cashier(w, start.cashierUrl, 'pay').catch(() => undefined);
    expect(await n(payments, a.id)).toBe(0);
    expect(await n(policies, a.id)).toBe(0);
  });
});
