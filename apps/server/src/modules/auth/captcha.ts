import { randomUUID } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import type { Db } from '../../db/client.ts';
import { captchas } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import { sha256 } from '../../lib/secrets.ts';

export const CAPTCHA_TTL_MS = 2 * 60 * 1000;
export const CAPTCHA_WRONG = '验证码错误';
export const CAPTCHA_MISSING = '验证码不存在或已过期';

/** The stored form of an answer: SHA-256 with the captcha's uuid as salt, case-folded. */
export function hashCaptchaAnswer(uuid: string, answer: string): string {
  return sha256(answer.trim().toLowerCase(), uuid);
}

/** Stores an answer for a new captcha and answers its uuid. Also sweeps long-expired rows now and then. */
export async function storeCaptcha(db: Db, answer: string, ttlMs = CAPTCHA_TTL_MS): Promise<string> {
  const uuid = randomUUID();
  await db.insert(captchas).values({
    id: uuid,
    answerHash: hashCaptchaAnswer(uuid, answer),
    expiresAt: sql`now() + make_interval(secs => ${ttlMs / 1000})`,
  });
  if (Math.random() < 0.02)
    await db.delete(captchas).where(lt(captchas.expiresAt, sql`now() - interval '1 hour'`));
  return uuid;
}

// Four characters without the look-alikes (0/O/o, 1/I/l/i, 2/Z/z, 5/S/s, 9/g/q, u/v …).
const CHARSET = 'ABCDEFGHJKMNPQRTWXYabcdefhjkmnprtwxy34678';

/** A new captcha: an SVG a person can read, as a data URL, and its uuid. */
export async function createCaptcha(db: Db): Promise<{ img: string; uuid: string }> {
  const { data, text } = svgCaptcha.create({
    size: 4,
    charPreset: CHARSET,
    noise: 2,
    color: true,
    // The size of the button that shows it; glyphs of 38 px fit its 40 px height without being cut.
    width: 120,
    height: 40,
    fontSize: 38,
    background: '#f5f7fa',
  });
  const uuid = await storeCaptcha(db, text);
  return { img: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}`, uuid };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks an answer. The captcha is deleted on first check whatever the result, so a uuid works once.
 * Throws 400 验证码不存在或已过期 / 验证码错误.
 */
export async function checkCaptcha(
  db: Db,
  uuid: string | undefined,
  answer: string | undefined,
): Promise<void> {
  if (!uuid || !UUID.test(uuid)) throw badRequest(CAPTCHA_MISSING);
  const [row] = await db
    .delete(captchas)
    .where(eq(captchas.id, uuid))
    .returning({ answerHash: captchas.answerHash, live: sql<boolean>`${captchas.expiresAt} > now()` });
  if (!row?.live) throw badRequest(CAPTCHA_MISSING);
  if (!answer || hashCaptchaAnswer(uuid, answer) !== row.answerHash) throw badRequest(CAPTCHA_WRONG);
}
