// Two API instances on one database behind Debian's nginx as a round-robin load balancer (issues 12 and 25,
// scaling), and payments at scale: instance A with the embedded PostgreSQL (or TEST_DATABASE_URL / DATABASE_URL
// when set: a fresh database there), instance B on A's database through DATABASE_URL, the same JWT_SECRET and
// sandbox key, both with TRUST_PROXY naming nginx's address and their stored files in one S3 bucket (PIIBS_STORAGE=s3
// against the S3-protocol server of test/s3.ts): a material uploaded through A downloads byte for byte through B.
// - A session made on one instance works on the other; signed out on one, it ends on both; the client's address
//   travels through nginx's X-Forwarded-For into the sign-in log.
// - Live notifications: WebSockets on each instance directly and through nginx (upgrades passed) all receive a
//   notification written through the other instance.
// - 50 orders (RELIABILITY_ORDERS) paid at the sandbox gateway without its callback, then 20 signed
//   notifications each (RELIABILITY_REPLAYS; fresh nonces and byte-identical replays), half the orders one after
//   another, half all at once, spread over both instances: exactly one payment per order, every answer 200,
//   every notification recorded once, one policy each (the inline issuance and both instances' pg-boss workers
//   race for it), no second in-app notification from the replays.
// - Forged notifications (wrong key, changed amount, added field, unknown order, garbage) to both instances:
//   400, nothing changes.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestS3, type TestS3 } from '../../../test/s3.ts';
import { signFields } from '../../modules/payments/provider.ts';
import {
  type CallOptions,
  call,
  customerDocuments,
  DEMO_PASSWORD,
  embeddedUrl,
  envNumber,
  type Nginx,
  ok,
  pool,
  type Reply,
  SEED,
  Server,
  say,
  scalar,
  scratch,
  signIn,
  sleep,
  sqlClient,
  startNginx,
  startRefused,
  stopAll,
  Tally,
} from './harness.ts';
import { integrityProblems } from './integrity.ts';

const ORDERS = envNumber('RELIABILITY_ORDERS', 50);
const REPLAYS = envNumber('RELIABILITY_REPLAYS', 20);
const JWT_SECRET = randomBytes(32).toString('base64url');
const PAY_KEY = randomBytes(32).toString('base64url');
// nginx connects to the instances from 127.0.0.1: its X-Forwarded-For is believed from there only.
const SHARED_ENV = { JWT_SECRET, PIIBS_SANDBOX_PAY_KEY: PAY_KEY, TRUST_PROXY: '127.0.0.1' };

const s = scratch('instances');
let a: Server | undefined;
let b: Server | undefined;
let proxy: Nginx;
let bucket: TestS3;
let common: Record<string, string>;
let db: pg.Client;
let external: { admin: string; name: string } | undefined;
let failed = false;

beforeAll(async () => {
  const outside = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  let url: string | undefined;
  if (outside) {
    const name = `piibs_rel_${randomBytes(6).toString('hex')}`;
    const admin = await sqlClient(outside);
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(outside);
    u.pathname = `/${name}`;
    url = u.toString();
    external = { admin: outside, name };
  }
  // Stored files in one bucket for both (an S3-protocol server on loopback), as several instances need them.
  bucket = await startTestS3();
  common = {
    ...SHARED_ENV,
    PIIBS_STORAGE: 's3',
    PIIBS_S3_ENDPOINT: bucket.endpoint,
    PIIBS_S3_BUCKET: bucket.bucket,
    PIIBS_S3_ACCESS_KEY_ID: bucket.accessKeyId,
    PIIBS_S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
    PIIBS_S3_FORCE_PATH_STYLE: 'on',
    ...(url ? { DATABASE_URL: url } : {}),
  };
  a = await Server.start({
    name: 'instance A',
    dataDir: path.join(s.dir, 'a'),
    logFile: path.join(s.dir, 'a.log'),
    env: common,
  });
  url ??= embeddedUrl(a.dataDir);
  b = await Server.start({
    name: 'instance B',
    dataDir: path.join(s.dir, 'b'),
    logFile: path.join(s.dir, 'b.log'),
    env: { ...common, DATABASE_URL: url, PIIBS_DEMO: '0' },
  });
  proxy = await startNginx([a.port, b.port], path.join(s.dir, 'nginx'));
  db = await sqlClient(url);
  db.on('error', () => {});
  say(
    `instances: A up in ${a.startMs} ms (${external ? 'external database' : 'embedded PostgreSQL'}), B up in ${b.startMs} ms on A's database, nginx ${proxy.base}`,
  );
}, 300_000);

afterAll(async () => {
  await db?.end().catch(() => {});
  await proxy?.close();
  await stopAll([b, a], [path.join(s.dir, 'a')]);
  await bucket?.close();
  if (external) {
    const admin = await sqlClient(external.admin);
    await admin.query(`drop database if exists ${external.name} with (force)`);
    await admin.end();
  }
  s.cleanup(failed);
});

describe('two instances behind nginx', () => {
  it('a session made on one instance works on the other, and sign-out ends it on both', async ({
    onTestFailed,
  }) => {
    onTestFailed(() => {
      failed = true;
    });
    const onA = await signIn(a!.base, 'enterprise', DEMO_PASSWORD);
    const info = ok(await call(b!.base, 'GET', '/api/auth/info', undefined, { token: onA }), 'info on B');
    expect(info.username).toBe('enterprise');
    const before = proxy.served();
    for (let i = 0; i < 10; i++)
      expect((await call(proxy.base, 'GET', '/api/auth/info', undefined, { token: onA })).status).toBe(200);
    // Round-robin: each instance answered half of them.
    await sleep(200);
    const after = proxy.served();
    expect([a!.port, b!.port].map((p) => after.get(p)! - before.get(p)!)).toEqual([5, 5]);

    // The client's address reaches the sign-in log through nginx's X-Forwarded-For (TRUST_PROXY=127.0.0.1).
    await signIn(proxy.base, 'agent', DEMO_PASSWORD, '203.0.113.77');
    expect(
      await scalar(db, `select count(*) from login_attempt where username = 'agent' and ip = '203.0.113.77'`),
    ).toBe(1);

    const onB = await signIn(b!.base, 'underwriter', DEMO_PASSWORD);
    expect((await call(a!.base, 'GET', '/api/tasks', undefined, { token: onB })).status).toBe(200);
    ok(await call(a!.base, 'POST', '/api/auth/logout', undefined, { token: onB }), 'logout on A');
    const ended = Date.now();
    let status = 0;
    while (Date.now() - ended < 5_000) {
      status = (await call(b!.base, 'GET', '/api/auth/info', undefined, { token: onB })).status;
      if (status === 401) break;
      await sleep(50);
    }
    expect(status).toBe(401);
    say(
      `instances: token from A accepted by B and the proxy; signed out on A, refused by B after ${Date.now() - ended} ms`,
    );
  }, 60_000);

  it('an instance whose bucket refuses its keys does not start, and says why', async () => {
    const refused = await startRefused({
      name: 'instance C',
      dataDir: path.join(s.dir, 'c'),
      env: { ...common, PIIBS_S3_SECRET_ACCESS_KEY: 'not-the-secret' },
    });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('无法访问对象存储');
    expect(refused.output).toContain('访问被拒绝：密钥不对或没有该存储桶的权限');
  }, 60_000);

  it('a notification written through one instance reaches sockets on both, directly and through nginx', async ({
    onTestFailed,
  }) => {
    onTestFailed(() => {
      failed = true;
    });
    const underwriter = await signIn(proxy.base, 'underwriter', DEMO_PASSWORD);
    const enterprise = await signIn(proxy.base, 'enterprise', DEMO_PASSWORD);
    const wsOf = (base: string) => `${base.replace(/^http/, 'ws')}/api/notifications/ws`;
    /** A signed-in socket that records every notification pushed to it. */
    const open = async (base: string) => {
      const ws = new WebSocket(wsOf(base));
      const texts: string[] = [];
      await new Promise<void>((resolve, reject) => {
        ws.once('error', reject);
        ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', token: underwriter, after: 0 })));
        ws.on('message', (data) => {
          const m = JSON.parse(String(data));
          if (m.type === 'ready') resolve();
          if (m.type === 'notification') texts.push(JSON.stringify(m.notification));
        });
        setTimeout(() => reject(new Error(`no ready from ${base}`)), 15_000);
      });
      // Only pushes from now on count (the catch-up sent everything older).
      texts.length = 0;
      return { ws, texts };
    };
    const sockets = {
      'on A': await open(a!.base),
      'on B': await open(b!.base),
      'through nginx (1)': await open(proxy.base),
      'through nginx (2)': await open(proxy.base),
    };
    const productId = await scalar(db, `select id from product where code = 'AZX_GM_2025'`);
    const customerId = await scalar(
      db,
      `select c.id from customer c join app_user u on u.uscc = c.uscc where u.username = 'enterprise'`,
    );
    // What the product requires besides the demo enterprise's 营业执照 (uploaded through nginx).
    await customerDocuments(proxy.base, enterprise, customerId, ['INSURED_LIST']);
    // Stored in the shared bucket: uploaded through one instance, read byte for byte through the other.
    const pdf = Buffer.from(`%PDF-1.7\n% ${randomBytes(2000).toString('hex')}\n%%EOF\n`);
    const form = new FormData();
    form.append('businessType', 'customer');
    form.append('businessId', String(customerId));
    form.append('docType', 'BUSINESS_LICENSE');
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), '营业执照.pdf');
    const up = await fetch(`${a!.base}/api/materials`, {
      method: 'POST',
      headers: { authorization: `Bearer ${enterprise}` },
      body: form,
    });
    expect(up.status).toBe(200);
    const materialId = ((await up.json()) as { id: number }).id;
    const down = await fetch(`${b!.base}/api/materials/${materialId}/file`, {
      headers: { authorization: `Bearer ${enterprise}` },
    });
    expect(down.status).toBe(200);
    expect(Buffer.from(await down.arrayBuffer()).equals(pdf)).toBe(true);
    expect(existsSync(path.join(a!.dataDir, 'materials'))).toBe(false);
    expect(bucket.verified()).toBeGreaterThan(0);
    /** An application submitted through `base`: its task is opened and the underwriter told. */
    const submitThrough = async (base: string) => {
      const made = ok(
        await call(
          base,
          'POST',
          '/api/applications',
          { productId, customerId },
          { token: enterprise, key: randomUUID() },
        ),
        'create',
      );
      ok(
        await call(
          base,
          'POST',
          `/api/applications/${made.id}/submit`,
          { version: made.version },
          { token: enterprise, key: randomUUID() },
        ),
        'submit',
      );
      return made.number as string;
    };
    const waited: string[] = [];
    for (const [via, base] of [
      ['B', b!.base],
      ['A', a!.base],
    ] as const) {
      const number = await submitThrough(base);
      const started = Date.now();
      while (
        Date.now() - started < 10_000 &&
        !Object.values(sockets).every((s) => s.texts.some((t) => t.includes(number)))
      )
        await sleep(25);
      for (const [where, s] of Object.entries(sockets))
        expect(
          s.texts.some((t) => t.includes(number)),
          `written through ${via}, socket ${where}`,
        ).toBe(true);
      waited.push(`written through ${via}: on every socket in ${Date.now() - started} ms`);
    }
    for (const s of Object.values(sockets)) s.ws.close();
    await sleep(500);
    // nginx's two sockets went one to each instance (round-robin; each is logged when it closes).
    const upgrades = proxy.log().filter((l) => l.includes('/api/notifications/ws'));
    expect(upgrades.map((l) => l.split(' ').slice(0, 2).join(' ')).sort()).toEqual(
      [`${a!.port} 101`, `${b!.port} 101`].sort(),
    );
    say(
      `instances: live notifications — ${waited.join('; ')} (4 sockets: A, B, two through nginx, one on each)`,
    );
  }, 120_000);

  it(`${ORDERS} orders × ${REPLAYS} notification replays, sequential and concurrent, over both instances: exactly one payment each; forged: nothing`, async ({
    onTestFailed,
  }) => {
    onTestFailed(() => {
      failed = true;
    });
    const base = proxy.base;
    const tokens = {
      enterprise: await signIn(base, 'enterprise', DEMO_PASSWORD),
      agent: await signIn(base, 'agent', DEMO_PASSWORD),
      underwriter: await signIn(base, 'underwriter', DEMO_PASSWORD),
    };
    const productId = await scalar(db, `select id from product where code = 'AZX_GM_2025'`);
    const customerOf = {
      enterprise: await scalar(
        db,
        `select c.id from customer c join app_user u on u.uscc = c.uscc where u.username = 'enterprise'`,
      ),
      agent: await scalar(
        db,
        `select c.id from customer c join app_user u on u.id = c.owner_id
         where u.username = 'agent' and c.review_status = 'approved' order by c.id limit 1`,
      ),
    };
    const setup = new Tally();
    const as = (token: string, o: CallOptions = {}) => ({ ...o, token });
    // The demo enterprise's 营业执照 is on file already; the rest of what the product requires, once per customer.
    await customerDocuments(base, tokens.enterprise, customerOf.enterprise, ['INSURED_LIST']);
    await customerDocuments(base, tokens.agent, customerOf.agent);

    // Applications to PENDING_PAYMENT through the proxy, their charges opened and paid at the sandbox
    // cashier with the callback held back (the replays below are then the only way the payment arrives).
    const orders = await pool(
      Array.from({ length: ORDERS + 1 }, (_, i) => i),
      6,
      async (i) => {
        const who = i % 2 === 0 ? 'enterprise' : 'agent';
        const token = tokens[who];
        const made = ok(
          setup.add(
            'create',
            await call(
              base,
              'POST',
              '/api/applications',
              { productId, customerId: customerOf[who] },
              as(token, { key: randomUUID() }),
            ),
          ),
          'create',
        );
        const sent = ok(
          setup.add(
            'submit',
            await call(
              base,
              'POST',
              `/api/applications/${made.id}/submit`,
              { version: made.version },
              as(token, { key: randomUUID() }),
            ),
          ),
          'submit',
        );
        const task = ok(
          setup.add(
            'task',
            await call(base, 'GET', `/api/tasks/${sent.openTaskId}`, undefined, as(tokens.underwriter)),
          ),
          'task',
        );
        ok(
          setup.add(
            'decide',
            await call(
              base,
              'POST',
              `/api/tasks/${task.id}/decide`,
              { decision: 'approve', version: task.version, opinion: '同意承保' },
              as(tokens.underwriter, { key: randomUUID() }),
            ),
          ),
          'decide',
        );
        const pay = ok(
          setup.add(
            'pay',
            await call(base, 'POST', `/api/payments/orders/${made.id}/pay`, undefined, as(token)),
          ),
          'pay',
        );
        ok(setup.add('cashier', await call(base, 'GET', pay.cashierUrl)), 'cashier page');
        if (i < ORDERS) {
          const form = Object.fromEntries(new URL(pay.cashierUrl, base).searchParams);
          ok(
            setup.add(
              'cashier',
              await call(
                base,
                'POST',
                '/sandbox-pay/cashier',
                { ...form, action: 'pay', skipNotify: '1' },
                { form: true, manual: true },
              ),
            ),
            'cashier pay',
            303,
          );
        }
        return {
          applicationId: made.id as number,
          orderNo: pay.payId as string,
          chargeNo: pay.chargeNo as string,
        };
      },
    );
    const unpaid = orders.pop()!;
    const charges = await db.query(
      `select merchant_id, order_no, trade_no, charge_no, amount_fen, paid_at from sandbox_charge
       where charge_no = any($1) and status = 'PAID'`,
      [orders.map((o) => o.chargeNo)],
    );
    expect(charges.rowCount).toBe(ORDERS);
    const fieldsOf = new Map(
      charges.rows.map((c) => [
        c.order_no as string,
        {
          merchantId: c.merchant_id as string,
          orderNo: c.order_no as string,
          tradeNo: c.trade_no as string,
          chargeNo: c.charge_no as string,
          amountFen: Number(c.amount_fen),
          status: 'SUCCESS',
          paidAt: (c.paid_at as Date).toISOString(),
        },
      ]),
    );
    const signed = (fields: Record<string, unknown>, key = PAY_KEY) => {
      const body = { ...fields, nonce: randomBytes(12).toString('hex'), signType: 'HMAC-SHA256' };
      return JSON.stringify({ ...body, sign: signFields(body, key) });
    };
    /** REPLAYS notifications of one order: fresh nonces, every other one a byte-identical replay. */
    const bodiesOf = (orderNo: string) => {
      const out: string[] = [];
      for (let r = 0; r < REPLAYS; r++) out.push(r % 2 === 1 ? out[r - 1]! : signed(fieldsOf.get(orderNo)!));
      return out;
    };
    const notify = new Tally();
    const send = (body: string, target = base) =>
      call(target, 'POST', '/api/payments/notify/sandbox', body).then((r) => notify.add('notify', r));
    const acks: Reply[] = [];
    const [sequential, concurrent] = [
      orders.slice(0, Math.floor(ORDERS / 2)),
      orders.slice(Math.floor(ORDERS / 2)),
    ];
    const started = Date.now();
    for (const o of sequential) for (const body of bodiesOf(o.orderNo)) acks.push(await send(body));
    const seqMs = Date.now() - started;
    acks.push(
      ...(await Promise.all(concurrent.flatMap((o) => bodiesOf(o.orderNo)).map((body) => send(body)))),
    );
    const allMs = Date.now() - started - seqMs;
    expect(acks.filter((r) => r.status !== 200 || r.body?.code !== 'SUCCESS').slice(0, 3)).toEqual([]);

    const perOrder = await db.query(
      `select o.number, o.status, a.status as app_status,
         (select count(*) from payment p where p.order_id = o.id) as payments,
         (select count(*) from payment_notification n where n.order_no = o.number) as notes,
         (select count(*) from payment_notification n where n.order_no = o.number and n.outcome = 'PAID') as paid_notes,
         (select count(*) from payment_notification n where n.order_no = o.number and n.outcome = 'DUPLICATE') as dup_notes
       from payment_order o join application a on a.id = o.application_id where o.number = any($1)`,
      [orders.map((o) => o.orderNo)],
    );
    expect(perOrder.rowCount).toBe(ORDERS);
    for (const r of perOrder.rows) {
      expect(
        [r.status, Number(r.payments), Number(r.notes), Number(r.paid_notes), Number(r.dup_notes)],
        r.number,
      ).toEqual(['PAID', 1, REPLAYS, 1, REPLAYS - 1]);
      expect(['PAID', 'ISSUED']).toContain(r.app_status);
    }

    // One policy each: issuance runs inline after the payment and both instances' job workers sweep for it.
    const ids = orders.map((o) => o.applicationId);
    const deadline = Date.now() + 120_000;
    let issued = 0;
    while (Date.now() < deadline) {
      issued = await scalar(db, `select count(*) from application where id = any($1) and status = 'ISSUED'`, [
        ids,
      ]);
      if (issued === ORDERS) break;
      await sleep(500);
    }
    expect(issued).toBe(ORDERS);
    expect(await scalar(db, 'select count(*) from policy where application_id = any($1)', [ids])).toBe(
      ORDERS,
    );

    // In-app notifications (when the module is there): the replays below add none.
    const hasNotifications =
      (await scalar(
        db,
        `select count(*) from pg_tables where schemaname = 'public' and tablename = 'notification'`,
      )) > 0;
    const notificationCount = () => scalar(db, 'select count(*) from notification');
    const notesBefore = hasNotifications ? await notificationCount() : 0;
    const late = await Promise.all(orders.map((o) => send(signed(fieldsOf.get(o.orderNo)!))));
    expect(late.every((r) => r.status === 200)).toBe(true);
    expect(await scalar(db, 'select count(*) from payment where application_id = any($1)', [ids])).toBe(
      ORDERS,
    );
    if (hasNotifications) expect(await notificationCount()).toBe(notesBefore);

    // Forged notifications, to each instance directly: 400, nothing changes.
    const paymentsBefore = await scalar(db, 'select count(*) from payment');
    const first = fieldsOf.get(orders[0]!.orderNo)!;
    const unpaidFields = {
      ...first,
      orderNo: unpaid.orderNo,
      chargeNo: unpaid.chargeNo,
      tradeNo: `FORGED${randomBytes(6).toString('hex')}`,
      amountFen: await scalar(db, 'select amount_fen from payment_order where number = $1', [unpaid.orderNo]),
    };
    const good = JSON.parse(signed(first)) as Record<string, unknown>;
    const forgeries = {
      'unpaid order, wrong key': signed(unpaidFields, randomBytes(32).toString('base64url')),
      'unpaid order, unsigned': JSON.stringify({
        ...unpaidFields,
        nonce: 'x',
        signType: 'HMAC-SHA256',
        sign: '0'.repeat(64),
      }),
      'unpaid order, a paid order’s signature': JSON.stringify({ ...good, orderNo: unpaid.orderNo }),
      'amount changed': JSON.stringify({ ...good, amountFen: Number(good.amountFen) + 1 }),
      'trade changed': JSON.stringify({ ...good, tradeNo: 'SBX-OTHER' }),
      'field added': JSON.stringify({ ...good, refund: true }),
      'unknown order, wrong key': signed(
        { ...unpaidFields, orderNo: 'PO-NOPE' },
        randomBytes(32).toString('hex'),
      ),
      'not JSON': 'orderNo=1&status=SUCCESS',
      empty: '{}',
    };
    let forged = 0;
    for (const [what, body] of Object.entries(forgeries)) {
      for (const target of [a!.base, b!.base]) {
        const res = await send(body, target);
        expect(res.status, what).toBe(400);
        expect(typeof res.body.message, what).toBe('string');
        forged++;
      }
    }
    expect(await scalar(db, 'select count(*) from payment')).toBe(paymentsBefore);
    const [order] = (
      await db.query(
        `select o.status, a.status as app_status from payment_order o join application a on a.id = o.application_id
         where o.number = $1`,
        [unpaid.orderNo],
      )
    ).rows;
    expect([order.status, order.app_status]).toEqual(['PENDING', 'PENDING_PAYMENT']);
    expect(
      await scalar(db, `select count(*) from payment_notification where signature_valid and order_no = $1`, [
        unpaid.orderNo,
      ]),
    ).toBe(0);

    expect(await integrityProblems(db)).toEqual([]);
    say(
      `instances: ${ORDERS} orders set up over the proxy (${setup.summary()})\n` +
        `instances: ${sequential.length} orders × ${REPLAYS} notifications one after another in ${seqMs} ms, ${concurrent.length} × ${REPLAYS} at once in ${allMs} ms, ${ORDERS} late replays; ` +
        `${notify.summary()}; nginx sent A ${proxy.served().get(a!.port)} / B ${proxy.served().get(b!.port)}\n` +
        `instances: ${ORDERS} payments, ${ORDERS} policies, every notification recorded once (1 PAID + ${REPLAYS - 1} DUPLICATE each)` +
        `${hasNotifications ? ', in-app notifications unchanged by replays' : ''}; ${forged} forged notifications → 400, nothing changed (seed ${SEED})`,
    );
  }, 600_000);
});
