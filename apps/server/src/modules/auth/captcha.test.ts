import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { captchas } from '../../db/schema.ts';
import { checkCaptcha, storeCaptcha } from './captcha.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const check = (uuid: string, code: string) =>
  checkCaptcha(t.database.db, uuid, code).then(
    () => 'ok',
    (err: Error) => err.message,
  );

describe('captcha', () => {
  it('GET /api/auth/code answers an SVG data URL and a uuid, stored hashed with a 2-minute expiry', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/code' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { img, uuid } = res.json();
    expect(img).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(img.split(',')[1], 'base64').toString()).toContain('<svg');
    const [row] = await t.database.db.select().from(captchas).where(eq(captchas.id, uuid));
    expect(row!.answerHash).toMatch(/^[0-9a-f]{64}$/);
    const left = row!.expiresAt.getTime() - Date.now();
    expect(left).toBeGreaterThan(100_000);
    expect(left).toBeLessThanOrEqual(122_000);
  });

  it('is single use: a replayed uuid fails even after a right answer', async () => {
    const uuid = await storeCaptcha(t.database.db, 'K7pM');
    expect(await check(uuid, 'K7pM')).toBe('ok');
    expect(await check(uuid, 'K7pM')).toBe('验证码不存在或已过期');
  });

  it('is single use: a wrong answer uses it up too', async () => {
    const uuid = await storeCaptcha(t.database.db, 'K7pM');
    expect(await check(uuid, 'xxxx')).toBe('验证码错误');
    expect(await check(uuid, 'K7pM')).toBe('验证码不存在或已过期');
  });

  it('an expired captcha fails', async () => {
    const uuid = await storeCaptcha(t.database.db, 'K7pM');
    await t.database.db
      .update(captchas)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(captchas.id, uuid));
    expect(await check(uuid, 'K7pM')).toBe('验证码不存在或已过期');
  });

  it('is case-insensitive and ignores surrounding spaces', async () => {
    expect(await check(await storeCaptcha(t.database.db, 'K7pM'), 'k7PM')).toBe('ok');
    expect(await check(await storeCaptcha(t.database.db, 'K7pM'), ' K7PM ')).toBe('ok');
  });

  it('an unknown uuid fails', async () => {
    expect(await check('0b0e7a64-5a4c-4e43-9d7f-3a3c1b1b1b1b', 'K7pM')).toBe('验证码不存在或已过期');
  });
});
