import { type Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP's argon2id recommendation: m=19 MiB, t=2, p=1. (Algorithm is an ambient const enum; 2 = Argon2id.)
const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | undefined;

/**
 * Verifies a password against a stored hash. With no hash (unknown user) it verifies against a dummy hash of
 * the same parameters and answers false, so both cases take about the same time.
 */
export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!storedHash) {
    dummy ??= hashPassword('dummy-password-for-unknown-users');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
