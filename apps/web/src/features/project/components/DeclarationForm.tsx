// The project form of a secondary order (二次下单) with its live premium: cost in yuan on screen, fen on the
// wire; the premium priced in the browser by the shared rating code on the product's active rate table, the same
// figure the server computes (and, authoritatively, again at submit).
import { defaultEnd, earliestStart } from '@piibs/shared/application-status';
import { fenToYuanText, formatFen, yuanTextToFen } from '@piibs/shared/money';
import type { DeclarationDetail, DeclarationFields } from '@piibs/shared/project-order';
import { composeQuote } from '@piibs/shared/quote';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Card,
  Col,
  DatePicker,
  Form,
  type FormInstance,
  InputNumber,
  Row,
  Space,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { availableProductsQuery } from '@/features/application/api.ts';
import { QuoteBreakdown } from '@/features/application/components/QuoteBreakdown.tsx';
import { HighRiskField, ProjectFields } from './ProjectFields.tsx';

export interface DeclarationValues {
  projectName?: string;
  projectAddress?: string;
  /** Yuan as typed ('10000000.00'). */
  projectCostYuan?: string | null;
  startDate?: string;
  endDate?: string;
  highRisk?: boolean;
  headcount?: number | null;
}

/** A new declaration's values: cover from tomorrow for a year. */
export function newDeclarationValues(): DeclarationValues {
  const start = earliestStart();
  return { highRisk: false, startDate: start, endDate: defaultEnd(start), headcount: null };
}

export function valuesOf(d: DeclarationDetail): DeclarationValues {
  return {
    projectName: d.projectName,
    projectAddress: d.projectAddress,
    projectCostYuan: fenToYuanText(d.projectCostFen),
    startDate: d.startDate,
    endDate: d.endDate,
    highRisk: d.highRisk,
    headcount: d.headcount,
  };
}

export const fenOf = (yuan: string | null | undefined) => (yuan ? yuanTextToFen(String(yuan)) : null);

/** The request body's project: money in integer fen. */
export function toDeclarationFields(v: DeclarationValues): DeclarationFields {
  return {
    projectName: (v.projectName ?? '').trim(),
    projectAddress: (v.projectAddress ?? '').trim(),
    projectCostFen: fenOf(v.projectCostYuan) ?? 0,
    startDate: v.startDate ?? '',
    endDate: v.endDate ?? '',
    highRisk: v.highRisk ?? false,
    headcount: v.headcount ?? null,
  };
}

/** The request fields the form keeps under other names (the cost is typed in yuan), for a refusal's `errors`. */
export const DECLARATION_FIELD_NAMES = Object.freeze({ projectCostFen: 'projectCostYuan' });

export const FORMAT = 'YYYY-MM-DD';
export const toPicker = (value: unknown) => ({
  value: typeof value === 'string' && value ? dayjs(value) : null,
});
export const fromPicker = (value: Dayjs | null) => (value ? value.format(FORMAT) : undefined);

/**
 * The premium of the project as typed, priced in the browser on the product's active rate table: the quote, or
 * why there is none (no table yet, an input missing).
 */
export function useLivePremium(form: FormInstance<DeclarationValues>, productId: number) {
  const products = useQuery(availableProductsQuery());
  const product = products.data?.find((p) => p.id === productId);
  const cost = Form.useWatch('projectCostYuan', form);
  const highRisk = Form.useWatch('highRisk', form);
  const priced = useMemo(() => {
    if (!product?.rating) return { quote: null, problem: product ? '该险种尚无生效的费率表' : null };
    try {
      return {
        quote: composeQuote(product, product.rating, {
          projectCostFen: fenOf(cost),
          highRisk: highRisk ?? false,
        }),
        problem: null,
      };
    } catch (err) {
      return { quote: null, problem: err instanceof Error ? err.message : String(err) };
    }
  }, [product, cost, highRisk]);
  return { ...priced, product };
}

/** The live premium of the project as typed, and whether it fits what is left of the quota. */
export function ProjectQuote({
  form,
  productId,
  remainingFen,
  heldFen = 0,
}: {
  form: FormInstance<DeclarationValues>;
  productId: number;
  remainingFen: number;
  /** What the declaration holds already (a returned one keeps its reservation). */
  heldFen?: number;
}) {
  const { product, ...priced } = useLivePremium(form, productId);
  const over = priced.quote ? priced.quote.premium.premiumFen - heldFen > remainingFen : false;
  return (
    <Card size="small" title="保费试算" aria-live="polite" data-testid="project-quote">
      {priced.quote ? (
        <>
          <QuoteBreakdown
            quote={priced.quote.premium}
            preventionRatio={priced.quote.preventionRatio}
            preventionFeeFen={priced.quote.preventionFeeFen}
            tableText={
              product?.rating
                ? `第 ${product.rating.versionNo} 版（${product.rating.effectiveDate} 生效）`
                : null
            }
          />
          {over ? (
            <Alert
              type="warning"
              showIcon
              style={{ marginTop: 12 }}
              title={`保费超过年度订单剩余额度（${formatFen(remainingFen)}），提交审核时将被拒绝`}
            />
          ) : null}
        </>
      ) : (
        <Alert type="info" showIcon title={priced.problem ?? '填写工程造价后显示保费'} />
      )}
    </Card>
  );
}

/** 项目信息: name, address, cost, period, high-risk, headcount; beside them the live premium. */
export function DeclarationForm({
  form,
  initialValues,
  productId,
  remainingFen,
  heldFen,
  order,
}: {
  form: FormInstance<DeclarationValues>;
  initialValues: DeclarationValues;
  productId: number;
  remainingFen: number;
  heldFen?: number;
  /** The annual order's period: a project starts within it. */
  order: { startDate: string; endDate: string };
}) {
  const earliest = earliestStart();
  const products = useQuery(availableProductsQuery());
  const minCostFen = products.data?.find((p) => p.id === productId)?.minProjectCostFen;
  return (
    <Form<DeclarationValues> form={form} layout="vertical" name="declaration" initialValues={initialValues}>
      <Row gutter={24}>
        <Col xs={24} lg={14}>
          <ProjectFields minCostFen={minCostFen} />
          <Form.Item
            label="保险期间（开工至竣工）"
            required
            extra={`开工日期须在年度订单期间内（${order.startDate} 至 ${order.endDate}），不得倒签`}
          >
            <Space wrap>
              <Form.Item
                name="startDate"
                noStyle
                getValueProps={toPicker}
                normalize={fromPicker}
                rules={[{ required: true, message: '请选择开工日期' }]}
              >
                <DatePicker
                  aria-label="开工日期"
                  placeholder="开工日期"
                  disabledDate={(d) => {
                    const day = d.format(FORMAT);
                    return day < earliest || day < order.startDate || day > order.endDate;
                  }}
                />
              </Form.Item>
              <span>至</span>
              <Form.Item
                name="endDate"
                noStyle
                rules={[{ required: true, message: '请选择竣工日期' }]}
                getValueProps={toPicker}
                normalize={fromPicker}
              >
                <DatePicker
                  aria-label="竣工日期"
                  placeholder="竣工日期"
                  disabledDate={(d) => d.format(FORMAT) <= earliest}
                />
              </Form.Item>
            </Space>
          </Form.Item>
          {/* The server's messages about the dates land here (their fields have noStyle). */}
          <Form.Item noStyle shouldUpdate>
            {() => {
              const errors = [...form.getFieldError('startDate'), ...form.getFieldError('endDate')];
              return errors.length ? (
                <Typography.Text
                  type="danger"
                  role="alert"
                  style={{ display: 'block', marginTop: -16, marginBottom: 16 }}
                >
                  {errors.join('；')}
                </Typography.Text>
              ) : null;
            }}
          </Form.Item>
          <HighRiskField
            label="危大工程"
            extra="深基坑、高大模板、起重吊装等危险性较大的分部分项工程，保费上浮"
          />
          <Form.Item name="headcount" label="施工人数" extra="选填">
            <InputNumber min={1} max={999_999} precision={0} style={{ width: 200 }} suffix="人" />
          </Form.Item>
        </Col>
        <Col xs={24} lg={10}>
          <ProjectQuote
            form={form}
            productId={productId}
            remainingFen={remainingFen}
            heldFen={heldFen ?? 0}
          />
        </Col>
      </Row>
    </Form>
  );
}
