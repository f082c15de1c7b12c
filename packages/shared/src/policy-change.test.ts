import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, defaultEnd } from './application-status.ts';
import {
  annualForHeadcount,
  cancellationReasonProblem,
  cancellationReasonsFor,
  endorsementRequest,
  premiumLedger,
} from './policy-change.ts';
import { CANCELLATION_PARTIES, daysBetween, endorsementDeltaFen, yearDays } from './short-period.ts';

const startArb = fc
  .date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2031-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const fenArb = fc.integer({ min: 0, max: 5_000_000_000 });

/** A full-year policy, a sequence of endorsements at rising effective dates and maybe a cancellation. */
const lifeArb = startArb.chain((start) => {
  const end = defaultEnd(start);
  const days = yearDays(start);
  const dayArb = fc.integer({ min: 0, max: days - 1 }).map((n) => addDays(start, n));
  return fc.record({
    policy: fc.constant({ startDate: start, endDate: end }),
    annualFen: fenArb,
    endorsements: fc
      .array(fc.record({ effective: dayArb, newAnnualFen: fenArb }), { maxLength: 8 })
      .map((es) => [...es].sort((a, b) => (a.effective < b.effective ? -1 : 1))),
    cancellation: fc.option(
      fc.record({
        effective: fc.integer({ min: 0, max: days }).map((n) => addDays(start, n)),
        party: fc.constantFrom(...CANCELLATION_PARTIES),
        preventionSpentFen: fc.integer({ min: 0, max: 1_000_000 }),
      }),
      { nil: undefined },
    ),
  });
});

describe('the premium ledger: no fen created or lost', () => {
  it('paid − refunds = the net premium after any sequence of endorsements, and never below zero', () => {
    fc.assert(
      fc.property(lifeArb, (life) => {
        const l = premiumLedger({ ...life, premiumFen: life.annualFen, cancellation: undefined });
        const sum = l.steps.reduce((s, x) => s + x.fen, 0);
        let running = 0;
        for (const s of l.steps) {
          running += s.fen;
          if (running < 0) return false;
        }
        return (
          sum === l.netFen &&
          l.paidFen - l.refundedFen === l.netFen &&
          l.steps.every((s) => Number.isSafeInteger(s.fen))
        );
      }),
    );
  });

  it('at cancellation the sum paid minus refunds equals the earned premium, and the refund is never negative', () => {
    fc.assert(
      fc.property(lifeArb, (life) => {
        if (!life.cancellation) return true;
        const l = premiumLedger({ ...life, premiumFen: life.annualFen });
        const refund = -(l.steps.at(-1)?.fen ?? 0);
        return refund >= 0 && l.paidFen - l.refundedFen === l.earnedFen && l.netFen === l.earnedFen;
      }),
    );
  });

  it('a change and its reversal on the same day cost nothing (rounding is symmetric)', () => {
    fc.assert(
      fc.property(lifeArb, fenArb, (life, other) => {
        const at = life.endorsements[0]?.effective ?? life.policy.startDate;
        const up = endorsementDeltaFen(life.policy, life.annualFen, other, at);
        const down = endorsementDeltaFen(life.policy, other, life.annualFen, at);
        return up + down === 0;
      }),
    );
  });

  it('prices an added employee pro rata by day: 10 → 12 heads on ¥3,650 a year, 100 days left', () => {
    const policy = { startDate: '2026-01-01', endDate: '2026-12-31' };
    const newAnnual = annualForHeadcount(365_000, 10, 12);
    expect(newAnnual).toBe(438_000);
    const effective = addDays('2026-12-31', -99);
    expect(daysBetween(effective, '2026-12-31') + 1).toBe(100);
    expect(endorsementDeltaFen(policy, 365_000, newAnnual, effective)).toBe(20_000);
    const l = premiumLedger({
      policy,
      premiumFen: 365_000,
      annualFen: 365_000,
      endorsements: [{ effective, newAnnualFen: newAnnual }],
    });
    expect(l.paidFen).toBe(385_000);
  });
});

describe('cancellation reasons per product', () => {
  it('work-safety liability accepts only the end of the enterprise (with proof) or the insurer', () => {
    expect(cancellationReasonsFor('work_safety')).not.toContain('HOLDER_WISH');
    expect(cancellationReasonProblem('work_safety', 'HOLDER_WISH', true)).toMatch(
      /^退保原因：安全生产责任保险仅在企业关闭/,
    );
    expect(cancellationReasonProblem('work_safety', 'DEREGISTERED', false)).toMatch(
      /^证明材料：企业注销须上传证明文件/,
    );
    expect(cancellationReasonProblem('work_safety', 'DEREGISTERED', true)).toBeNull();
  });
  it('other products also accept the policyholder’s wish', () => {
    expect(cancellationReasonsFor('property')).toContain('HOLDER_WISH');
    expect(cancellationReasonProblem('property', 'HOLDER_WISH', false)).toBeNull();
  });
  it('an endorsement must change something', () => {
    const r = endorsementRequest.safeParse({ effectiveDate: '2026-05-01', idempotencyKey: 'abcdefgh12' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('批改内容：请至少修改一项');
  });
});
