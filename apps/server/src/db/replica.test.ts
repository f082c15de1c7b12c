// Which reads go to DATABASE_REPLICA_URL. The "replica" here is a second database on the test server, a copy of
// the primary's, with one row only it has: a read that shows the row was answered there. How the router follows a
// real streaming standby falling behind and going away is the long battery's (reliability/long/replica.long.ts).
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { client, readXlsx } from '../../test/admin.ts';
import { ADMIN, tokenFor } from '../../test/auth.ts';
import { copyDatabase, databaseUrl, dropDatabase } from '../../test/databases.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';

const ONLY_ON_REPLICA = '只在副本上的记录';
let replicaName = '';
let t: TestContext;
let gone: TestContext;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

beforeAll(async () => {
  const serverUrl = inject('databaseUrl');
  replicaName = await copyDatabase(serverUrl, inject('templates').world);
  const replica = new pg.Client({ connectionString: databaseUrl(serverUrl, replicaName) });
  await replica.connect();
  await replica.query(
    `INSERT INTO audit_log (actor_name, action, entity, entity_id) VALUES ($1, 'update', 'site_settings', 'site')`,
    [ONLY_ON_REPLICA],
  );
  await replica.end();
  t = await createTestApp({ replicaUrl: databaseUrl(serverUrl, replicaName) }, undefined, { from: 'world' });
  gone = await createTestApp(
    { replicaUrl: `postgres://piibs:x@127.0.0.1:${await closedPort()}/piibs` },
    undefined,
    { from: 'world' },
  );
});

afterAll(async () => {
  await t?.close();
  await gone?.close();
  await dropDatabase(inject('databaseUrl'), replicaName);
});

describe('DATABASE_REPLICA_URL', () => {
  it('serves the exports from the replica while the list a user reads back stays on the primary', async () => {
    const admin = client(t, await tokenFor(t, ADMIN.username, ADMIN.password));
    expect((await admin.get('/api/health')).json().replica).toBe('ok');
    const sheet = await readXlsx((await admin.get('/api/logs/download?entity=site_settings')).rawPayload);
    expect(sheet.slice(1).map((r) => r[1])).toContain(ONLY_ON_REPLICA);
    const list = (await admin.get('/api/logs?entity=site_settings')).json();
    expect(list.content.map((r: { actorName: string }) => r.actorName)).not.toContain(ONLY_ON_REPLICA);
    expect((await admin.get('/api/dashboard')).statusCode).toBe(200);
  });

  it('answers from the primary, and says so in health, when the replica cannot be reached', async () => {
    const admin = client(gone, await tokenFor(gone, ADMIN.username, ADMIN.password));
    const health = await admin.get('/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok', replica: 'down' });
    const sheet = await readXlsx((await admin.get('/api/logs/download?entity=site_settings')).rawPayload);
    expect(sheet.slice(1).map((r) => r[1])).not.toContain(ONLY_ON_REPLICA);
    const dashboard = await admin.get('/api/dashboard');
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.json().management).toBeTruthy();
  });
});
