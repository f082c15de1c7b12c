// Policies (保单): states, masking for the public verification, and the answers of /api/policies, shared by
// the policy pages and the server. Import it as `@piibs/shared/policy`.
//
//   GET /api/policies                 paged list, the caller's scope (as applications)
//   GET /api/policies/:id             detail: policy, coverages, co-insurers, payments, application, history
//   GET /api/policies/:id/pdf         the e-policy (application/pdf, `timestamp-name.pdf`)
//   GET /api/policies/verify/:code    public: masked data only (the page /piibs/verify/:code shows it)
import { z } from 'zod';
import { applicationEventRow } from './application.ts';
import { APPLICATION_STATUSES, CHANNELS, shanghaiToday } from './application-status.ts';
import { issuedDocumentRow } from './documents.ts';
import { formatFen, microPercentText } from './money.ts';
import { paymentRow } from './payment.ts';
import {
  COVERAGE_TYPES,
  type CoverageLimits,
  type CoverageType,
  DEDUCTIBLE_LABEL,
  LIMIT_FIELDS,
  LIMIT_LABELS,
} from './rating.ts';

/**
 * Stored ISSUED at issue; IN_FORCE from 00:00 of the start day; EXPIRED after 24:00 of the end day; CANCELLED
 * (退保) from the cancellation's effective date, whatever the period says.
 */
export const POLICY_STATUSES = ['ISSUED', 'IN_FORCE', 'EXPIRED', 'CANCELLED'] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];
export const POLICY_STATUS_LABELS: Readonly<Record<PolicyStatus, string>> = Object.freeze({
  ISSUED: '未生效',
  IN_FORCE: '有效',
  EXPIRED: '已到期',
  CANCELLED: '已退保',
});

/**
 * The state a policy is in on a day (Asia/Shanghai): its period decides once it is issued; a cancelled one is
 * 已退保 from its cancellation's effective date (`cancelledOn`, the first day no longer covered).
 */
export function policyStatusOn(
  policy: { status: string; startDate: string; endDate: string; cancelledOn?: string | null },
  today: string = shanghaiToday(),
): PolicyStatus {
  if (!(POLICY_STATUSES as readonly string[]).includes(policy.status)) return 'ISSUED';
  if (policy.status === 'CANCELLED') {
    if (!policy.cancelledOn || today >= policy.cancelledOn) return 'CANCELLED';
    return policyStatusOn({ ...policy, status: 'ISSUED', cancelledOn: null }, today);
  }
  if (today > policy.endDate) return 'EXPIRED';
  if (today >= policy.startDate) return 'IN_FORCE';
  return policy.status as PolicyStatus;
}

/** 'P' + product prefix + year + 8-digit serial, e.g. PAZX202600000001. */
export const POLICY_NUMBER = /^P[A-Z0-9]{1,16}\d{4}\d{8}$/;

/** The message of a verification with an unknown code (the public page shows it). */
export const VERIFY_FAILED = '保单验真失败：验证码不存在';
export const POLICY_NOT_FOUND = '保单不存在';

/** Verification codes: 16 characters of Crockford's base-32 alphabet (no I, L, O, U). */
export const VERIFICATION_CODE = /^[0-9A-HJKMNP-TV-Z]{16}$/;

/** The path of the public verification page of a code (the e-policy's QR code points at it). */
export const verifyPath = (code: string) => `/piibs/verify/${encodeURIComponent(code)}`;

/**
 * Masks a holder's name for the public verification: the first two and the last characters of the middle
 * are hidden so the name can be recognised but not harvested.
 *   镇江润扬科技有限公司 → 镇江**科技有限公司; 张三 → 张*; 欧阳娜娜 → 欧**娜; ABC → A*C
 */
export function maskHolderName(name: string): string {
  const chars = Array.from(name.trim());
  const n = chars.length;
  if (n === 0) return '';
  if (n === 1) return '*';
  if (n === 2) return `${chars[0]}*`;
  if (n <= 5)
    return `${chars[0]}${'*'.repeat(Math.min(2, n - 2))}${chars.slice(1 + Math.min(2, n - 2)).join('')}`;
  return `${chars.slice(0, 2).join('')}**${chars.slice(4).join('')}`;
}

/** The period as the policy prints it: 自 2026-05-01 零时起至 2027-04-30 二十四时止. */
export const periodText = (startDate: string, endDate: string) =>
  `自 ${startDate} 零时起至 ${endDate} 二十四时止`;

export const POLICY_SORT_FIELDS = ['id', 'number', 'issuedAt', 'startDate', 'endDate', 'premiumFen'] as const;

/**
 * A cover (保险责任) as insured: one of the product's coverages the quote priced, with its limits, deductible and,
 * when the quote prices each cover (work safety, guarantee), its part of the premium; null when the premium is
 * rated on the whole contract (construction: by cost band).
 */
export const policyCoverage = z.object({
  type: z.enum(COVERAGE_TYPES),
  name: z.string(),
  perPersonLimitFen: z.number().nullable(),
  perAccidentLimitFen: z.number().nullable(),
  aggregateLimitFen: z.number().nullable(),
  deductibleFen: z.number(),
  premiumFen: z.number().nullable(),
});
export type PolicyCoverage = z.infer<typeof policyCoverage>;

/** What a cover needs of a product's coverage (a CoverageRow or the coverage table's row fits). */
export interface ProductCover extends CoverageLimits {
  type: CoverageType;
  name: string;
  deductibleFen: number;
}

/** What the covers need of a quote (a QuoteResult fits). */
export interface CoverQuote {
  input: { coverages: readonly CoverageType[]; perPersonLimitFen: number | null };
  lines: readonly { coverageType: CoverageType | null; premiumFen: number }[];
}

/**
 * The covers a quote insures: the product's coverages it priced (`input.coverages`), in the product's order,
 * with their limits and deductible (death/disability at the per-person limit the quote chose). Each cover
 * carries its line's premium only when the lines are exactly one per cover; otherwise (construction's cost
 * bands) every premium is null and the policy states the total once.
 */
export function policyCoversOf(coverages: readonly ProductCover[], quote: CoverQuote): PolicyCoverage[] {
  const priced = new Set(quote.input.coverages);
  const covers = coverages.filter((c) => priced.has(c.type));
  const byCover =
    quote.lines.length === covers.length &&
    covers.every((c) => quote.lines.filter((l) => l.coverageType === c.type).length === 1);
  return covers.map((c) => ({
    type: c.type,
    name: c.name,
    perPersonLimitFen:
      c.type === 'EMPLOYEE_DEATH_DISABILITY'
        ? (quote.input.perPersonLimitFen ?? c.perPersonLimitFen)
        : c.perPersonLimitFen,
    perAccidentLimitFen: c.perAccidentLimitFen,
    aggregateLimitFen: c.aggregateLimitFen,
    deductibleFen: c.deductibleFen,
    premiumFen: byCover ? quote.lines.find((l) => l.coverageType === c.type)!.premiumFen : null,
  }));
}

/** The covers as a policy prints them: plain text, the same on the policy page and the e-policy. */
export interface CoverTable {
  /** 保险责任, 每人限额, 每次事故限额, 累计限额, 免赔额 and, when the premium is split by cover, 保费. */
  columns: string[];
  /** One per cover, a cell per column. */
  rows: { key: string; cells: string[] }[];
  /** When the premium is not split by cover: the one line stating it under the table; otherwise null. */
  premiumNote: string | null;
}

const PREMIUM_LABEL = '保费';

/**
 * The table of a policy's covers: money as everywhere on the policy (¥500,000.00), a limit the cover does not
 * have as —, no deductible as 无; each cover's premium when every cover has one, else the total once, in a note.
 * No rating formula: that belongs to the quote.
 */
export function coverTableOf(covers: readonly PolicyCoverage[], premiumFen: number): CoverTable {
  const byCover = covers.length > 0 && covers.every((c) => c.premiumFen !== null);
  return {
    columns: [
      '保险责任',
      ...LIMIT_FIELDS.map((f) => LIMIT_LABELS[f]),
      DEDUCTIBLE_LABEL,
      ...(byCover ? [PREMIUM_LABEL] : []),
    ],
    rows: covers.map((c) => ({
      key: c.type,
      cells: [
        c.name,
        ...LIMIT_FIELDS.map((f) => formatFen(c[f])),
        c.deductibleFen > 0 ? formatFen(c.deductibleFen) : '无',
        ...(byCover ? [formatFen(c.premiumFen)] : []),
      ],
    })),
    premiumNote: byCover
      ? null
      : `${PREMIUM_LABEL}按整单计收，不按保险责任分列：合计 ${formatFen(premiumFen)}`,
  };
}

export const policyCoinsurer = z.object({
  insurerCode: z.string(),
  insurerName: z.string().nullable(),
  lead: z.boolean(),
  /** Micro-percent. */
  share: z.number(),
  shareText: z.string(),
  premiumFen: z.number(),
  preventionFeeFen: z.number(),
});
export type PolicyCoinsurer = z.infer<typeof policyCoinsurer>;

/** A stored co-insurance row as the policy answers it (its share also as text). */
export const policyCoinsurerOf = (c: Omit<PolicyCoinsurer, 'shareText'>): PolicyCoinsurer => ({
  insurerCode: c.insurerCode,
  insurerName: c.insurerName,
  lead: c.lead,
  share: c.share,
  shareText: microPercentText(c.share),
  premiumFen: c.premiumFen,
  preventionFeeFen: c.preventionFeeFen,
});

export const policyRow = z.object({
  id: z.number(),
  number: z.string(),
  applicationId: z.number(),
  applicationNumber: z.string(),
  productId: z.number(),
  productCode: z.string(),
  productName: z.string(),
  customerId: z.number(),
  holderName: z.string(),
  holderUscc: z.string(),
  insuredName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  premiumFen: z.number(),
  preventionFeeFen: z.number(),
  status: z.enum(POLICY_STATUSES),
  statusLabel: z.string(),
  issuedAt: z.string(),
});
export type PolicyRow = z.infer<typeof policyRow>;

export const policyApplicationSummary = z.object({
  id: z.number(),
  number: z.string(),
  status: z.enum(APPLICATION_STATUSES),
  channel: z.enum(CHANNELS),
  submittedAt: z.string().nullable(),
  ownerName: z.string().nullable(),
});

/** GET /api/policies/:id. */
export const policyDetail = policyRow.extend({
  /** The insured's credit code (enterprise policyholder) or, for an individual policyholder, null. */
  insuredUscc: z.string().nullable(),
  /** The insured's ID card number (individual policyholder, type 2) or null. */
  insuredIdNumber: z.string().nullable(),
  insuredAddress: z.string().nullable(),
  preventionRatio: z.number().nullable(),
  headcount: z.number().nullable(),
  projectName: z.string().nullable(),
  specialTerms: z.string().nullable(),
  coverages: z.array(policyCoverage),
  coinsurers: z.array(policyCoinsurer),
  verificationCode: z.string(),
  /** Path of the public verification page (the QR code carries the absolute URL). */
  verifyPath: z.string(),
  document: z.object({ sha256: z.string(), sizeBytes: z.number(), downloadPath: z.string() }),
  payments: z.array(paymentRow),
  application: policyApplicationSummary,
  /** The application's timeline, through payment and issue. */
  events: z.array(applicationEventRow),
});
export type PolicyDetail = z.infer<typeof policyDetail>;

/**
 * GET /api/policies/verify/:code (public): what the paper shows, the holder masked — the insurer, premium, covers
 * and limits, the status today, the endorsements issued against the policy and every file issued for it (its
 * SHA-256 and signing certificate), so a visitor can check a file against them.
 */
export const policyVerification = z.object({
  valid: z.literal(true),
  insurerName: z.string(),
  policyNumber: z.string(),
  productName: z.string(),
  holderName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  premiumFen: z.number(),
  coverages: z.array(policyCoverage),
  status: z.enum(POLICY_STATUSES),
  statusLabel: z.string(),
  issuedAt: z.string(),
  endorsements: z.array(
    z.object({
      number: z.string(),
      effectiveDate: z.string(),
      premiumDiffFen: z.number(),
      issuedAt: z.string(),
    }),
  ),
  documents: z.array(issuedDocumentRow),
});
export type PolicyVerification = z.infer<typeof policyVerification>;
