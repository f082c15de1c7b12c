// Co-insurance (共保) and joint insurance (联保): several insurers share one contract. Pure, no zod: the wizard
// imports it as `@piibs/shared/coinsurance` and checks the table and splits the premium as the user types; the
// server runs the same code on save and at submit.
//
// Shares are integer micro-percent (percent × 10⁶; 100% = 100_000_000), typed as percentages with up to six
// decimals. Rules [DOMAIN]: the issuing insurer (本公司, the organisation running the system, code ISSUER_CODE)
// is always a party, the lead unless the product lets another insurer lead; at least two insurers; exactly one
// lead; each share 1–100 (more than 0, at most 100, ≤ 6 decimals); the total exactly 100. The lead collects the
// whole premium and settles the others' shares (collectionNotice, stated on the policy). Amounts split
// floor-then-remainder: each follower gets floor(total × share / 10⁸) fen, the lead the rest, so the parts
// always add up to the total to the fen.
import { formatFen, HUNDRED_PERCENT, microPercentText, percentTextToMicro } from './money.ts';
import type { FieldProblem } from './problem.ts';

/** The spec's percentage messages (validators.ts MESSAGES.percent1To100 / percent0To100), word for word. */
export const SHARE_MESSAGE = '请输入1-100且最多六位小数';
export const SHARE_OR_ZERO_MESSAGE = '请输入0-100且最多六位小数';

/**
 * The issuing insurer's row in a co-insurance table: a reserved code, never an entry of the `coinsurer`
 * dictionary; shown with the organisation's name (the server answers it with the rows).
 */
export const ISSUER_CODE = 'ISSUER';
/** The dictionary of the other insurers (共保/联保保险公司). */
export const COINSURER_DICT = 'coinsurer';

export interface CoinsurerShare {
  /** Insurer code from the `coinsurer` dictionary, or ISSUER_CODE for the issuing insurer. */
  insurerCode: string;
  lead: boolean;
  /** Micro-percent. */
  share: number;
}

export interface CoinsurerPart extends CoinsurerShare {
  premiumFen: number;
  preventionFeeFen: number;
}

/** Parses a typed share ('33.333333') into micro-percent; null unless 0 < value ≤ 100 with ≤ 6 decimals. */
export function parseShare(text: string, allowZero = false): number | null {
  if (!/^(?:0|[1-9]\d*)(?:\.\d{1,6})?$/.test(text.trim())) return null;
  const micro = percentTextToMicro(text);
  if (micro === null || micro > HUNDRED_PERCENT) return null;
  if (micro === 0 && !allowZero) return null;
  return micro;
}

/** True for a micro-percent share within 1–100 (more than zero; with `allowZero`, 0–100). */
export function isShare(micro: number, allowZero = false): boolean {
  return Number.isSafeInteger(micro) && micro >= (allowZero ? 0 : 1) && micro <= HUNDRED_PERCENT;
}

/** The sum of the shares, micro-percent. */
export const shareTotal = (shares: readonly Pick<CoinsurerShare, 'share'>[]): number =>
  shares.reduce((a, s) => a + s.share, 0);

/** `共保份额合计须为100%，当前合计为 99.5%`. */
export const totalMessage = (total: number): string =>
  `共保份额合计须为100%，当前合计为 ${microPercentText(total)}%`;

export interface CoinsuranceRules {
  /** The product's rule: the issuing insurer must be the lead (otherwise another insurer may lead). */
  issuerLeads: boolean;
  /** The codes of the `coinsurer` dictionary (unchecked when absent). */
  knownInsurers?: ReadonlySet<string> | readonly string[];
}

/**
 * The first problem of a co-insurance table (at the row's field, or `shares` for the table), or null. An empty
 * table is fine (no co-insurance); otherwise: known, distinct insurers; every share 1–100 with ≤ 6 decimals; the
 * issuing insurer once; at least two insurers; exactly one lead, the issuer when the product says so; total
 * exactly 100%.
 */
export function coinsuranceProblem(
  shares: readonly CoinsurerShare[],
  { issuerLeads, knownInsurers }: CoinsuranceRules,
): FieldProblem | null {
  if (shares.length === 0) return null;
  const known = knownInsurers ? new Set(knownInsurers) : null;
  const seen = new Set<string>();
  for (const [i, s] of shares.entries()) {
    const issuer = s.insurerCode === ISSUER_CODE;
    if (!s.insurerCode || (!issuer && known && !known.has(s.insurerCode)))
      return {
        field: `shares.${i}.insurerCode`,
        label: '共保公司',
        message: `字典中没有代码 ${s.insurerCode}`,
      };
    if (seen.has(s.insurerCode))
      return {
        field: `shares.${i}.insurerCode`,
        label: '共保公司',
        message: issuer ? '本公司只能列一次' : `${s.insurerCode} 重复`,
      };
    seen.add(s.insurerCode);
    if (!isShare(s.share)) return { field: `shares.${i}.share`, label: '共保份额', message: SHARE_MESSAGE };
  }
  const table = (message: string): FieldProblem => ({ field: 'shares', label: '共保信息', message });
  if (!seen.has(ISSUER_CODE)) return table('本公司须为共保人之一');
  if (shares.length < 2) return table('共保/联保至少需要两家保险公司');
  const leads = shares.filter((s) => s.lead);
  if (leads.length !== 1) return table('须有且只有一家主承保公司');
  if (issuerLeads && leads[0]!.insurerCode !== ISSUER_CODE) return table('本公司须为主承保公司');
  const total = shareTotal(shares);
  if (total !== HUNDRED_PERCENT) return { field: 'shares', message: totalMessage(total) };
  return null;
}

/**
 * Splits an amount (fen) by the shares: each follower floor(total × share / 10⁸), the lead the remainder.
 * The parts are non-negative and add up to the total whenever the shares total 100% with one lead.
 */
export function splitAmount(
  totalFen: number,
  shares: readonly Pick<CoinsurerShare, 'lead' | 'share'>[],
): number[] {
  if (!Number.isSafeInteger(totalFen) || totalFen < 0) throw new RangeError('total must be a fen amount');
  const parts = shares.map((s) =>
    s.lead ? 0 : Number((BigInt(totalFen) * BigInt(s.share)) / BigInt(HUNDRED_PERCENT)),
  );
  const lead = shares.findIndex((s) => s.lead);
  if (lead >= 0) parts[lead] = totalFen - parts.reduce((a, b) => a + b, 0);
  return parts;
}

/** The table with each insurer's premium and prevention-fee parts. */
export function splitCoinsurance(
  shares: readonly CoinsurerShare[],
  premiumFen: number,
  preventionFeeFen: number,
): CoinsurerPart[] {
  const premium = splitAmount(premiumFen, shares);
  const prevention = splitAmount(preventionFeeFen, shares);
  return shares.map((s, i) => ({ ...s, premiumFen: premium[i]!, preventionFeeFen: prevention[i]! }));
}

/**
 * Who collects what, stated on the policy, the e-policy and the cashier. The policy is issued and paid through
 * the issuing insurer: as lead it collects the whole premium (the parts' sum) and settles each party's share;
 * when the product lets another insurer lead, the issuer still collects (出单公司代收) and settles, and the lead
 * is named. Null without a lead (no co-insurance).
 */
export function collectionNotice(
  parts: readonly (Pick<CoinsurerPart, 'insurerCode' | 'lead' | 'premiumFen'> & {
    insurerName: string | null;
  })[],
): string | null {
  const lead = parts.find((p) => p.lead);
  if (!lead) return null;
  const total = formatFen(parts.reduce((a, p) => a + p.premiumFen, 0));
  const name = (p: (typeof parts)[number]) => p.insurerName ?? p.insurerCode;
  const issuer = parts.find((p) => p.insurerCode === ISSUER_CODE);
  if (!issuer || issuer === lead)
    return `本保单为共保保单，由主承保人 ${name(lead)} 代收全部保费 ${total}，并按份额与共保人结算`;
  return `本保单为共保保单，主承保人为 ${name(lead)}；全部保费 ${total} 由出单公司 ${name(issuer)} 代收，并按份额与各共保人结算`;
}
