import { sign, X509Certificate } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isUscc, usccCheckChar } from '@piibs/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, freshIp, initSystem } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import {
  createExpiredEnterpriseCert,
  createRootCa,
  createSelfSignedEnterpriseCert,
  type Issued,
  issueEnterpriseCert,
} from '../../ca/demo-ca.ts';
import { customers, loginAttempts, oneTimeTokens } from '../../db/schema.ts';
import { allowsDigitalSignature, usccOf } from './ca.ts';

const body17 = '91321100MA1TEXT00';
const USCC = `${body17}${usccCheckChar(body17)}`;
const otherBody = '91320100MA1QTHER0';
const UNBOUND = `${otherBody}${usccCheckChar(otherBody)}`;
const ENT = { uscc: USCC, name: '测试安全科技有限公司' };

let t: TestContext;
let root: Issued;
let good: Issued;
beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  await createUser(t, { username: 'ent', roles: ['17'], channel: 'enterprise', uscc: USCC });
  root = createRootCa();
  const trusted = path.join(t.config.dataDir, 'ca', 'trusted');
  mkdirSync(trusted, { recursive: true });
  writeFileSync(path.join(trusted, 'test-root.pem'), root.certPem);
  good = issueEnterpriseCert(root, ENT);
});
afterAll(() => t.close());

async function challenge(): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/api/auth/ca/challenge' });
  expect(res.statusCode).toBe(200);
  return res.json().challenge;
}

function signed(cert: Issued, text: string, certificate = cert.certPem) {
  return {
    certificate,
    challenge: text,
    signature: sign('sha256', Buffer.from(text, 'utf8'), cert.keyPem).toString('base64'),
  };
}

const loginCA = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/auth/loginCA', remoteAddress: freshIp(), payload });

describe('CA sign-in', () => {
  it('the challenge is 32 random bytes, stored only hashed, valid for 2 minutes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/ca/challenge' });
    const { challenge: c, expiresAt } = res.json();
    expect(Buffer.from(c, 'base64url')).toHaveLength(32);
    const left = new Date(expiresAt).getTime() - Date.now();
    expect(left).toBeGreaterThan(100_000);
    expect(left).toBeLessThanOrEqual(120_000 + 2000);
    const rows = await t.database.db.select().from(oneTimeTokens);
    expect(rows.some((r) => r.hash === c)).toBe(false);
  });

  it('demo certificates carry the code as organizationIdentifier and serialNumber, with digitalSignature', () => {
    const x = new X509Certificate(good.certPem);
    expect(usccOf(x)).toBe(USCC);
    expect(isUscc(USCC)).toBe(true);
    expect(isUscc(UNBOUND)).toBe(true);
    expect(allowsDigitalSignature(x)).toBe(true);
    expect(x.subject).toContain('测试安全科技有限公司');
  });

  it('a good certificate from a trusted CA signs in: token and the enterprise user', async () => {
    const res = await loginCA(signed(good, await challenge()));
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      username: 'ent',
      roles: ['17'],
      channel: 'enterprise',
      uscc: USCC,
    });
    const token = res.json().token;
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(token) })).statusCode,
    ).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    expect(out.json()).toEqual({ jumpUrl: '/piibs/CAlogin' });
  });

  it('accepts a chain: leaf, then an intermediate CA, up to the trusted root', async () => {
    const inter = createRootCa({ commonName: 'PIIBS Test Intermediate', parent: root });
    const leaf = issueEnterpriseCert(inter, ENT);
    const res = await loginCA(signed(leaf, await challenge(), `${leaf.certPem}\n${inter.certPem}`));
    expect(res.statusCode).toBe(200);
    // Without the intermediate the chain is broken.
    const broken = await loginCA(signed(leaf, await challenge()));
    expect(broken.json()).toEqual({ status: 401, message: '证书不受信任' });
  });

  it('refuses an expired certificate: 证书已过期或尚未生效', async () => {
    const res = await loginCA(signed(createExpiredEnterpriseCert(root, ENT), await challenge()));
    expect(res.json()).toEqual({ status: 401, message: '证书已过期或尚未生效' });
  });

  it('refuses a certificate not yet valid', async () => {
    const future = issueEnterpriseCert(root, ENT, {
      notBefore: new Date(Date.now() + 86400_000),
      notAfter: new Date(Date.now() + 2 * 86400_000),
    });
    const res = await loginCA(signed(future, await challenge()));
    expect(res.json()).toEqual({ status: 401, message: '证书已过期或尚未生效' });
  });

  it('refuses a self-signed certificate: 证书不受信任', async () => {
    const res = await loginCA(signed(createSelfSignedEnterpriseCert(ENT), await challenge()));
    expect(res.json()).toEqual({ status: 401, message: '证书不受信任' });
  });

  it('refuses a certificate from another CA: 证书不受信任', async () => {
    const other = createRootCa({ commonName: 'PIIBS Demo Root CA' });
    const res = await loginCA(signed(issueEnterpriseCert(other, ENT), await challenge()));
    expect(res.json()).toEqual({ status: 401, message: '证书不受信任' });
  });

  it('refuses the root CA certificate itself as a sign-in certificate', async () => {
    const res = await loginCA(signed(root, await challenge()));
    expect(res.json()).toEqual({ status: 401, message: '证书不受信任' });
  });

  it('refuses a certificate whose key usage lacks digitalSignature', async () => {
    const encOnly = issueEnterpriseCert(root, ENT, {}, { digitalSignature: false });
    expect(allowsDigitalSignature(new X509Certificate(encOnly.certPem))).toBe(false);
    const res = await loginCA(signed(encOnly, await challenge()));
    expect(res.json()).toEqual({ status: 401, message: '证书用途不包含数字签名，不能用于登录' });
  });

  it('refuses a wrong signature: 证书签名验证失败', async () => {
    const c = await challenge();
    const otherKey = issueEnterpriseCert(root, ENT);
    const res = await loginCA({ ...signed(otherKey, c), certificate: good.certPem });
    expect(res.json()).toEqual({ status: 401, message: '证书签名验证失败' });
    const garbage = await loginCA({
      certificate: good.certPem,
      challenge: await challenge(),
      signature: 'AAAA',
    });
    expect(garbage.json()).toEqual({ status: 401, message: '证书签名验证失败' });
  });

  it('refuses a replayed challenge: 挑战码无效或已过期', async () => {
    const payload = signed(good, await challenge());
    expect((await loginCA(payload)).statusCode).toBe(200);
    const again = await loginCA(payload);
    expect(again.json()).toEqual({ status: 401, message: '挑战码无效或已过期' });
  });

  it('a challenge is used up even by a failed attempt', async () => {
    const c = await challenge();
    const first = await loginCA({ ...signed(good, c), signature: 'AAAA' });
    expect(first.statusCode).toBe(401);
    const second = await loginCA(signed(good, c));
    expect(second.json()).toEqual({ status: 401, message: '挑战码无效或已过期' });
  });

  it('refuses an expired challenge and an invented one', async () => {
    const c = await challenge();
    await t.database.db.update(oneTimeTokens).set({ expiresAt: sql`now() - interval '1 second'` });
    expect((await loginCA(signed(good, c))).json()).toEqual({ status: 401, message: '挑战码无效或已过期' });
    expect((await loginCA(signed(good, 'made-up'))).json()).toEqual({
      status: 401,
      message: '挑战码无效或已过期',
    });
  });

  it('an enterprise that bound a certificate signs in with that one only', async () => {
    const second = issueEnterpriseCert(root, ENT);
    const fingerprintOf = (pem: string) =>
      new X509Certificate(pem).fingerprint256.replace(/:/g, '').toLowerCase();
    const [row] = await t.database.db
      .insert(customers)
      .values({
        uscc: USCC,
        name: ENT.name,
        industrySection: 'C',
        industryDivision: '34',
        region: '321102',
        address: '镇江市京口区',
        legalRepresentative: '张三',
        contactName: '李四',
        phone: '13800000000',
        headcount: 10,
        reviewStatus: 'approved',
        caFingerprint: fingerprintOf(good.certPem),
      })
      .returning({ id: customers.id });
    try {
      expect((await loginCA(signed(good, await challenge()))).statusCode).toBe(200);
      const other = await loginCA(signed(second, await challenge()));
      expect(other.statusCode).toBe(401);
      expect(other.json().message).toBe('该企业已绑定其他CA证书，请使用已绑定的证书登录');
    } finally {
      await t.database.db.delete(customers).where(eq(customers.id, row!.id));
    }
  });

  it('refuses a valid certificate whose code is bound to no user: 证书未绑定企业用户', async () => {
    const res = await loginCA(
      signed(issueEnterpriseCert(root, { uscc: UNBOUND, name: '未绑定企业' }), await challenge()),
    );
    expect(res.json()).toEqual({ status: 401, message: '证书未绑定企业用户' });
  });

  it('answers 400 for something that is not a certificate', async () => {
    const res = await loginCA({ certificate: 'hello', challenge: await challenge(), signature: 'AAAA' });
    expect(res.json()).toEqual({ status: 400, message: '证书格式不正确' });
  });

  it('records CA attempts in login_attempt', async () => {
    const rows = await t.database.db.select().from(loginAttempts).where(eq(loginAttempts.method, 'ca'));
    expect(rows.some((r) => r.success)).toBe(true);
    expect(rows.some((r) => !r.success && r.reason === 'challenge')).toBe(true);
  });
});
