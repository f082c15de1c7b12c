// New passwords against ASVS 5.0 V6.2 (issue #21, item 4), through the API: at least 8 characters; passphrases of
// 15+ characters with no composition rule; the 10,000 most common breached passwords refused (the list shipped in
// packages/shared/src/data, its README says where it comes from); each refusal a Chinese message naming the field.
// A stored password that the rules now refuse still signs in, with psPower 0: the session may only change it.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PASSWORD_PROBLEMS } from '@piibs/shared/password';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, freshIp, initSystem, login, STRONG, tokenFor } from '../../test/auth.ts';
import { depth } from '../../test/depth.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';

const BREACHED = JSON.parse(
  readFileSync(
    path.join(import.meta.dirname, '../../../../packages/shared/src/data/common-passwords.json'),
    'utf8',
  ),
) as string[];

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  await createUser(t, { username: 'changer', roles: ['agent'], channel: 'agent' });
  await createUser(t, { username: 'phraser', roles: ['agent'], channel: 'agent' });
  // A password from the breached list, set before the list was enforced.
  await createUser(t, { username: 'legacy', password: 'Trustno1', roles: ['agent'], channel: 'agent' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  if (t) rmSync(t.config.dataDir, { recursive: true, force: true });
});

const changePassword = (token: string, oldPass: string, newPass: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/updatePass',
    headers: bearer(token),
    remoteAddress: freshIp(),
    payload: { oldPass, newPass },
  });

describe('a new password (POST /api/users/updatePass)', () => {
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(t, 'changer');
  });

  it.each([
    ['7 characters', 'Ab1!xyz', PASSWORD_PROBLEMS.short],
    ['a breached password the former rules let through', 'Mustang1', PASSWORD_PROBLEMS.common],
    ['another one, upper-cased', 'TRUSTNO1', PASSWORD_PROBLEMS.common],
    ['a common word dressed up', 'Qwerty@2026', PASSWORD_PROBLEMS.common],
    ['under 15 characters, 2 classes', 'tigerplum7', PASSWORD_PROBLEMS.classes],
    ['a few characters repeated', 'Aa1!Aa1!Aa1!', PASSWORD_PROBLEMS.repetitive],
    ['65 characters', `Zq8#vN2$kL9@wR4!${'x'.repeat(49)}`, PASSWORD_PROBLEMS.long],
  ])('%s: 400 新密码：<the rule>, nothing changes', async (_name, newPass, problem) => {
    const res = await changePassword(token, STRONG, newPass);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, message: `新密码：${problem}` });
    // The old password still signs in.
    expect((await login(t, 'changer', STRONG)).statusCode).toBe(200);
  });

  it(`refuses the breached list (${depth(334, 3337)} of its 3,337 entries of 8+ characters; the shorter ones by length)`, async () => {
    const list = BREACHED;
    const step = Math.round(list.length / depth(334, 3337));
    const answers = new Map<string, number>();
    for (let i = 0; i < list.length; i += step) {
      const res = await changePassword(token, STRONG, list[i]!);
      const key = `${res.statusCode} ${(res.json() as { message: string }).message}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
    }
    console.info(`passwords: breached list → ${JSON.stringify(Object.fromEntries(answers))}`);
    expect([...answers.keys()]).toEqual([`400 新密码：${PASSWORD_PROBLEMS.common}`]);
  }, 60_000);

  it('accepts a passphrase of 15+ characters without upper case, digits or symbols', async () => {
    const phraser = await tokenFor(t, 'phraser');
    const passphrase = 'correct horse battery staple';
    const res = await changePassword(phraser, STRONG, passphrase);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().psPower).toBeGreaterThanOrEqual(2);
    const signIn = await login(t, 'phraser', passphrase);
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toMatchObject({ mustChangePassword: false });
  });
});

describe('a stored password the rules now refuse (the spec’s psPower 0 flow)', () => {
  it('signs in with psPower 0 and a session that may only change the password', async () => {
    const res = await login(t, 'legacy', 'Trustno1');
    expect(res.statusCode).toBe(200);
    const { token, psPower, mustChangePassword } = res.json() as {
      token: string;
      psPower: number;
      mustChangePassword: boolean;
    };
    expect(psPower).toBe(0);
    expect(mustChangePassword).toBe(true);
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      headers: bearer(token),
    });
    expect(elsewhere.statusCode).toBe(403);
    const changed = await changePassword(token, 'Trustno1', 'a quiet harbour at dawn');
    expect(changed.statusCode, changed.body).toBe(200);
    const again = await login(t, 'legacy', 'a quiet harbour at dawn');
    expect(again.json()).toMatchObject({ mustChangePassword: false });
    expect(again.json().psPower).toBeGreaterThan(0);
  });
});
