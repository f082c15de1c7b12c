import { describe, expect, it, vi } from 'vitest';

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, verify: vi.fn(real.verify) };
});

const { verify } = await import('@node-rs/argon2');
const { hashPassword, verifyPassword } = await import('./passwords.ts');

describe('password hashing', () => {
  it('hashes with argon2id at the OWASP parameters (m=19 MiB, t=2, p=1)', async () => {
    expect(await hashPassword('Str0ng#Pass2026')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('an unknown user still costs one argon2id verification, so sign-in time does not reveal accounts', async () => {
    vi.mocked(verify).mockClear();
    expect(await verifyPassword(null, 'Wrong#Pass2026')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(vi.mocked(verify).mock.calls[0]![0]).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('accepts the right password and refuses a wrong one or a corrupt hash', async () => {
    const stored = await hashPassword('Str0ng#Pass2026');
    expect(await verifyPassword(stored, 'Str0ng#Pass2026')).toBe(true);
    expect(await verifyPassword(stored, 'Str0ng#Pass2027')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'Str0ng#Pass2026')).toBe(false);
  });
});
