// Pricing an application: its rating inputs as a quote request on the product's active rate table (the shared
// rating code), the quote columns kept on the row (the full QuoteResult: rate-table id and version, every input,
// lines, factors, so it can be reproduced), the co-insurers' parts re-split after the premium changed, and the
// product's ratio rules. New business (drafts, submission) and renewals (sales/renewal.ts) price the same way.

import { splitAmount } from '@piibs/shared/coinsurance';
import { microPercentText } from '@piibs/shared/money';
import type { QuoteResult, quoteForm } from '@piibs/shared/product';
import { commissionCapProblem } from '@piibs/shared/sales';
import { asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { applicationCoinsurers, applications } from '../../db/schema.ts';
import { fieldError, HttpError, problemError } from '../../lib/errors.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { quoteProduct } from '../products/quote.ts';
import { type Application, seeAll } from './changes.ts';

type QuoteInput = z.infer<typeof quoteForm>;

/** The rating inputs of an application as a quote request. */
function quoteInputOf(a: Application): QuoteInput {
  const opt = <T>(v: T | null) => (v === null ? undefined : v);
  return {
    customerId: a.customerId,
    industrySection: opt(a.industrySection),
    industryDivision: opt(a.industryDivision),
    headcount: opt(a.headcount),
    perPersonLimitFen: opt(a.perPersonLimitFen),
    coverages: a.coverages as QuoteInput['coverages'],
    projectCostFen: opt(a.projectCostFen),
    highRisk: a.highRisk,
    guaranteeAmountFen: opt(a.guaranteeAmountFen),
    factors: a.factors as Record<string, string>,
    preventionRatio: opt(a.preventionRatio),
    // The application's period: a shorter one is priced by the product's short-period rule.
    periodStart: opt(a.startDate),
    periodEnd: opt(a.endDate),
  };
}

/** Prices an application on the product's active rate table with the shared rating code. */
export async function rateApplication(tx: Tx, viewer: CustomerViewer, a: Application): Promise<QuoteResult> {
  return quoteProduct(
    tx as unknown as Db,
    { viewer: seeAll(viewer), canSeeDrafts: false },
    a.productId,
    quoteInputOf(a),
  );
}

/**
 * Prices a draft, which may still be incomplete: a rating refusal (400: an input missing, no active rate table)
 * is answered as the draft's `problem` instead of thrown.
 */
export async function tryRate(
  tx: Tx,
  viewer: CustomerViewer,
  a: Application,
): Promise<{ quote: QuoteResult | null; problem: string | null }> {
  try {
    return { quote: await rateApplication(tx, viewer, a), problem: null };
  } catch (err) {
    if (!(err instanceof HttpError && err.status === 400)) throw err;
    return { quote: null, problem: err.message };
  }
}

/** The quote columns of the application row (all null: unpriced). */
export const quoteColumns = (q: QuoteResult | null) => ({
  quote: q,
  rateTableId: q?.rateTableId ?? null,
  premiumFen: q?.premiumFen ?? null,
  preventionFeeFen: q?.preventionFeeFen ?? null,
});

/** Prices a new draft (created or renewed) and keeps its quote; a rating problem leaves it unpriced and is answered. */
export async function priceNewDraft(
  tx: Tx,
  viewer: CustomerViewer,
  a: Application,
): Promise<{ quote: QuoteResult | null; problem: string | null }> {
  const priced = await tryRate(tx, viewer, a);
  if (priced.quote)
    await tx.update(applications).set(quoteColumns(priced.quote)).where(eq(applications.id, a.id));
  return priced;
}

/** Re-splits the co-insurers' parts after the premium changed. */
export async function resplit(
  tx: Tx,
  id: number,
  premiumFen: number | null,
  preventionFeeFen: number | null,
) {
  const rows = await tx
    .select()
    .from(applicationCoinsurers)
    .where(eq(applicationCoinsurers.applicationId, id))
    .orderBy(asc(applicationCoinsurers.sort), asc(applicationCoinsurers.id));
  if (rows.length === 0) return;
  const premium = splitAmount(premiumFen ?? 0, rows);
  const prevention = splitAmount(preventionFeeFen ?? 0, rows);
  for (const [i, r] of rows.entries())
    await tx
      .update(applicationCoinsurers)
      .set({ premiumFen: premium[i]!, preventionFeeFen: prevention[i]! })
      .where(eq(applicationCoinsurers.id, r.id));
}

export const RATING_FIELDS = [
  'industrySection',
  'industryDivision',
  'headcount',
  'perPersonLimitFen',
  'coverages',
  'factors',
  'guaranteeAmountFen',
  'projectCostFen',
  'highRisk',
  'preventionRatio',
  'startDate',
  'endDate',
] as const;

type ProductRules = { commissionCap: number; preventionRatioMin: number; preventionRatioMax: number };

export function checkRatios(
  p: ProductRules,
  a: { commissionRate: number | null; preventionRatio: number | null },
) {
  if (a.commissionRate != null && a.commissionRate > p.commissionCap)
    throw problemError(commissionCapProblem(microPercentText(p.commissionCap)));
  if (
    a.preventionRatio != null &&
    (a.preventionRatio < p.preventionRatioMin || a.preventionRatio > p.preventionRatioMax)
  )
    throw fieldError(
      'preventionRatio',
      `须在 ${microPercentText(p.preventionRatioMin)}%–${microPercentText(p.preventionRatioMax)}% 之间`,
      '事故预防费用比例',
    );
}
