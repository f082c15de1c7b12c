import { DeleteOutlined, DownOutlined, PlusOutlined } from '@ant-design/icons';
import { factorDefForm, factorOptionForm, rateRowForm, rateTableCreateForm } from '@piibs/shared/product';
import { COVERAGE_LABELS, COVERAGE_TYPES, FACTOR_DIRECTIONS, type ProductClass } from '@piibs/shared/rating';
import {
  SHORT_PERIOD_RULE_LABELS,
  SHORT_PERIOD_RULES,
  STANDARD_SHORT_RATE_TABLE,
  shortRateTableProblem,
} from '@piibs/shared/short-period';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Dropdown,
  Form,
  type FormListFieldData,
  Input,
  Row,
  Select,
  Space,
  Table,
  Typography,
} from 'antd';
import type { Rule } from 'antd/es/form';
import { useMemo } from 'react';
import { yuanRule, zodRule } from '@/components/form/zod-rule.ts';
import { useDict } from '@/lib/dict.tsx';
import {
  type FactorValues,
  parseMultiplier,
  parseRate,
  parseShortRateTable,
  type RateRowValues,
  shortRateTableValue,
} from './rate-table-values.ts';

const required = (message: string): Rule => ({ required: true, message });
const RATE_MALFORMED = '请输入费率（‰），最多四位小数';
const MULTIPLIER_MALFORMED = '请输入系数，如 1.3（最多四位小数）';

const RULES = {
  rate: [
    required('请输入费率'),
    zodRule(rateRowForm.shape.rate, { read: parseRate, malformed: RATE_MALFORMED }),
  ],
  limitTier: [yuanRule(rateRowForm.shape.limitTierFen)],
  costBandUpTo: [yuanRule(rateRowForm.shape.costBandUpToFen)],
  highRiskLoading: [
    zodRule(rateTableCreateForm.shape.highRiskLoading, {
      read: parseMultiplier,
      malformed: MULTIPLIER_MALFORMED,
    }),
  ],
  factorCode: [required('请输入因子代码'), zodRule(factorDefForm.shape.code)],
  factorLabel: [required('请输入因子名称'), zodRule(factorDefForm.shape.label)],
  factorMin: [
    required('请输入系数下限'),
    zodRule(factorDefForm.shape.min, { read: parseMultiplier, malformed: MULTIPLIER_MALFORMED }),
  ],
  factorMax: [
    required('请输入系数上限'),
    zodRule(factorDefForm.shape.max, { read: parseMultiplier, malformed: MULTIPLIER_MALFORMED }),
  ],
  optionValue: [required('请输入选项代码'), zodRule(factorOptionForm.shape.value)],
  optionLabel: [required('请输入选项名称'), zodRule(factorOptionForm.shape.label)],
  optionMultiplier: [
    required('请输入系数'),
    zodRule(factorOptionForm.shape.multiplier, { read: parseMultiplier, malformed: MULTIPLIER_MALFORMED }),
  ],
} satisfies Record<string, Rule[]>;

/** Work-safety rows are per coverage; the guarantee coverage is rated on whole-contract rows. */
const WORK_SAFETY_COVERAGES = COVERAGE_TYPES.filter((t) => t !== 'PERFORMANCE_GUARANTEE').map((value) => ({
  value,
  label: COVERAGE_LABELS[value],
}));

/** Industry sections (门类) and divisions (大类) from the dictionaries, shown with their codes. */
export function useIndustryOptions() {
  const sections = useDict('industry_section');
  const divisions = useDict('industry_division');
  return useMemo(
    () =>
      [
        { label: '门类', options: sections.map((o) => ({ value: o.value, label: `${o.value} ${o.label}` })) },
        {
          label: '大类',
          options: divisions.map((o) => ({ value: o.value, label: `${o.value} ${o.label}` })),
        },
      ].filter((group) => group.options.length > 0),
    [sections, divisions],
  );
}

/** The well-known floating factors, offered as templates when a version has not got them yet. */
export const FACTOR_TEMPLATES: readonly FactorValues[] = [
  {
    code: 'ACCIDENT_HISTORY',
    label: '近三年生产安全事故记录',
    min: '0.9',
    max: '1.3',
    defaultOption: 'UNKNOWN',
    options: [
      { value: 'UNKNOWN', label: '未提供', multiplier: '1' },
      { value: 'NONE', label: '无生产安全事故', multiplier: '0.9' },
      { value: 'ONE', label: '发生一般事故 1 起', multiplier: '1.1' },
      { value: 'SEVERE', label: '一般事故 2 起及以上或较大及以上事故', multiplier: '1.3' },
    ],
  },
  {
    code: 'SAFETY_AWARD',
    label: '安全生产标准化 / 表彰',
    min: '0.85',
    max: '1',
    defaultOption: 'NONE',
    options: [
      { value: 'NONE', label: '无', multiplier: '1' },
      { value: 'LEVEL3', label: '安全生产标准化三级达标', multiplier: '0.95' },
      { value: 'LEVEL2', label: '二级及以上达标或省级以上表彰', multiplier: '0.9' },
    ],
  },
  {
    code: 'CREDIT_BLACKLIST',
    label: '安全生产失信联合惩戒对象',
    min: '1',
    max: '1.5',
    defaultOption: 'NO',
    options: [
      { value: 'NO', label: '否', multiplier: '1' },
      { value: 'YES', label: '是', multiplier: '1.3' },
    ],
  },
];

const DIRECTION_HINTS = { down: '只能下浮：系数上限不得大于 1', up: '只能上浮：系数下限不得小于 1' } as const;

/** A new row for the product class: work safety starts with the death/disability coverage. */
export function emptyRow(productClass: ProductClass): RateRowValues {
  return productClass === 'work_safety' ? { coverageType: 'EMPLOYEE_DEATH_DISABILITY' } : {};
}

const cell = { style: { marginBottom: 0 } };

function RowsTable({ productClass }: { productClass: ProductClass }) {
  const industries = useIndustryOptions();
  return (
    <Form.List name="rows">
      {(fields, { add, remove }) => {
        const n = (field: FormListFieldData) => field.name + 1;
        const columns = [
          {
            key: 'index',
            title: '行',
            width: 48,
            render: (_: unknown, field: FormListFieldData) => n(field),
          },
          ...(productClass === 'work_safety'
            ? [
                {
                  key: 'coverageType',
                  title: '责任类型',
                  width: 210,
                  render: (_: unknown, field: FormListFieldData) => (
                    <Form.Item
                      {...cell}
                      name={[field.name, 'coverageType']}
                      rules={[required('请选择责任类型')]}
                    >
                      <Select aria-label={`第 ${n(field)} 行责任类型`} options={WORK_SAFETY_COVERAGES} />
                    </Form.Item>
                  ),
                },
              ]
            : []),
          ...(productClass === 'construction'
            ? []
            : [
                {
                  key: 'industry',
                  title: '行业',
                  width: 200,
                  render: (_: unknown, field: FormListFieldData) => (
                    <Form.Item {...cell} name={[field.name, 'industry']}>
                      <Select
                        aria-label={`第 ${n(field)} 行行业`}
                        options={industries}
                        allowClear
                        showSearch={{ optionFilterProp: 'label' }}
                        placeholder="不限"
                      />
                    </Form.Item>
                  ),
                },
              ]),
          ...(productClass === 'work_safety'
            ? [
                {
                  key: 'limitTier',
                  title: '限额档次（元/人）',
                  render: (_: unknown, field: FormListFieldData) => (
                    <Form.Item {...cell} name={[field.name, 'limitTier']} rules={RULES.limitTier}>
                      <Input aria-label={`第 ${n(field)} 行限额档次`} placeholder="不限" suffix="元" />
                    </Form.Item>
                  ),
                },
              ]
            : []),
          ...(productClass === 'construction'
            ? [
                {
                  key: 'costBandUpTo',
                  title: '造价档次上限（元，含）',
                  render: (_: unknown, field: FormListFieldData) => (
                    <Form.Item {...cell} name={[field.name, 'costBandUpTo']} rules={RULES.costBandUpTo}>
                      <Input
                        aria-label={`第 ${n(field)} 行造价档次上限`}
                        placeholder="不设上限（最高一档）"
                        suffix="元"
                      />
                    </Form.Item>
                  ),
                },
              ]
            : []),
          {
            key: 'rate',
            title: '基准费率（‰）',
            width: 150,
            render: (_: unknown, field: FormListFieldData) => (
              <Form.Item {...cell} name={[field.name, 'rate']} rules={RULES.rate}>
                <Input aria-label={`第 ${n(field)} 行费率`} suffix="‰" />
              </Form.Item>
            ),
          },
          {
            key: 'remove',
            title: '',
            width: 44,
            render: (_: unknown, field: FormListFieldData) => (
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={`删除第 ${n(field)} 行`}
                disabled={fields.length <= 1}
                onClick={() => remove(field.name)}
              />
            ),
          },
        ];
        return (
          <>
            <Table<FormListFieldData>
              size="small"
              rowKey="key"
              pagination={false}
              columns={columns}
              dataSource={fields}
              scroll={{ y: 420 }}
            />
            <Button
              type="dashed"
              block
              icon={<PlusOutlined />}
              disabled={fields.length >= 2000}
              onClick={() => add(emptyRow(productClass))}
              style={{ marginTop: 8 }}
            >
              添加费率行
            </Button>
          </>
        );
      }}
    </Form.List>
  );
}

function FactorCard({
  field,
  index,
  onRemove,
}: {
  field: FormListFieldData;
  index: number;
  onRemove: () => void;
}) {
  const form = Form.useFormInstance();
  const code = Form.useWatch(['factors', field.name, 'code'], form) as string | undefined;
  const options = Form.useWatch(['factors', field.name, 'options'], form) as FactorValues['options'];
  const direction = code ? FACTOR_DIRECTIONS[code.trim()] : undefined;
  const label = `浮动因子 ${index + 1}`;
  return (
    <Card
      size="small"
      title={label}
      style={{ marginBottom: 12 }}
      extra={
        <Button type="link" danger size="small" aria-label={`删除${label}`} onClick={onRemove}>
          删除
        </Button>
      }
    >
      <Row gutter={8}>
        <Col span={6}>
          <Form.Item
            name={[field.name, 'code']}
            label="因子代码"
            rules={RULES.factorCode}
            extra={direction ? DIRECTION_HINTS[direction] : undefined}
          >
            <Input aria-label={`${label}因子代码`} maxLength={32} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name={[field.name, 'label']} label="因子名称" rules={RULES.factorLabel}>
            <Input aria-label={`${label}因子名称`} maxLength={40} />
          </Form.Item>
        </Col>
        <Col span={3}>
          <Form.Item name={[field.name, 'min']} label="系数下限" rules={RULES.factorMin}>
            <Input aria-label={`${label}系数下限`} />
          </Form.Item>
        </Col>
        <Col span={3}>
          <Form.Item name={[field.name, 'max']} label="系数上限" rules={RULES.factorMax}>
            <Input aria-label={`${label}系数上限`} />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item
            name={[field.name, 'defaultOption']}
            label="默认选项"
            rules={[required('请选择默认选项')]}
          >
            <Select
              aria-label={`${label}默认选项`}
              options={(options ?? [])
                .filter((o) => o?.value)
                .map((o) => ({ value: o.value!.trim(), label: o.label || o.value }))}
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.List name={[field.name, 'options']}>
        {(rows, { add, remove }) => (
          <>
            {rows.map((row, j) => (
              <Space key={row.key} align="start" style={{ display: 'flex' }}>
                <Form.Item name={[row.name, 'value']} rules={RULES.optionValue}>
                  <Input
                    aria-label={`${label}选项 ${j + 1} 代码`}
                    placeholder="选项代码"
                    style={{ width: 140 }}
                  />
                </Form.Item>
                <Form.Item name={[row.name, 'label']} rules={RULES.optionLabel}>
                  <Input
                    aria-label={`${label}选项 ${j + 1} 名称`}
                    placeholder="选项名称"
                    style={{ width: 300 }}
                  />
                </Form.Item>
                <Form.Item name={[row.name, 'multiplier']} rules={RULES.optionMultiplier}>
                  <Input
                    aria-label={`${label}选项 ${j + 1} 系数`}
                    placeholder="系数"
                    prefix="×"
                    style={{ width: 110 }}
                  />
                </Form.Item>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`删除${label}选项 ${j + 1}`}
                  disabled={rows.length <= 1}
                  onClick={() => remove(row.name)}
                />
              </Space>
            ))}
            <Button
              size="small"
              icon={<PlusOutlined />}
              disabled={rows.length >= 20}
              onClick={() => add({ multiplier: '1' })}
            >
              添加选项
            </Button>
          </>
        )}
      </Form.List>
    </Card>
  );
}

function FactorsList() {
  const form = Form.useFormInstance();
  const factors = Form.useWatch('factors', form) as FactorValues[] | undefined;
  const present = new Set((factors ?? []).map((f) => f?.code?.trim()));
  return (
    <Form.List name="factors">
      {(fields, { add, remove }) => (
        <>
          {fields.map((field, i) => (
            <FactorCard key={field.key} field={field} index={i} onRemove={() => remove(field.name)} />
          ))}
          {fields.length === 0 ? (
            <Typography.Paragraph type="secondary">暂无浮动因子：保费不作上下浮动。</Typography.Paragraph>
          ) : null}
          <Dropdown
            trigger={['click']}
            disabled={fields.length >= 10}
            menu={{
              items: [
                ...FACTOR_TEMPLATES.map((t) => ({
                  key: t.code!,
                  label: `${t.label}（${t.code}）`,
                  disabled: present.has(t.code),
                })),
                { key: '', label: '自定义因子' },
              ],
              onClick: ({ key }) => {
                const template = FACTOR_TEMPLATES.find((t) => t.code === key);
                add(
                  template
                    ? structuredClone(template)
                    : {
                        min: '1',
                        max: '1',
                        defaultOption: 'DEFAULT',
                        options: [{ value: 'DEFAULT', multiplier: '1' }],
                      },
                );
              },
            }}
          >
            <Button icon={<PlusOutlined />}>
              添加浮动因子 <DownOutlined />
            </Button>
          </Dropdown>
        </>
      )}
    </Form.List>
  );
}

/**
 * The fields of a draft rate-table version: effective date, (construction) high-risk loading, note, the
 * rows in the dimensions the product class uses, and the floating factors. Rates in ‰, limits and cost bands
 * in yuan, multipliers as decimals; each field checked with the shared rules as it is typed.
 */
export function RateTableForm({ productClass }: { productClass: ProductClass }) {
  const rowsHint =
    productClass === 'work_safety'
      ? '按责任类型、行业（门类或大类，空为不限）与从业人员伤亡限额档次（空为不限）定基准费率，须包含从业人员伤亡责任；按人计费的责任以 人数 × 每人限额 为基数，其余以限额为基数。'
      : productClass === 'construction'
        ? '按工程造价分档累进计费：各档上限从低到高，最高一档不设上限。'
        : '按保证金额计费，可按行业（门类或大类）区分，空为不限。';
  return (
    <>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item name="effectiveDate" label="生效日期" rules={[required('请选择生效日期')]}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        {productClass === 'construction' ? (
          <Col span={8}>
            <Form.Item
              name="highRiskLoading"
              label="高风险加成系数"
              rules={RULES.highRiskLoading}
              extra="危大工程上浮；空为 1.3"
            >
              <Input placeholder="1.3" prefix="×" />
            </Form.Item>
          </Col>
        ) : null}
        <Col span={productClass === 'construction' ? 8 : 16}>
          <Form.Item name="note" label="备注" rules={[zodRule(rateTableCreateForm.shape.note)]}>
            <Input maxLength={200} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item
            name="shortPeriodRule"
            label="短期费率规则"
            initialValue="SHORT_RATE_TABLE"
            extra="保险期间不足一年时的计费方式"
          >
            <Select
              options={SHORT_PERIOD_RULES.map((r) => ({ value: r, label: SHORT_PERIOD_RULE_LABELS[r] }))}
            />
          </Form.Item>
        </Col>
        <Col span={16}>
          <Form.Item
            name="shortRateTable"
            label="短期费率表（1 至 12 个月占年保费的百分比）"
            extra={`不足一个月按一个月计；空为标准表：${shortRateTableValue(STANDARD_SHORT_RATE_TABLE)}`}
            rules={[
              {
                validator: async (_, value: string | undefined) => {
                  const table = parseShortRateTable(value);
                  const problem = table ? shortRateTableProblem(table) : null;
                  if (problem) throw new Error(problem.replace(/^短期费率表：/, ''));
                },
              },
            ]}
          >
            <Input placeholder={shortRateTableValue(STANDARD_SHORT_RATE_TABLE)} />
          </Form.Item>
        </Col>
      </Row>
      <Card size="small" title="费率明细" style={{ marginBottom: 16 }}>
        <Typography.Paragraph type="secondary">{rowsHint}</Typography.Paragraph>
        <RowsTable productClass={productClass} />
      </Card>
      <Card size="small" title="浮动因子（系数 × 保费，如 1.3 上浮 30%）">
        <FactorsList />
      </Card>
    </>
  );
}
