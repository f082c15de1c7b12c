// Quotes: prices a product's inputs on its active rate-table version (or on a named version, to reproduce a
// stored quote) with the shared rating functions. Nothing is stored; the answer carries the rate-table id and
// every resolved input, which an application keeps as its quote snapshot.
import { sectionOfDivision } from '@piibs/shared/industry';
import { amountShortText, microPercentText } from '@piibs/shared/money';
import type { QuoteResult, quoteForm } from '@piibs/shared/product';
import {
  COVERAGE_LABELS,
  type CoverageType,
  chooseFactors,
  costBandsOf,
  type ExtraCoverage,
  type FactorDef,
  limitTiersOf,
  PER_PERSON_COVERAGES,
  type PremiumQuote,
  type ProductClass,
  pickRate,
  preventionFee,
  quoteConstruction,
  quoteGuarantee,
  quoteWorkSafety,
  type RateRow,
  RatingError,
} from '@piibs/shared/rating';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { rateTableRows, rateTables } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { getCustomer } from '../customers/service.ts';
import { getProduct, RATE_TABLE_NOT_FOUND, today } from './service.ts';

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
    const day = today();
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

  const customer = form.customerId ? await getCustomer(db, caller.viewer, form.customerId) : null;
  const industryDivision = form.industryDivision ?? customer?.industryDivision ?? null;
  const industrySection =
    form.industrySection ??
    (form.industryDivision ? sectionOfDivision(form.industryDivision) : null) ??
    customer?.industrySection ??
    null;

  const ratio = form.preventionRatio ?? product.preventionRatioMin;
  if (ratio < product.preventionRatioMin || ratio > product.preventionRatioMax)
    throw badRequest(
      `事故预防费用比例：须在 ${microPercentText(product.preventionRatioMin)}%–${microPercentText(product.preventionRatioMax)}% 之间`,
    );

  const productClass = product.productClass as ProductClass;
  const input: QuoteResult['input'] = {
    industrySection,
    industryDivision,
    headcount: null,
    perPersonLimitFen: null,
    coverages: [],
    projectCostFen: null,
    highRisk: false,
    guaranteeAmountFen: null,
    factors: {},
    preventionRatio: ratio,
  };
  let premium: PremiumQuote;
  try {
    const factors = chooseFactors(table!.factors as FactorDef[], form.factors ?? {});
    input.factors = Object.fromEntries(factors.map((f) => [f.code, f.option ?? '']));
    const industry = { industrySection, industryDivision };
    const rateOf = (coverageType: CoverageType | null, limitTierFen?: number) => {
      const row = pickRate(rows, { coverageType, ...industry, limitTierFen });
      if (!row) {
        const what = coverageType ? `「${COVERAGE_LABELS[coverageType]}」` : '整单';
        throw badRequest(
          `费率表（第 ${table!.versionNo} 版）没有${what}在该行业${limitTierFen ? '、限额' : ''}下的费率`,
        );
      }
      return row.rate;
    };

    if (productClass === 'work_safety') {
      const headcount = form.headcount ?? customer?.headcount;
      if (headcount === undefined) throw badRequest('参保人数：不能为空');
      const death = product.coverages.find((c) => c.type === 'EMPLOYEE_DEATH_DISABILITY');
      const limit = form.perPersonLimitFen ?? death?.perPersonLimitFen;
      if (limit == null) throw badRequest('每人伤亡限额：不能为空');
      const tiers = limitTiersOf(rows);
      const anyLimit = rows.some(
        (r) => r.coverageType === 'EMPLOYEE_DEATH_DISABILITY' && r.limitTierFen === null,
      );
      if (tiers.length && !anyLimit && !tiers.includes(limit))
        throw badRequest(`每人伤亡限额：请选择 ${tiers.map(amountShortText).join('、')}`);
      const industrySpecific = rows.some((r) => r.coverageType === 'EMPLOYEE_DEATH_DISABILITY' && r.industry);
      if (industrySpecific && !industrySection) throw badRequest('行业门类：不能为空');

      const chosen = new Set<CoverageType>(form.coverages ?? []);
      for (const type of chosen) {
        if (!product.coverages.some((c) => c.type === type))
          throw badRequest(`附加责任：该险种没有「${COVERAGE_LABELS[type]}」`);
      }
      const included = product.coverages.filter(
        (c) => c.type !== 'EMPLOYEE_DEATH_DISABILITY' && (c.mandatory || chosen.has(c.type)),
      );
      const extras: ExtraCoverage[] = included.map((c) =>
        PER_PERSON_COVERAGES.includes(c.type)
          ? { type: c.type, label: c.name, perPersonLimitFen: c.perPersonLimitFen, rate: rateOf(c.type) }
          : {
              type: c.type,
              label: c.name,
              limitFen: c.aggregateLimitFen ?? c.perAccidentLimitFen ?? c.perPersonLimitFen,
              rate: rateOf(c.type),
            },
      );
      premium = quoteWorkSafety({
        headcount,
        perPersonLimitFen: limit,
        rate: rateOf('EMPLOYEE_DEATH_DISABILITY', limit),
        factors,
        coverages: extras,
      });
      Object.assign(input, {
        headcount,
        perPersonLimitFen: limit,
        coverages: ['EMPLOYEE_DEATH_DISABILITY', ...included.map((c) => c.type)],
      });
    } else if (productClass === 'construction') {
      if (form.projectCostFen === undefined) throw badRequest('工程造价：不能为空');
      premium = quoteConstruction({
        projectCostFen: form.projectCostFen,
        bands: costBandsOf(rows),
        highRisk: form.highRisk,
        highRiskLoading: table!.highRiskLoading,
        factors,
      });
      Object.assign(input, {
        projectCostFen: form.projectCostFen,
        highRisk: form.highRisk,
        coverages: product.coverages.map((c) => c.type),
      });
    } else {
      const amount = form.guaranteeAmountFen;
      if (amount === undefined) throw badRequest('保证金额：不能为空');
      const cover = product.coverages.find((c) => c.type === 'PERFORMANCE_GUARANTEE');
      const cap = cover ? (cover.aggregateLimitFen ?? cover.perAccidentLimitFen) : null;
      if (cap != null && amount > cap) throw badRequest(`保证金额：不能超过 ${amountShortText(cap)}`);
      premium = quoteGuarantee({ amountFen: amount, rate: rateOf(null), factors });
      Object.assign(input, { guaranteeAmountFen: amount, coverages: product.coverages.map((c) => c.type) });
    }
  } catch (err) {
    if (err instanceof RatingError) throw badRequest(err.message);
    throw err;
  }

  return {
    productId: product.id,
    productCode: product.code,
    productName: product.name,
    productClass,
    rateTableId: table!.id,
    rateTableVersion: table!.versionNo,
    effectiveDate: table!.effectiveDate,
    quotedAt: new Date().toISOString(),
    input,
    ...premium,
    preventionRatio: ratio,
    preventionFeeFen: preventionFee(premium.premiumFen, ratio),
    rounding: 'HALF_UP_FEN',
  };
}
