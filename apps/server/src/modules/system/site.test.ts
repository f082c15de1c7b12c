import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createUser, initSystem, tokenFor } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';

let t: TestContext;
let admin: string;
let agent: string;
beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  await createUser(t, { username: 'ag', roles: ['agent'] });
  admin = await tokenFor(t, ADMIN.username, ADMIN.password);
  agent = await tokenFor(t, 'ag');
});
afterAll(() => t.close());

const site = {
  footerTxt: '© 2026 镇江示例财险',
  caseNumber: '苏ICP备12345678号-1',
  policeNumber: '苏公网安备 32110202000001号',
};

describe('footer filing numbers (spec §1 footer, configurable by the administrator)', () => {
  it('are readable without signing in, with defaults before anything is set', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/settings/site' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ caseNumber: '', policeNumber: '' });
  });

  it('are changed by the administrator, audited, and shown to everyone', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/settings/site',
      headers: bearer(admin),
      payload: site,
    });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/settings/site' })).json()).toEqual(site);
    const audit = await t.database.pool.query("SELECT detail FROM audit_log WHERE entity = 'site_settings'");
    expect(audit.rows[0].detail.after).toEqual(site);
  });

  it('cannot be changed without the permission (403), and bad input names the field (400)', async () => {
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/settings/site',
          headers: bearer(agent),
          payload: site,
        })
      ).statusCode,
    ).toBe(403);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/settings/site',
      headers: bearer(admin),
      payload: { ...site, caseNumber: 'x'.repeat(51) },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^ICP备案号：/);
  });
});
