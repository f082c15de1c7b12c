import type { PolicyholderType } from '@piibs/shared/application-status';
import type { CustomerRow } from '@piibs/shared/customer';
import { amountShortText, microPercentText, multiplierText } from '@piibs/shared/money';
import type { AvailableProduct } from '@piibs/shared/product';
import {
  COVERAGE_LABELS,
  coverageLimitsText,
  MIN_DEATH_DISABILITY_LIMIT_FEN,
  PRODUCT_CLASS_LABELS,
} from '@piibs/shared/rating';
import { rules } from '@piibs/shared/validators';
import { useQuery } from '@tanstack/react-query';
import { Checkbox, Col, Form, type FormInstance, InputNumber, Row, Select, Tag, Typography } from 'antd';
import { useDeferredValue, useEffect, useState } from 'react';
import { YuanInput } from '@/components/form/YuanInput.tsx';
import { yuanRule } from '@/components/form/zod-rule.ts';
import { approvedCustomersQuery } from '../api.ts';
import type { FlowDef } from '../flows.ts';
import type { WizardValues } from '../values.ts';
import { LiveQuote } from './LiveQuote.tsx';
import { PeriodFields } from './PeriodFields.tsx';

export interface InsuranceSectionProps {
  form: FormInstance<WizardValues>;
  flow: FlowDef;
  policyholderType: PolicyholderType;
  /** Product and customer are chosen once, when the draft is made. */
  isNew: boolean;
  products: AvailableProduct[];
  product: AvailableProduct | undefined;
  /** The applicant as the draft holds it (an existing application). */
  customer: CustomerRow | undefined;
  onCustomer(customer: CustomerRow | undefined): void;
  /**
   * The product asks for 从业人员名单: the people on the saved list (the headcount is theirs, read-only), or null
   * when none are listed yet; undefined: the product does not ask for a list.
   */
  namedCount?: number | null | undefined;
}

/**
 * 填写投保信息: product, applicant, period and the rating inputs of the product's class, with the premium
 * priced live in the browser by the shared rating code as the inputs change.
 */
export function InsuranceSection(props: InsuranceSectionProps) {
  const { form, flow, isNew, products, product, customer } = props;
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const customers = useQuery({ ...approvedCustomersQuery(deferredSearch), enabled: isNew });
  const options = customers.data ?? [];
  const offered = products.filter((p) => flow.productClasses.includes(p.productClass));
  const { onCustomer } = props;

  // An enterprise has exactly one customer: its own; take it.
  useEffect(() => {
    if (!isNew || search || options.length !== 1 || form.getFieldValue('customerId')) return;
    form.setFieldValue('customerId', options[0]!.id);
    onCustomer(options[0]);
  }, [isNew, search, options, form, onCustomer]);

  const rating = product?.rating ?? null;
  const productClass = product?.productClass;
  const optional = (product?.coverages ?? []).filter(
    (c) => !c.mandatory && c.type !== 'EMPLOYEE_DEATH_DISABILITY',
  );
  const mandatory = (product?.coverages ?? []).filter((c) => c.mandatory);
  const holder = props.policyholderType === 2 ? '投保人（个人）' : '投保人（企业）';

  return (
    <Row gutter={24}>
      <Col xs={24} lg={14}>
        <Form.Item name="productId" label="险种" rules={[{ required: true, message: '请选择险种' }]}>
          <Select
            disabled={!isNew}
            placeholder="请选择险种"
            options={offered.map((p) => ({
              value: p.id,
              label: `${p.name}（${PRODUCT_CLASS_LABELS[p.productClass]}）`,
              disabled: !p.rating,
            }))}
            notFoundContent="暂无可投保的险种"
          />
        </Form.Item>
        <Form.Item name="customerId" label={holder} rules={[{ required: true, message: '请选择投保人' }]}>
          <Select
            disabled={!isNew}
            showSearch={{ filterOption: false, onSearch: setSearch }}
            loading={customers.isFetching}
            placeholder="输入名称或统一社会信用代码搜索已审核通过的投保人"
            options={
              isNew
                ? options.map((c) => ({ value: c.id, label: `${c.name}（${c.uscc}）` }))
                : customer
                  ? [{ value: customer.id, label: `${customer.name}（${customer.uscc}）` }]
                  : []
            }
            onChange={(id: number) => onCustomer(options.find((c) => c.id === id))}
            notFoundContent="没有已审核通过的投保人，请先新增客户并等待审核"
          />
        </Form.Item>
        {/* Always there, so the applicant's industry (an enterprise's own, once its customers load) moves nothing. */}
        <Form.Item label="所属行业">
          {customer ? (
            <>
              {customer.industrySectionName ?? customer.industrySection} /{' '}
              {customer.industryDivisionName ?? customer.industryDivision}
            </>
          ) : (
            <Typography.Text type="secondary">选择投保人后显示</Typography.Text>
          )}
        </Form.Item>

        {flow.name === 'epinsure' ? null : <PeriodFields form={form} />}

        {productClass === 'work_safety' ? (
          <>
            <Form.Item
              name="headcount"
              label="参保人数"
              extra={
                props.namedCount
                  ? `按从业人员名单计（${props.namedCount} 人）；在「保单基本信息」一步增减人员`
                  : props.namedCount === null
                    ? '本险种须录入从业人员名单：参保人数以名单人数为准（在「保单基本信息」一步录入或导入）'
                    : '每一名从业人员按同一保险金额参保'
              }
              rules={[
                { required: true, message: '请输入参保人数' },
                rules.headcount,
                { type: 'number', min: 1, message: '至少为 1 人' },
              ]}
            >
              <InputNumber
                min={1}
                precision={0}
                style={{ width: 200 }}
                suffix="人"
                disabled={Boolean(props.namedCount)}
              />
            </Form.Item>
            <Form.Item
              name="perPersonLimitFen"
              label="每人伤亡限额"
              rules={[{ required: true, message: '请选择每人伤亡限额' }]}
              extra="安责险每人死亡/伤残限额不低于 40万元"
            >
              {rating?.limitTiersFen.length ? (
                <Select
                  style={{ width: 200 }}
                  options={rating.limitTiersFen.map((fen) => ({ value: fen, label: amountShortText(fen) }))}
                />
              ) : (
                <InputNumber<number>
                  style={{ width: 200 }}
                  min={MIN_DEATH_DISABILITY_LIMIT_FEN}
                  step={10_000_000}
                  formatter={(v) => (v ? String(Number(v) / 100) : '')}
                  parser={(v) => Math.round(Number(v ?? 0) * 100)}
                  suffix="元"
                />
              )}
            </Form.Item>
            {mandatory.length ? (
              <Form.Item label="基本责任">
                {mandatory.map((c) => (
                  <Tag key={c.type}>{c.name || COVERAGE_LABELS[c.type]}</Tag>
                ))}
              </Form.Item>
            ) : null}
            {optional.length ? (
              <Form.Item name="coverages" label="附加责任">
                <Checkbox.Group
                  options={optional.map((c) => ({
                    value: c.type,
                    label: `${c.name || COVERAGE_LABELS[c.type]}${limitText(c)}`,
                  }))}
                />
              </Form.Item>
            ) : null}
          </>
        ) : null}

        {productClass === 'guarantee' ? (
          <Form.Item
            name="guaranteeAmountYuan"
            label="保证金额"
            rules={[{ required: true, message: '请输入保证金额' }, yuanRule()]}
          >
            <YuanInput width={240} />
          </Form.Item>
        ) : null}

        {rating?.factors.map((f) => (
          <Form.Item key={f.code} name={['factors', f.code]} label={f.label} initialValue={f.defaultOption}>
            <Select
              style={{ width: 240 }}
              options={f.options.map((o) => ({
                value: o.value,
                label: `${o.label}（× ${multiplierText(o.multiplier)}）`,
              }))}
            />
          </Form.Item>
        ))}

        {product ? (
          <Form.Item
            name="preventionRatio"
            label="事故预防费用比例"
            extra={`本险种 ${microPercentText(product.preventionRatioMin)}%–${microPercentText(product.preventionRatioMax)}%（不超过 21%）`}
            rules={[{ required: true, message: '请输入事故预防费用比例' }]}
          >
            <InputNumber<string>
              stringMode
              min={microPercentText(product.preventionRatioMin)}
              max={microPercentText(product.preventionRatioMax)}
              step="0.5"
              precision={2}
              style={{ width: 200 }}
              suffix="%"
            />
          </Form.Item>
        ) : null}
      </Col>
      <Col xs={24} lg={10}>
        <LiveQuote form={form} product={product} customer={customer} />
      </Col>
    </Row>
  );
}

/** Every limit of the coverage, labelled as the quote names the one it rates: （每次事故限额 50万元，累计限额 100万元）. */
function limitText(c: AvailableProduct['coverages'][number]): string {
  const text = coverageLimitsText(c);
  return text ? `（${text}）` : '';
}
