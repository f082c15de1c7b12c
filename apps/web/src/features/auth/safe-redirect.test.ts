import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect.ts';

describe('redirect after sign-in: only a same-site /piibs/ path (open redirect refused)', () => {
  it.each([
    '/piibs/user/center',
    '/piibs/epinsure/insureList?page=2&size=20',
    '/piibs/insured/stepOne/12/1#top',
    '/piibs/dashboard',
  ])('accepts %s', (target) => {
    expect(safeRedirect(target)).toBe(target);
  });

  it.each([
    ['scheme-relative', '//evil.com'],
    ['scheme-relative under the prefix', '//evil.com/piibs/'],
    ['absolute http', 'https://evil.com/piibs/dashboard'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['dot segments', '/piibs/../evil'],
    ['encoded dot segments', '/piibs/%2e%2e/evil'],
    ['single dot segment', '/piibs/./x'],
    ['backslash', '/piibs/\\evil.com'],
    ['encoded backslash', '/piibs/%5c%5cevil.com'],
    ['leading backslashes', '/\\evil.com'],
    ['outside /piibs/', '/api/auth/logout'],
    ['bare /piibs', '/piibs'],
    ['relative', 'piibs/dashboard'],
    ['control character', '/piibs/\tdashboard'],
    ['broken encoding', '/piibs/%E0%A4%A'],
    ['empty', ''],
  ])('refuses %s', (_name, target) => {
    expect(safeRedirect(target)).toBeNull();
  });

  it('refuses a missing parameter', () => {
    expect(safeRedirect(null)).toBeNull();
    expect(safeRedirect(undefined)).toBeNull();
  });
});
