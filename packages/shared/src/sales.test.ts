import { describe, expect, it } from 'vitest';
import { maskAccountNo, renewalPeriod, renewalState, renewalWindow, supplementForm } from './sales.ts';

describe('renewal window and period (Asia/Shanghai dates)', () => {
  it('opens 90 days before the end and closes after the end day', () => {
    expect(renewalWindow('2026-12-31')).toEqual({ opensOn: '2026-10-02', closesOn: '2026-12-31' });
    expect(renewalState('2026-12-31', '2026-10-01')).toBe('early');
    expect(renewalState('2026-12-31', '2026-10-02')).toBe('open');
    expect(renewalState('2026-12-31', '2026-12-31')).toBe('open');
    expect(renewalState('2026-12-31', '2027-01-01')).toBe('lapsed');
  });

  it('starts the day after the old end, for a year less a day', () => {
    expect(renewalPeriod('2026-12-31')).toEqual({ startDate: '2027-01-01', endDate: '2027-12-31' });
    expect(renewalPeriod('2027-02-28')).toEqual({ startDate: '2027-03-01', endDate: '2028-02-29' });
  });
});

describe('supplements', () => {
  it('masks account numbers for lists', () => {
    expect(maskAccountNo('6222021100001234567')).toBe('6222***********4567');
    expect(maskAccountNo('12345678')).toBe('12****78');
    expect(maskAccountNo(null)).toBeNull();
  });

  it('requires the NBNMG fields only for that variant', () => {
    const base = {
      version: null,
      salespersonName: '王销售',
      salespersonNo: 'S0001',
      commissionRate: 1_000_000,
      businessSource: 'DIRECT',
    };
    expect(supplementForm.safeParse(base).success).toBe(true);
    const nb = supplementForm.safeParse({ ...base, variant: 'NBNMG' });
    expect(nb.success).toBe(false);
    expect(nb.error?.issues.map((i) => i.path[0])).toEqual([
      'nbProjectName',
      'migrantWorkerCount',
      'wageBank',
      'wageAccountNo',
      'labourContractFilingNo',
      'supervisingAuthority',
    ]);
  });
});
