// Credentials in the server's log (issue #21, item 10): the hand-off link carries its token in the URL, and a
// client may put a one-time code, a ticket or a password in a query string. The app logs every request line;
// this file captures that log and looks for the secrets in every line.
import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createUser, freshIp, initSystem, login, STRONG, tokenFor } from '../../test/auth.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { REDACTED, redactUrl } from '../lib/logging.ts';

let t: TestContext;
const lines: string[] = [];

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...String(chunk).split('\n').filter(Boolean)));
  t = await createTestApp({}, undefined, { logStream: stream });
  await initSystem(t);
  await createUser(t, { username: 'ent', roles: ['17'], channel: 'enterprise' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  if (t) rmSync(t.config.dataDir, { recursive: true, force: true });
});

/** The log so far, as one text, after the stream has delivered what was written. */
async function logText(): Promise<string> {
  await new Promise((resolve) => setImmediate(resolve));
  return lines.join('\n');
}
const requestUrls = () =>
  lines.flatMap((l) => {
    const entry = JSON.parse(l) as { req?: { url?: string } };
    return entry.req?.url ? [entry.req.url] : [];
  });

describe('the request log never shows a token, code, ticket or password', () => {
  it('the hand-off link: its token is in neither the page request, the exchange nor any other line', async () => {
    const admin = await tokenFor(t, ADMIN.username, ADMIN.password);
    const issued = await t.app.inject({
      method: 'POST',
      url: '/api/auth/handoff',
      headers: bearer(admin),
      payload: { username: 'ent' },
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const { token, url } = issued.json() as { token: string; url: string };
    // The browser opens the link (the SPA page), then the page exchanges the token.
    await t.app.inject({ method: 'GET', url, remoteAddress: freshIp() });
    const exchanged = await t.app.inject({
      method: 'POST',
      url: '/api/auth/handoff/exchange',
      remoteAddress: freshIp(),
      payload: { token },
    });
    expect(exchanged.statusCode).toBe(200);
    const session = (exchanged.json() as { token: string }).token;
    await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(session) });

    const text = await logText();
    expect(requestUrls()).toContain(`/piibs/insured/start?token=${REDACTED}`);
    expect(text).not.toContain(token);
    expect(text).not.toContain(encodeURIComponent(token));
    expect(text).not.toContain(session);
    expect(text).not.toContain(admin);
  });

  it('one-time codes, tickets, passwords and other tokens in any query string; other parameters are kept', async () => {
    const secrets = {
      code: 'OTC-739204',
      ticket: 'ST-5519-cas',
      password: 'Pl41n#Text',
      access_token: 'eyJhbGciOi.secret.part',
      Token: 'Upper-Case-Token',
      smsCode: '481516',
      'reset%5Ftoken': 'encoded-name-token',
    };
    const query = Object.entries(secrets)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join('&');
    for (const path of ['/api/auth/info', '/piibs/login', '/api/no-such-route', '/sandbox-pay/cashier'])
      await t.app.inject({ method: 'GET', url: `${path}?businessCode=BC2026&${query}&page=2` });

    const text = await logText();
    for (const value of Object.values(secrets)) {
      expect(text).not.toContain(value);
      expect(text).not.toContain(encodeURIComponent(value));
    }
    const logged = requestUrls().filter((u) => u.includes('businessCode=BC2026'));
    expect(logged).toHaveLength(4);
    for (const u of logged) {
      expect(u).toContain('businessCode=BC2026');
      expect(u).toContain('&page=2');
      expect(u.split(REDACTED)).toHaveLength(Object.keys(secrets).length + 1);
    }
  });

  it('a sign-in: neither the password nor the token issued', async () => {
    const ok = await login(t, 'ent', STRONG);
    expect(ok.statusCode).toBe(200);
    const text = await logText();
    expect(text).not.toContain(STRONG);
    expect(text).not.toContain((ok.json() as { token: string }).token);
  });

  it('redactUrl leaves URLs without secrets as they are', () => {
    for (const u of ['/api/policies?page=1&size=10', '/api/x', '/api/x?', '/api/x?flag', '/a?b=%E4%B8%AD'])
      expect(redactUrl(u)).toBe(u);
    expect(redactUrl('/a?token')).toBe('/a?token');
    expect(redactUrl('/a?token=&x=1')).toBe(`/a?token=${REDACTED}&x=1`);
  });
});
