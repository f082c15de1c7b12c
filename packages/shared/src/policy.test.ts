import { describe, expect, it } from 'vitest';
import { canonicalString } from './payment.ts';
import { maskHolderName, POLICY_NUMBER, policyStatusOn, VERIFICATION_CODE } from './policy.ts';

describe('policy helpers', () => {
  it('masks holder names for the public verification', () => {
    expect(maskHolderName('镇江润扬科技有限公司')).toBe('镇江**科技有限公司');
    expect(maskHolderName('张三')).toBe('张*');
    expect(maskHolderName('李小明')).toBe('李*明');
    expect(maskHolderName('欧阳娜娜')).toBe('欧**娜');
    expect(maskHolderName('')).toBe('');
  });

  it('derives the state from the period (Asia/Shanghai dates)', () => {
    const p = { status: 'ISSUED', startDate: '2026-05-01', endDate: '2027-04-30' };
    expect(policyStatusOn(p, '2026-04-30')).toBe('ISSUED');
    expect(policyStatusOn(p, '2026-05-01')).toBe('IN_FORCE');
    expect(policyStatusOn(p, '2027-04-30')).toBe('IN_FORCE');
    expect(policyStatusOn(p, '2027-05-01')).toBe('EXPIRED');
  });

  it('knows the number and code formats', () => {
    expect(POLICY_NUMBER.test('PAZX202600000001')).toBe(true);
    expect(POLICY_NUMBER.test('AZX2026000001')).toBe(false);
    expect(VERIFICATION_CODE.test('K7QX2M9PZ4HB8NTA')).toBe(true);
    expect(VERIFICATION_CODE.test('K7QX2M9PZ4HB8NTI')).toBe(false);
  });
});

describe('payment signing', () => {
  it('signs the fields other than sign, sorted by name, empty ones left out', () => {
    expect(canonicalString({ b: 2, a: 'x', sign: 'zz', c: '', d: null })).toBe('a=x&b=2');
  });
});
