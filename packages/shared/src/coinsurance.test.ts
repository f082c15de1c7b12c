import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CoinsuranceRules,
  coinsuranceProblem,
  collectionNotice,
  ISSUER_CODE,
  isShare,
  parseShare,
  SHARE_MESSAGE,
  splitAmount,
  splitCoinsurance,
  totalMessage,
} from './coinsurance.ts';
import { problemText } from './problem.ts';
import { MESSAGES } from './validators.ts';

const s = (insurerCode: string, share: number, lead = false) => ({ insurerCode, share, lead });
/** The issuing insurer's row. */
const me = (share: number, lead = true) => s(ISSUER_CODE, share, lead);
const LEADS: CoinsuranceRules = { issuerLeads: true };
/** The notice of a table's first problem (the product's default: the issuer leads). */
const text = (shares: Parameters<typeof coinsuranceProblem>[0], rules = LEADS) => {
  const problem = coinsuranceProblem(shares, rules);
  return problem && problemText(problem);
};

describe('co-insurance shares', () => {
  it('uses the spec percentage messages word for word', () => {
    expect(SHARE_MESSAGE).toBe(MESSAGES.percent1To100);
  });

  it('parses typed shares: 1–100 with up to six decimals (0 only where allowed)', () => {
    expect(parseShare('33.333333')).toBe(33_333_333);
    expect(parseShare('100')).toBe(100_000_000);
    expect(parseShare('0.000001')).toBe(1);
    for (const bad of ['0', '100.000001', '1.1234567', '-1', '01', 'abc', ''])
      expect(parseShare(bad), bad).toBeNull();
    expect(parseShare('0', true)).toBe(0);
    expect(isShare(0)).toBe(false);
    expect(isShare(0, true)).toBe(true);
  });

  it('accepts an empty table and a valid one', () => {
    expect(coinsuranceProblem([], LEADS)).toBeNull();
    expect(coinsuranceProblem([me(60_000_000), s('PAIC', 40_000_000)], LEADS)).toBeNull();
  });

  it('refuses a table without the issuing insurer (PICC 60% lead + Ping An 40%)', () => {
    const others = [s('PICC', 60_000_000, true), s('PAIC', 40_000_000)];
    for (const issuerLeads of [true, false])
      expect(coinsuranceProblem(others, { issuerLeads })).toEqual({
        field: 'shares',
        label: '共保信息',
        message: '本公司须为共保人之一',
      });
    expect(text([me(50_000_000), me(50_000_000, false)])).toBe('共保公司：本公司只能列一次');
    // the issuer alone is no co-insurance
    expect(text([me(100_000_000)])).toBe('共保信息：共保/联保至少需要两家保险公司');
  });

  it('the issuer leads when the product says so; otherwise another insurer may lead, the issuer still a party', () => {
    const picc = [me(40_000_000, false), s('PICC', 60_000_000, true)];
    expect(text(picc)).toBe('共保信息：本公司须为主承保公司');
    expect(coinsuranceProblem(picc, { issuerLeads: false })).toBeNull();
    expect(coinsuranceProblem([me(40_000_000), s('PICC', 60_000_000)], { issuerLeads: false })).toBeNull();
  });

  it('requires exactly one lead', () => {
    expect(coinsuranceProblem([me(60_000_000, false), s('PAIC', 40_000_000)], LEADS)).toEqual({
      field: 'shares',
      label: '共保信息',
      message: '须有且只有一家主承保公司',
    });
    expect(text([me(60_000_000), s('PAIC', 40_000_000, true)], { issuerLeads: false })).toBe(
      '共保信息：须有且只有一家主承保公司',
    );
  });

  it('requires the total to be exactly 100, showing the current total', () => {
    expect(text([me(60_000_000), s('PAIC', 39_500_000)])).toBe('共保份额合计须为100%，当前合计为 99.5%');
    expect(totalMessage(100_000_001)).toBe('共保份额合计须为100%，当前合计为 100.000001%');
  });

  it("refuses zero, out-of-range shares (the issuer's too), unknown and duplicate insurers", () => {
    expect(coinsuranceProblem([me(100_000_000), s('PAIC', 0)], LEADS)).toEqual({
      field: 'shares.1.share',
      label: '共保份额',
      message: SHARE_MESSAGE,
    });
    expect(coinsuranceProblem([me(0), s('PAIC', 100_000_000)], LEADS)?.field).toBe('shares.0.share');
    // the issuer's code is never looked up in the dictionary
    expect(text([me(50_000_000), s('XXX', 50_000_000)], { ...LEADS, knownInsurers: ['PICC'] })).toBe(
      '共保公司：字典中没有代码 XXX',
    );
    expect(
      coinsuranceProblem([me(50_000_000), s('PICC', 25_000_000), s('PICC', 25_000_000)], LEADS)?.field,
    ).toBe('shares.2.insurerCode');
  });
});

describe('who collects', () => {
  it('the lead collects the whole premium and settles the shares', () => {
    const parts = splitCoinsurance([me(60_000_000), s('PICC', 40_000_000)], 1_234_567, 185_185).map((p) => ({
      ...p,
      insurerName:
        p.insurerCode === ISSUER_CODE ? '示例财产保险股份有限公司' : '中国人民财产保险股份有限公司',
    }));
    // the issuer's part is in the split: the parts add up to the premium and the prevention fee
    expect(parts.map((p) => [p.premiumFen, p.preventionFeeFen])).toEqual([
      [740_741, 111_111],
      [493_826, 74_074],
    ]);
    expect(collectionNotice(parts)).toBe(
      '本保单为共保保单，由主承保人 示例财产保险股份有限公司 代收全部保费 ¥12,345.67，并按份额与共保人结算',
    );
    // Another insurer leads (the product allows it): the policy is still paid through the issuer, who says so.
    expect(collectionNotice(parts.map((p) => ({ ...p, lead: !p.lead })))).toBe(
      '本保单为共保保单，主承保人为 中国人民财产保险股份有限公司；全部保费 ¥12,345.67 由出单公司 示例财产保险股份有限公司 代收，并按份额与各共保人结算',
    );
    expect(collectionNotice([])).toBeNull();
  });
});

describe('splitAmount: floor for the followers, the remainder to the lead', () => {
  it('splits 100.00 yuan three ways to the fen', () => {
    const shares = [s('A', 33_333_334, true), s('B', 33_333_333), s('C', 33_333_333)];
    expect(splitAmount(10_000, shares)).toEqual([3_334, 3_333, 3_333]);
    expect(splitAmount(1, shares)).toEqual([1, 0, 0]);
    const parts = splitCoinsurance(shares, 10_001, 2_000);
    expect(parts.map((p) => [p.premiumFen, p.preventionFeeFen])).toEqual([
      [3_335, 668],
      [3_333, 666],
      [3_333, 666],
    ]);
  });

  /** Random valid tables: n shares that total exactly 100%, one of them the lead. */
  const tables = fc
    .tuple(fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 2, maxLength: 8 }), fc.nat())
    .map(([weights, leadSeed]) => {
      const sum = weights.reduce((a, b) => a + b, 0);
      const shares = weights.map((w) => Math.max(1, Math.floor((w * 100_000_000) / sum)));
      const over = shares.reduce((a, b) => a + b, 0) - 100_000_000;
      const biggest = shares.indexOf(Math.max(...shares));
      shares[biggest]! -= over;
      const lead = leadSeed % shares.length;
      return shares.map((share, i) => s(i === 0 ? ISSUER_CODE : `I${i}`, share, i === lead));
    })
    .filter((t) => t.every((x) => x.share >= 1));

  it('property: parts always add up to the total, each non-negative, on any valid table', () => {
    fc.assert(
      fc.property(tables, fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (shares, total) => {
        expect(coinsuranceProblem(shares, { issuerLeads: false })).toBeNull();
        const parts = splitAmount(total, shares);
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
        for (const p of parts) expect(p).toBeGreaterThanOrEqual(0);
        // each follower gets exactly its floor
        shares.forEach((x, i) => {
          if (!x.lead) expect(parts[i]).toBe(Number((BigInt(total) * BigInt(x.share)) / 100_000_000n));
        });
      }),
      { numRuns: 500 },
    );
  });
});
