import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Hex SHA-256 of `salt:value` (the salt may be empty). For short-lived secrets stored server-side. */
export function sha256(value: string, salt = ''): string {
  return createHash('sha256')
    .update(salt ? `${salt}:${value}` : value)
    .digest('hex');
}

/** A URL-safe random secret of `bytes` bytes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
