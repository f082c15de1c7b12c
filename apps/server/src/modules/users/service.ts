import { randomBytes } from 'node:crypto';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type ChangePasswordForm,
  MASKED_MOBILE,
  maskPhone,
  type ProfileForm,
  passwordStrength,
} from '@piibs/shared';
import { imagePixelsProblem } from '@piibs/shared/image-size';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import { badRequest, fieldError, notFound } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { type RequestUser, revokeUserSessions } from '../auth/sessions.ts';

interface Actor {
  user: RequestUser;
  ip: string;
}

/** Updates the caller's own nick name, phone, email and gender. The masked phone as shown keeps the number. */
export async function updateProfile(db: Db, actor: Actor, form: ProfileForm): Promise<void> {
  const [current] = await db
    .select({ nickName: users.nickName, phone: users.phone, email: users.email, gender: users.gender })
    .from(users)
    .where(eq(users.id, actor.user.id));
  if (!current) throw notFound('用户不存在');

  let phone = current.phone;
  if (form.phone !== undefined) {
    if (MASKED_MOBILE.test(form.phone)) {
      if (form.phone !== maskPhone(current.phone))
        throw fieldError('phone', '请输入正确的11位手机号码', '手机号');
    } else {
      phone = form.phone || null;
    }
  }
  const next = {
    nickName: form.nickName,
    phone,
    email: form.email === undefined ? current.email : form.email || null,
    gender: form.gender ?? current.gender,
  };
  const changed = (Object.keys(next) as Array<keyof typeof next>).filter((k) => next[k] !== current[k]);
  if (changed.length === 0) return;
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ ...next, updatedAt: sql`now()`, version: sql`${users.version} + 1` })
      .where(eq(users.id, actor.user.id));
    await auditAction(tx, actor, {
      action: 'profile_change',
      entity: 'user',
      entityId: actor.user.id,
      // Field names only, and the phone masked: the audit trail must not become a copy of personal data.
      detail: { changed, ...(changed.includes('phone') ? { phone: maskPhone(phone) } : {}) },
    });
  });
}

/**
 * Changes the caller's password: the old one must match; the new one must score at least 1 and differ.
 * Every other session of the user is revoked and the current one becomes a full session (same token).
 */
export async function changePassword(
  db: Db,
  actor: Actor,
  form: ChangePasswordForm,
): Promise<{ psPower: number; revoked: number }> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, actor.user.id));
  if (!row) throw notFound('用户不存在');
  if (!(await verifyPassword(row.hash, form.oldPass))) throw fieldError('oldPass', '旧密码错误');
  if (form.oldPass === form.newPass) throw fieldError('newPass', '新密码不能与旧密码相同');
  const psPower = passwordStrength(form.newPass);
  if (psPower === 0) throw fieldError('newPass', '新密码强度不足');
  const hash = await hashPassword(form.newPass);
  return db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        passwordHash: hash,
        passwordChangedAt: sql`now()`,
        mustChangePassword: false,
        passwordOneTime: false,
        oneTimeUsedAt: null,
        failedLogins: 0,
        lockedUntil: null,
        updatedAt: sql`now()`,
        version: sql`${users.version} + 1`,
      })
      .where(eq(users.id, actor.user.id));
    await tx.update(sessions).set({ scope: 'full' }).where(eq(sessions.id, actor.user.sessionId));
    const revoked = await revokeUserSessions(tx, actor.user.id, 'password_change', actor.user.sessionId);
    await auditAction(tx, actor, {
      action: 'password_change',
      entity: 'user',
      entityId: actor.user.id,
      detail: { revokedSessions: revoked },
    });
    return { psPower, revoked };
  });
}

/**
 * Enables or disables an account (for user administration); disabling revokes its sessions at once.
 * `guard` runs first inside the same transaction (the administration rules: scope, level, last administrator).
 */
export async function setUserEnabled(
  db: Db,
  actor: Actor,
  userId: number,
  enabled: boolean,
  opts: { guard?: (tx: Tx) => Promise<void> } = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    await opts.guard?.(tx);
    const [before] = await tx
      .select({ enabled: users.enabled })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!before) throw notFound('用户不存在');
    await tx
      .update(users)
      .set({ enabled, updatedAt: sql`now()`, version: sql`${users.version} + 1` })
      .where(eq(users.id, userId));
    const revoked = enabled ? 0 : await revokeUserSessions(tx, userId, 'disabled');
    await auditAction(tx, actor, {
      action: enabled ? 'user_enable' : 'user_disable',
      entity: 'user',
      entityId: userId,
      detail: { before: { enabled: before.enabled }, after: { enabled }, revokedSessions: revoked },
    });
  });
}

// ---- avatars ----

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** Only names the server generates: 32 hex characters and the type's extension. */
export const AVATAR_NAME = /^[0-9a-f]{32}\.(png|jpg|webp)$/;
const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

export function avatarDir(dataDir: string): string {
  return path.join(dataDir, 'uploads', 'avatars');
}

/** The image type by its first bytes (PNG, JPEG, WebP), whatever the name or declared type says. */
export function imageTypeOf(buf: Buffer): 'png' | 'jpg' | 'webp' | null {
  if (
    buf.length >= 8 &&
    buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return null;
}

/** Stores a new avatar under a server-generated name and points the user at it; the old file is removed. */
export async function saveAvatar(db: Db, dataDir: string, actor: Actor, data: Buffer): Promise<string> {
  const type = imageTypeOf(data);
  if (!type) throw badRequest('头像只支持 PNG、JPEG 或 WebP 图片');
  const pixels = imagePixelsProblem(data);
  if (pixels) throw fieldError('avatar', pixels, '头像');
  const name = `${randomBytes(16).toString('hex')}.${type}`;
  const dir = avatarDir(dataDir);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, name), data, { flag: 'wx', mode: 0o644 });
  const [old] = await db.select({ avatar: users.avatar }).from(users).where(eq(users.id, actor.user.id));
  await db.transaction(async (tx) => {
    await tx.update(users).set({ avatar: name, updatedAt: sql`now()` }).where(eq(users.id, actor.user.id));
    await auditAction(tx, actor, {
      action: 'avatar_change',
      entity: 'user',
      entityId: actor.user.id,
      detail: { avatar: name, bytes: data.length, type },
    });
  });
  if (old?.avatar && AVATAR_NAME.test(old.avatar)) await unlink(path.join(dir, old.avatar)).catch(() => {});
  return name;
}

/** Reads a stored avatar; null for a name the server would not have generated or a missing file. */
export async function readAvatar(
  dataDir: string,
  name: string,
): Promise<{ data: Buffer; contentType: string } | null> {
  const m = AVATAR_NAME.exec(name);
  if (!m) return null;
  try {
    const data = await readFile(path.join(avatarDir(dataDir), name));
    return { data, contentType: CONTENT_TYPES[m[1]!]! };
  } catch {
    return null;
  }
}
