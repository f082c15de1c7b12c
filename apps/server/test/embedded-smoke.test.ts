// The embedded PostgreSQL server, started the way `npm start` starts it: when the server suite runs against an
// external server (CI sets TEST_DATABASE_URL), this file alone runs on the embedded one (vitest.config.ts, project
// `embedded-smoke`): start the server, migrate, seed the demo data, listen, and one journey through the HTTP API —
// the demo enterprise applies, the underwriter approves, the enterprise pays at the sandbox cashier and downloads
// its policy.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type MaterialNeeds, missingDocTypes } from '@piibs/shared/material';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { connect, type Database, runMigrations } from '../src/db/client.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { DEMO_ENTERPRISE, DEMO_PASSWORD } from '../src/demo/base.ts';
import { storeCaptcha } from '../src/modules/auth/captcha.ts';
import { onStart } from '../src/startup.ts';
import { PDF } from './admin.ts';

let dataDir: string;
let pg: EmbeddedPostgres | undefined;
let database: Database | undefined;
let app: App | undefined;
let base: string;
const startLog: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'piibs-smoke-'));
  chmodSync(dataDir, 0o755); // as root, the postgres user can reach it, so the cluster stays inside
  const config = loadConfig({
    DATA_DIR: dataDir,
    PIIBS_DEMO: '1',
    PORT: '0',
    JWT_SECRET: 'smoke-test-secret-that-is-long-enough-0123',
  });
  pg = await startEmbeddedPostgres({ clusterDir: path.join(dataDir, 'pg'), password: 'smoke-only-password' });
  database = connect(pg.url);
  await runMigrations(database);
  await onStart({ config, database, log: (line) => startLog.push(line) });
  app = await buildApp({ config, database, embedded: true }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  await pg?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

type Json = Record<string, unknown>;

async function call(token: string | null, method: string, url: string, body?: unknown): Promise<Response> {
  return fetch(base + url, {
    method,
    redirect: 'manual',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function ok<T = Json>(res: Promise<Response>): Promise<T> {
  const r = await res;
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${r.status} ${r.url}: ${text}`);
  return JSON.parse(text) as T;
}

async function signIn(username: string): Promise<string> {
  const uuid = await storeCaptcha(database!.db, 'AbCd');
  const res = await ok<{ token: string }>(
    call(null, 'POST', '/api/auth/login', {
      username,
      password: DEMO_PASSWORD,
      code: 'AbCd',
      uuid,
      psPower: '2',
    }),
  );
  return res.token;
}

describe('the embedded PostgreSQL server, started as `npm start` starts it', () => {
  it('starts, migrates and seeds the demo data; /api/health names the embedded server', async () => {
    expect(startLog.some((l) => l.includes('demo data is loaded'))).toBe(true);
    expect(await ok(call(null, 'GET', '/api/health'))).toMatchObject({
      status: 'ok',
      database: 'postgres',
      embedded: true,
    });
  });

  it('one journey: the demo enterprise applies, the underwriter approves, the enterprise pays and gets its policy', async () => {
    const ent = await signIn('enterprise');
    const uw = await signIn('underwriter');
    const customers = await ok<{ content: { id: number; uscc: string }[] }>(
      call(ent, 'GET', '/api/customers'),
    );
    const customer = customers.content.find((c) => c.uscc === DEMO_ENTERPRISE.uscc)!;
    const products = await ok<{ content: { id: number; code: string }[] }>(call(uw, 'GET', '/api/products'));
    const product = products.content.find((p) => p.code === 'AZX_GM_2025')!;

    let app1 = await ok<{ id: number; version: number; openTaskId: number | null }>(
      call(ent, 'POST', '/api/applications', { productId: product.id, customerId: customer.id }),
    );
    // What the product requires, as the enterprise would upload it (its 营业执照 is on file in the demo).
    const needs = await ok<MaterialNeeds & { customerDocTypes: string[] }>(
      call(ent, 'GET', `/api/applications/${app1.id}`),
    );
    for (const docType of missingDocTypes(needs, 'APPROVE', needs.customerDocTypes)) {
      const form = new FormData();
      form.append('businessType', 'application');
      form.append('businessId', String(app1.id));
      form.append('docType', docType);
      form.append('file', new Blob([PDF], { type: 'application/pdf' }), `${docType}.pdf`);
      await ok(
        fetch(`${base}/api/materials`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ent}` },
          body: form,
        }),
      );
    }
    app1 = await ok(call(ent, 'POST', `/api/applications/${app1.id}/submit`, { version: app1.version }));
    const task = await ok<{ id: number; version: number }>(call(uw, 'GET', `/api/tasks/${app1.openTaskId}`));
    await ok(
      call(uw, 'POST', `/api/tasks/${task.id}/decide`, {
        decision: 'approve',
        version: task.version,
        opinion: '同意承保',
      }),
    );
    expect((await ok(call(ent, 'GET', `/api/applications/${app1.id}`))).status).toBe('PENDING_PAYMENT');

    const start = await ok<{ payId: string; cashierUrl: string }>(
      call(ent, 'POST', `/api/payments/orders/${app1.id}/pay`),
    );
    const cashierUrl = new URL(start.cashierUrl, base);
    expect((await fetch(base + cashierUrl.pathname + cashierUrl.search)).status).toBe(200);
    const form = new URLSearchParams(cashierUrl.searchParams);
    form.set('action', 'pay');
    const paid = await fetch(`${base}/sandbox-pay/cashier`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(paid.status).toBe(303);
    expect(await ok(call(ent, 'GET', `/api/payments/${start.payId}`))).toMatchObject({
      status: 'PAID',
      applicationStatus: 'ISSUED',
    });

    const policies = await ok<{ content: { id: number; applicationId: number }[] }>(
      call(ent, 'GET', '/api/policies'),
    );
    const policy = policies.content.find((p) => p.applicationId === app1.id)!;
    const pdf = await call(ent, 'GET', `/api/policies/${policy.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  }, 60_000);
});
