import { ROLE_CODES } from '@piibs/shared/auth';
import { describe, expect, it } from 'vitest';
import { roleLabels } from './roles.ts';

describe('roleLabels', () => {
  it('names the built-in roles as the server does, and shows other codes as they are', () => {
    expect(roleLabels([ROLE_CODES.enterprise])).toBe('投保企业');
    expect(roleLabels(['underwriter', 'agent'])).toBe('核保员、代理人');
    expect(roleLabels(['ROLE_SYSTEM_DEFAULT', 'auditor'])).toBe('普通用户、auditor');
  });
});
