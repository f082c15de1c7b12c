import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, initSystem, login, STRONG, tokenFor } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { auditLog, users } from '../../db/schema.ts';
import { avatarDir } from './service.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  await createUser(t, { username: 'alice', roles: ['underwriter'], phone: '13812345678' });
  await createUser(t, { username: 'pat', roles: ['agent'] });
  await createUser(t, { username: 'pic', roles: ['agent'] });
});
afterAll(() => t.close());

const audits = (action: string, actor: string) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.actorName, actor)));

describe('personal center: profile', () => {
  it('updates nick name, phone, email and gender; answers the user with the phone masked', async () => {
    const token = await tokenFor(t, 'alice');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/users/center',
      headers: bearer(token),
      payload: { nickName: '爱丽丝', phone: '13987654321', email: 'alice@example.com', gender: '女' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      nickName: '爱丽丝',
      phone: '139****4321',
      email: 'alice@example.com',
      gender: '女',
    });
    const [row] = await t.database.db.select().from(users).where(eq(users.username, 'alice'));
    expect(row!.phone).toBe('13987654321');
    const [audit] = await audits('profile_change', 'alice');
    expect(audit!.detail).toMatchObject({
      changed: ['nickName', 'phone', 'email', 'gender'],
      phone: '139****4321',
    });
    expect(JSON.stringify(audit)).not.toContain('13987654321');
  });

  it('the masked phone sent back keeps the stored number', async () => {
    const token = await tokenFor(t, 'alice');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/users/center',
      headers: bearer(token),
      payload: { nickName: '爱丽丝2', phone: '139****4321' },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.username, 'alice'));
    expect(row!.phone).toBe('13987654321');
  });

  it('refuses a bad phone or email with the shared messages', async () => {
    const token = await tokenFor(t, 'alice');
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/api/users/center', headers: bearer(token), payload });
    expect((await put({ nickName: 'a', phone: '12345' })).json()).toEqual({
      status: 400,
      message: '手机号：请输入正确的11位手机号码',
      errors: [{ field: 'phone', message: '请输入正确的11位手机号码' }],
    });
    expect((await put({ nickName: 'a', email: 'x@' })).json()).toEqual({
      status: 400,
      message: '邮箱：请输入正确的邮箱地址',
      errors: [{ field: 'email', message: '请输入正确的邮箱地址' }],
    });
    expect((await put({ nickName: '' })).json()).toEqual({
      status: 400,
      message: '昵称：不能为空',
      errors: [{ field: 'nickName', message: '不能为空' }],
    });
  });
});

describe('personal center: password', () => {
  it('password change revokes the other sessions, keeps the current one, and the new password signs in', async () => {
    const other = await tokenFor(t, 'pat');
    const current = await tokenFor(t, 'pat');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/updatePass',
      headers: bearer(current),
      payload: { oldPass: STRONG, newPass: 'N3w#Password2026' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ psPower: 3, revokedSessions: 1 });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(other) })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(current) })).statusCode,
    ).toBe(200);
    expect((await login(t, 'pat', STRONG)).statusCode).toBe(401);
    expect((await login(t, 'pat', 'N3w#Password2026')).statusCode).toBe(200);
    expect(await audits('password_change', 'pat')).toHaveLength(1);
    expect(JSON.stringify(await audits('password_change', 'pat'))).not.toContain('N3w#Password2026');
  });

  it('refuses a wrong old password, a weak new one, and an unchanged one', async () => {
    const token = await tokenFor(t, 'alice');
    const change = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/users/updatePass', headers: bearer(token), payload });
    expect((await change({ oldPass: 'Wrong#Pass2026', newPass: 'N3w#Password2026' })).json()).toEqual({
      status: 400,
      message: '旧密码错误',
      errors: [{ field: 'oldPass', message: '旧密码错误' }],
    });
    expect((await change({ oldPass: STRONG, newPass: 'password1' })).json().message).toBe(
      '新密码：是常见密码或常见词加数字、符号，容易被猜中，请换一个',
    );
    expect((await change({ oldPass: STRONG, newPass: STRONG })).json()).toEqual({
      status: 400,
      message: '新密码不能与旧密码相同',
      errors: [{ field: 'newPass', message: '新密码不能与旧密码相同' }],
    });
  });
});

// ---- avatars ----

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(
    '0000000d49484452000000010000000108060000001f15c4890000000a49444154789c63000100000500010d0a2db40000000049454e44ae426082',
    'hex',
  ),
]);

function multipart(filename: string, contentType: string, data: Buffer) {
  const boundary = '----piibsTestBoundary7MA4YWxkTrZu0gW';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([head, data, tail]),
  };
}

const upload = async (token: string, filename: string, contentType: string, data: Buffer) => {
  const body = multipart(filename, contentType, data);
  return t.app.inject({
    method: 'POST',
    url: '/api/users/updateAvatar',
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
};

describe('avatar', () => {
  it('stores a PNG under a server-generated name, points the user at it and serves it', async () => {
    const token = await tokenFor(t, 'pic');
    const res = await upload(token, '../../evil.png', 'image/png', PNG);
    expect(res.statusCode).toBe(200);
    const { avatar } = res.json();
    expect(avatar).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(existsSync(path.join(avatarDir(t.config.dataDir), avatar))).toBe(true);
    const info = await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(token) });
    expect(info.json().avatar).toBe(avatar);
    const img = await t.app.inject({ method: 'GET', url: `/api/avatar/${avatar}` });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.equals(PNG)).toBe(true);
    expect(await audits('avatar_change', 'pic')).toHaveLength(1);
  });

  it('replacing the avatar removes the old file', async () => {
    const token = await tokenFor(t, 'pic');
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100)]);
    const res = await upload(token, 'me.jpg', 'image/jpeg', jpeg);
    expect(res.json().avatar).toMatch(/\.jpg$/);
    expect(readdirSync(avatarDir(t.config.dataDir))).toEqual([res.json().avatar]);
  });

  it('rejects a non-image whatever its name and declared type', async () => {
    const token = await tokenFor(t, 'pic');
    const res = await upload(token, 'x.png', 'image/png', Buffer.from('<svg onload="alert(1)"></svg>'));
    expect(res.json()).toEqual({ status: 400, message: '头像只支持 PNG、JPEG 或 WebP 图片' });
  });

  it('accepts a file just under 2 MB and rejects one over 2 MB', async () => {
    const token = await tokenFor(t, 'pic');
    const fits = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 - PNG.length - 1)]);
    expect((await upload(token, 'fits.png', 'image/png', fits)).statusCode).toBe(200);
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await upload(token, 'big.png', 'image/png', big);
    expect(res.json()).toEqual({ status: 413, message: '头像文件不能超过 2MB' });
  });

  it('rejects a request that is not multipart', async () => {
    const token = await tokenFor(t, 'pic');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/updateAvatar',
      headers: bearer(token),
      payload: { a: 1 },
    });
    expect(res.json()).toEqual({ status: 400, message: '请以 multipart/form-data 上传头像' });
  });

  it('requires sign-in to upload', async () => {
    const body = multipart('a.png', 'image/png', PNG);
    const res = await t.app.inject({ method: 'POST', url: '/api/users/updateAvatar', ...body });
    expect(res.statusCode).toBe(401);
  });

  it('serves only server-generated names: path traversal and other names answer 404', async () => {
    for (const url of [
      '/api/avatar/..%2F..%2Fsecrets.json',
      '/api/avatar/..%2F..%2F..%2F..%2Fetc%2Fpasswd',
      '/api/avatar/%2e%2e',
      '/api/avatar/secrets.json',
      '/api/avatar/0123456789abcdef0123456789abcdef.svg',
      '/api/avatar/0123456789abcdef0123456789abcdef.png',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/json/);
    }
  });
});
