// Quotes: prices a product's inputs on its active rate-table version (or on a named version, to reproduce a
// stored quote) with the shared rating code (`composeQuote`, which the application wizard runs too). This
// module loads the product, the table and the customer, merges the customer's defaults and answers a bad
// input as a 400. Nothing is stored; the answer carries the rate-table id and every resolved input, which an
// application keeps as its quote snapshot.

import { shanghaiToday } from '@piibs/shared/application-status';
import { sectionOfDivision } from '@piibs/shared/industry';
import type { QuoteResult, quoteForm } from '@piibs/shared/product';
import { type ComposedQuote, composeQuote } from '@piibs/shared/quote';
import { type CoverageType, type FactorDef, type RateRow, RatingError } from '@piibs/shared/rating';
import type { ShortPeriodRule } from '@piibs/shared/short-period';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { rateTableRows, rateTables } from '../../db/schema.ts';
import { badRequest, notFound, problemError } from '../../lib/errors.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { getCustomer } from '../customers/service.ts';
import { RATE_TABLE_NOT_FOUND } from './rate-tables.ts';
import { getProduct } from './service.ts';

type QuoteInput = z.infer<typeof quoteForm>;

export interface QuoteCaller {
  viewer: CustomerViewer;
  /** Product administrators may price on a draft version (to try it before activating it). */
  canSeeDrafts: boolean;
}

export async function quoteProduct(
  db: Db,
  caller: QuoteCaller,
  productId: number,
  form: QuoteInput,
): Promise<QuoteResult> {
  const product = await getProduct(db, productId);
  const [table] = await db
    .select()
    .from(rateTables)
    .where(
      and(
        eq(rateTables.productId, productId),
        form.rateTableId ? eq(rateTables.id, form.rateTableId) : eq(rateTables.status, 'active'),
      ),
    );
  if (form.rateTableId) {
    if (!table || (table.status === 'draft' && !caller.canSeeDrafts)) throw notFound(RATE_TABLE_NOT_FOUND);
  } else {
    // A new quote needs a product on sale; reproducing one on a named version does not.
    if (!product.enabled) throw badRequest('险种已停用');
    const day = shanghaiToday();
    if (day < product.validFrom || day > product.validTo) throw badRequest('险种不在有效期内');
    if (!table) throw badRequest('该险种尚无生效的费率表');
  }
  const rows: RateRow[] = (
    await db
      .select({
        coverageType: rateTableRows.coverageType,
        industry: rateTableRows.industry,
        limitTierFen: rateTableRows.limitTierFen,
        costBandUpToFen: rateTableRows.costBandUpToFen,
        rate: rateTableRows.rate,
      })
      .from(rateTableRows)
      .where(eq(rateTableRows.rateTableId, table!.id))
      .orderBy(asc(rateTableRows.sort), asc(rateTableRows.id))
  ).map((r) => ({ ...r, coverageType: r.coverageType as CoverageType | null }));

  // The customer's industry and headcount stand in for the ones the form leaves out.
  const customer = form.customerId ? await getCustomer(db, caller.viewer, form.customerId) : null;
  const industryDivision = form.industryDivision ?? customer?.industryDivision ?? null;
  const industrySection =
    form.industrySection ??
    (form.industryDivision ? sectionOfDivision(form.industryDivision) : null) ??
    customer?.industrySection ??
    null;

  let quote: ComposedQuote;
  try {
    quote = composeQuote(
      product,
      {
        versionNo: table!.versionNo,
        factors: table!.factors as FactorDef[],
        highRiskLoading: table!.highRiskLoading,
        shortPeriodRule: table!.shortPeriodRule as ShortPeriodRule,
        shortRateTable: table!.shortRateTable,
        rows,
      },
      {
        ...form,
        industrySection,
        industryDivision,
        headcount: form.headcount ?? customer?.headcount,
      },
    );
  } catch (err) {
    if (err instanceof RatingError) throw problemError(err.problem);
    throw err;
  }

  return {
    productId: product.id,
    productCode: product.code,
    productName: product.name,
    productClass: product.productClass,
    rateTableId: table!.id,
    rateTableVersion: table!.versionNo,
    effectiveDate: table!.effectiveDate,
    quotedAt: new Date().toISOString(),
    input: quote.input,
    ...quote.premium,
    preventionRatio: quote.preventionRatio,
    preventionFeeFen: quote.preventionFeeFen,
    period: quote.period,
    rounding: 'HALF_UP_FEN',
  };
}
