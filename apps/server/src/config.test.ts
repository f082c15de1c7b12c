import { describe, expect, it } from 'vitest';
import { dbPoolSize, loadConfig } from './config.ts';

describe('PIIBS_DB_POOL: the database pool', () => {
  it('defaults to four connections per CPU core, at least four', () => {
    expect(dbPoolSize(undefined, 2)).toBe(8);
    expect(dbPoolSize('', 16)).toBe(64);
    expect(dbPoolSize(undefined, 1)).toBe(4);
  });

  it('takes a whole number from 2 to 200, and refuses anything else naming the setting', () => {
    expect(dbPoolSize('12', 2)).toBe(12);
    for (const bad of ['0', '1', '201', '8.5', 'many'])
      expect(() => dbPoolSize(bad, 2)).toThrow(
        `PIIBS_DB_POOL must be a whole number from 2 to 200, got "${bad}"`,
      );
    expect(
      loadConfig({ PIIBS_DB_POOL: '6', JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789' })
        .dbPoolSize,
    ).toBe(6);
  });
});
