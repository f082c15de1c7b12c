import type { CustomerRow } from '@piibs/shared/customer';
import { percentTextToMicro, yuanTextToFen } from '@piibs/shared/money';
import type { AvailableProduct } from '@piibs/shared/product';
import { type ComposedQuote, composeQuote } from '@piibs/shared/quote';
import { Alert, Card, Form, type FormInstance, Typography } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import type { WizardValues } from '../values.ts';

// The breakdown (a table) shows once the inputs price; its code comes then, not with the step's first load.
const QuoteBreakdown = lazy(() =>
  import('./QuoteBreakdown.tsx').then((m) => ({ default: m.QuoteBreakdown })),
);

const fenOf = (v: string | null | undefined) => (v ? yuanTextToFen(String(v)) : null);

/**
 * The premium as the inputs stand, priced in the browser by the shared rating code on the product's active
 * rate table (GET /api/products/available): the same figure the server computes when the step is saved,
 * and again, authoritatively, at submit.
 */
export function livePrice(
  product: AvailableProduct | undefined,
  customer: Pick<CustomerRow, 'industrySection' | 'industryDivision' | 'headcount'> | undefined,
  values: WizardValues | undefined,
): { quote: ComposedQuote | null; problem: string | null } {
  if (!product?.rating) return { quote: null, problem: product ? '该险种尚无生效的费率表' : null };
  const v = values ?? {};
  try {
    const quote = composeQuote(product, product.rating, {
      industrySection: customer?.industrySection,
      industryDivision: customer?.industryDivision,
      headcount: v.headcount ?? null,
      perPersonLimitFen: v.perPersonLimitFen ?? null,
      coverages: v.coverages ?? [],
      projectCostFen: fenOf(v.projectCostYuan),
      highRisk: v.highRisk ?? false,
      guaranteeAmountFen: fenOf(v.guaranteeAmountYuan),
      factors: v.factors ?? {},
      preventionRatio: v.preventionRatio ? percentTextToMicro(String(v.preventionRatio)) : null,
      // A period shorter than a year is priced by the version's short-period rule (the line says the factor).
      periodStart: v.startDate || null,
      periodEnd: v.startDate ? v.endDate || null : null,
    });
    return { quote, problem: null };
  } catch (err) {
    return { quote: null, problem: err instanceof Error ? err.message : String(err) };
  }
}

export function LiveQuote({
  form,
  product,
  customer,
}: {
  form: FormInstance<WizardValues>;
  product: AvailableProduct | undefined;
  customer: CustomerRow | undefined;
}) {
  const values = Form.useWatch((all: WizardValues) => all, form);
  const { quote, problem } = useMemo(() => livePrice(product, customer, values), [product, customer, values]);
  return (
    <Card size="small" title="保费试算" aria-live="polite" data-testid="live-quote">
      {!product ? (
        <Typography.Text type="secondary">选择险种后显示保费</Typography.Text>
      ) : quote ? (
        <Suspense fallback={<Typography.Text type="secondary">正在计算保费…</Typography.Text>}>
          <QuoteBreakdown
            compact
            quote={quote.premium}
            preventionRatio={quote.preventionRatio}
            preventionFeeFen={quote.preventionFeeFen}
            tableText={
              product.rating
                ? `第 ${product.rating.versionNo} 版（${product.rating.effectiveDate} 生效）`
                : null
            }
          />
        </Suspense>
      ) : (
        <Alert type="info" showIcon title={problem ?? '填写计费信息后显示保费'} />
      )}
    </Card>
  );
}
