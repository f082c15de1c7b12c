import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { MATERIAL_DOC_DICT } from '@piibs/shared/material';
import { fenToYuanText, microPercentText, percentTextToMicro, yuanTextToFen } from '@piibs/shared/money';
import { fenField } from '@piibs/shared/money-field';
import {
  MATERIAL_STAGE_LABELS,
  MATERIAL_STAGES,
  type ProductCreateForm,
  type ProductRow,
  type RequiredMaterial,
} from '@piibs/shared/product';
import {
  COVERAGE_LABELS,
  COVERAGE_TYPES,
  type CoverageType,
  PRODUCT_CLASS_LABELS,
  PRODUCT_CLASSES,
  type ProductClass,
} from '@piibs/shared/rating';
import { rules } from '@piibs/shared/validators';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, DatePicker, Form, Input, Row, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { invalidateResource, reloadRow } from '@/components/crud/resource.ts';
import type { FieldNames } from '@/components/form/server-errors.ts';
import { YuanInput } from '@/components/form/YuanInput.tsx';
import { yuanRule } from '@/components/form/zod-rule.ts';
import { useDict } from '@/lib/dict.tsx';
import { createProduct, productsResource, updateProduct } from '../api.ts';

interface CoverageValues {
  type?: CoverageType;
  name?: string | null;
  perPersonLimit?: string;
  perAccidentLimit?: string;
  aggregateLimit?: string;
  deductible?: string;
  mandatory?: boolean;
}

export interface ProductValues {
  code: string;
  name: string;
  productClass: ProductClass;
  clauseVersion: string;
  region: string;
  validFrom: Dayjs;
  validTo: Dayjs;
  allowsCoinsurance: boolean;
  namedInsuredRequired?: boolean;
  issuerLeads: boolean;
  minPremium?: string;
  minProjectCost?: string;
  requiredMaterials?: Partial<RequiredMaterial>[];
  preventionRatioMin: string;
  preventionRatioMax: string;
  commissionCap: string;
  enabled: boolean;
  description?: string | null;
  coverages?: CoverageValues[];
}

const DATE = 'YYYY-MM-DD';
const required = { required: true, message: '不能为空' };
/** Limits are more than 0; a deductible or minimum premium may be 0. */
const positiveYuan = yuanRule();
const yuanOrZero = yuanRule(fenField('', { min: 0 }));

const yuanText = (fen: number | null | undefined) => (fen == null ? undefined : fenToYuanText(fen));
const fenOf = (text: string | undefined) => (text ? yuanTextToFen(text) : null);

function toValues(row: ProductRow): Partial<ProductValues> {
  return {
    code: row.code,
    name: row.name,
    productClass: row.productClass,
    clauseVersion: row.clauseVersion,
    region: row.region,
    validFrom: dayjs(row.validFrom),
    validTo: dayjs(row.validTo),
    allowsCoinsurance: row.allowsCoinsurance,
    namedInsuredRequired: row.namedInsuredRequired,
    issuerLeads: row.issuerLeads,
    minPremium: row.minPremiumFen ? fenToYuanText(row.minPremiumFen) : undefined,
    minProjectCost: yuanText(row.minProjectCostFen),
    requiredMaterials: row.requiredMaterials,
    preventionRatioMin: microPercentText(row.preventionRatioMin),
    preventionRatioMax: microPercentText(row.preventionRatioMax),
    commissionCap: microPercentText(row.commissionCap),
    enabled: row.enabled,
    description: row.description,
    coverages: row.coverages.map((c) => ({
      type: c.type,
      name: c.name,
      perPersonLimit: yuanText(c.perPersonLimitFen),
      perAccidentLimit: yuanText(c.perAccidentLimitFen),
      aggregateLimit: yuanText(c.aggregateLimitFen),
      deductible: yuanText(c.deductibleFen),
      mandatory: c.mandatory,
    })),
  };
}

function toBody(values: ProductValues): ProductCreateForm {
  return {
    code: values.code.trim(),
    name: values.name,
    productClass: values.productClass,
    clauseVersion: values.clauseVersion,
    region: values.region,
    validFrom: values.validFrom.format(DATE),
    validTo: values.validTo.format(DATE),
    allowsCoinsurance: values.allowsCoinsurance ?? false,
    namedInsuredRequired: values.namedInsuredRequired ?? false,
    issuerLeads: values.issuerLeads ?? true,
    minPremiumFen: fenOf(values.minPremium) ?? 0,
    minProjectCostFen: values.productClass === 'construction' ? fenOf(values.minProjectCost) : null,
    requiredMaterials: (values.requiredMaterials ?? []).map((m) => ({
      docType: m.docType ?? '',
      stage: m.stage ?? 'SUBMIT',
    })),
    preventionRatioMin: percentTextToMicro(values.preventionRatioMin) ?? 0,
    preventionRatioMax: percentTextToMicro(values.preventionRatioMax) ?? 0,
    commissionCap: percentTextToMicro(values.commissionCap) ?? 0,
    enabled: values.enabled ?? true,
    description: values.description?.trim() || null,
    coverages: (values.coverages ?? []).map((c, i) => ({
      type: c.type as CoverageType,
      name: c.name?.trim() || null,
      perPersonLimitFen: fenOf(c.perPersonLimit),
      perAccidentLimitFen: fenOf(c.perAccidentLimit),
      aggregateLimitFen: fenOf(c.aggregateLimit),
      deductibleFen: fenOf(c.deductible) ?? 0,
      mandatory: c.mandatory ?? false,
      sort: i,
    })),
  };
}

/** A coverage's amounts travel in fen; the form types them in yuan, under these names. */
const COVERAGE_FIELDS: Readonly<Record<string, keyof CoverageValues>> = {
  perPersonLimitFen: 'perPersonLimit',
  perAccidentLimitFen: 'perAccidentLimit',
  aggregateLimitFen: 'aggregateLimit',
  deductibleFen: 'deductible',
};

/** A refused coverage amount ('coverages.0.perPersonLimitFen') → its field in the form. */
const fieldNames: FieldNames = ([list, i, field]) =>
  list === 'coverages' && i !== undefined && typeof field === 'string' && COVERAGE_FIELDS[field]
    ? ['coverages', i, COVERAGE_FIELDS[field]]
    : undefined;

/** The documents an application must carry, by stage (提交投保时 / 核保通过前). */
function RequiredMaterialsField() {
  const docTypes = useDict(MATERIAL_DOC_DICT);
  const stages = MATERIAL_STAGES.map((value) => ({ value, label: MATERIAL_STAGE_LABELS[value] }));
  return (
    <Form.List name="requiredMaterials">
      {(fields, { add, remove }) => (
        <Card size="small" title="必备资料" style={{ marginTop: 16 }}>
          {fields.map((field, i) => (
            <Row gutter={8} key={field.key} align="top">
              <Col span={11}>
                <Form.Item
                  name={[field.name, 'docType']}
                  label="资料类型"
                  rules={[{ required: true, message: '请选择资料类型' }]}
                >
                  <Select options={docTypes} placeholder="请选择" />
                </Form.Item>
              </Col>
              <Col span={11}>
                <Form.Item
                  name={[field.name, 'stage']}
                  label="环节"
                  rules={[{ required: true, message: '请选择环节' }]}
                >
                  <Select options={stages} placeholder="请选择" />
                </Form.Item>
              </Col>
              <Col span={2} style={{ paddingTop: 36 }}>
                <MinusCircleOutlined
                  aria-label={`删除第 ${i + 1} 项必备资料`}
                  onClick={() => remove(field.name)}
                />
              </Col>
            </Row>
          ))}
          <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ stage: 'SUBMIT' })}>
            添加必备资料
          </Button>
        </Card>
      )}
    </Form.List>
  );
}

function useRegionOptions() {
  const zhenjiang = useDict('region_zhenjiang');
  const jiangsu = useDict('region_jiangsu');
  return useMemo(
    () =>
      [
        { label: '江苏省', options: [{ label: '江苏省', value: '320000' }, ...jiangsu] },
        { label: '镇江市', options: zhenjiang },
      ].filter((group) => group.options.length > 0),
    [zhenjiang, jiangsu],
  );
}

/** Create / edit a product with its coverages (limits in yuan, ratios in percent). */
export function ProductModal({
  open,
  product,
  onClose,
}: {
  open: boolean;
  product: ProductRow | null;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const regions = useRegionOptions();
  const submit = (values: ProductValues, record: ProductRow | null) => {
    const body = toBody(values);
    return record ? updateProduct({ ...body, id: record.id, version: record.version }) : createProduct(body);
  };

  return (
    <CrudModal<ProductValues, ProductRow>
      open={open}
      title={product ? '编辑险种' : '新增险种'}
      record={product}
      toValues={toValues}
      initialValues={{
        enabled: true,
        allowsCoinsurance: false,
        namedInsuredRequired: false,
        issuerLeads: true,
        productClass: 'work_safety',
        coverages: [{ type: 'EMPLOYEE_DEATH_DISABILITY', mandatory: true }],
      }}
      onSubmit={submit}
      reload={(row) => reloadRow(client, productsResource, row.id)}
      onSaved={() => void invalidateResource(client, productsResource)}
      onClose={onClose}
      fieldNames={fieldNames}
      drawer
      width={880}
      formProps={{ name: 'product' }}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="code" label="险种代码" rules={[required]}>
            <Input maxLength={32} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="name" label="险种名称" rules={[required]}>
            <Input maxLength={60} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="productClass" label="险种类别" rules={[required]}>
            <Select
              options={PRODUCT_CLASSES.map((value) => ({ value, label: PRODUCT_CLASS_LABELS[value] }))}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="clauseVersion" label="条款版本" rules={[required]}>
            <Input maxLength={60} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="region" label="适用地区" rules={[{ required: true, message: '请选择地区' }]}>
            <Select options={regions} showSearch={{ optionFilterProp: 'label' }} placeholder="请选择" />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="validFrom" label="生效日期" rules={[required]}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="validTo" label="失效日期" rules={[required]}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="preventionRatioMin"
            label="事故预防费用比例下限"
            rules={[required, rules.percent0To100]}
          >
            <Input suffix="%" />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="preventionRatioMax"
            label="事故预防费用比例上限"
            rules={[required, rules.percent0To100]}
            extra="不超过 21%"
          >
            <Input suffix="%" />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="commissionCap"
            label="手续费比例上限"
            rules={[required, rules.percent0To100]}
            extra="不超过 5%"
          >
            <Input suffix="%" />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="allowsCoinsurance" label="允许共保" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="namedInsuredRequired"
            label="需要从业人员名单"
            valuePropName="checked"
            extra="投保时须录入或导入姓名与身份证号码，参保人数按名单计"
          >
            <Switch />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="issuerLeads"
            label="本公司为主承保"
            valuePropName="checked"
            extra="共保时本公司为主承保，代收全部保费并与共保公司结算"
          >
            <Switch />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="minPremium"
            label="最低保费"
            rules={[yuanOrZero]}
            extra="按费率计算低于此金额时按最低保费收取；不填为不设"
          >
            <YuanInput />
          </Form.Item>
        </Col>
        <Form.Item noStyle dependencies={['productClass']}>
          {({ getFieldValue }) =>
            getFieldValue('productClass') === 'construction' ? (
              <Col span={8}>
                <Form.Item
                  name="minProjectCost"
                  label="最低工程造价"
                  rules={[positiveYuan]}
                  extra="低于此造价的项目不予申报；不填为不设"
                >
                  <YuanInput />
                </Form.Item>
              </Col>
            ) : null
          }
        </Form.Item>
        <Col span={8}>
          <Form.Item name="enabled" label="状态" valuePropName="checked">
            <Switch checkedChildren="启用" unCheckedChildren="停用" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="description" label="说明">
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Col>
      </Row>
      <Form.List name="coverages">
        {(fields, { add, remove }) => (
          <Card size="small" title="责任（限额以元计）">
            {fields.map((field) => (
              <Row gutter={8} key={field.key} align="top">
                <Col span={6}>
                  <Form.Item
                    name={[field.name, 'type']}
                    label="责任类型"
                    rules={[{ required: true, message: '请选择责任类型' }]}
                  >
                    <Select
                      options={COVERAGE_TYPES.map((value) => ({ value, label: COVERAGE_LABELS[value] }))}
                    />
                  </Form.Item>
                </Col>
                <Col span={4}>
                  <Form.Item name={[field.name, 'perPersonLimit']} label="每人限额" rules={[positiveYuan]}>
                    <Input suffix="元" />
                  </Form.Item>
                </Col>
                <Col span={4}>
                  <Form.Item
                    name={[field.name, 'perAccidentLimit']}
                    label="每次事故限额"
                    rules={[positiveYuan]}
                  >
                    <Input suffix="元" />
                  </Form.Item>
                </Col>
                <Col span={4}>
                  <Form.Item name={[field.name, 'aggregateLimit']} label="累计限额" rules={[positiveYuan]}>
                    <Input suffix="元" />
                  </Form.Item>
                </Col>
                <Col span={3}>
                  <Form.Item name={[field.name, 'deductible']} label="免赔额" rules={[yuanOrZero]}>
                    <Input suffix="元" />
                  </Form.Item>
                </Col>
                <Col span={2}>
                  <Form.Item name={[field.name, 'mandatory']} label="必选" valuePropName="checked">
                    <Switch size="small" />
                  </Form.Item>
                </Col>
                <Col span={1} style={{ paddingTop: 36 }}>
                  <MinusCircleOutlined aria-label="删除责任" onClick={() => remove(field.name)} />
                </Col>
              </Row>
            ))}
            <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ mandatory: false })}>
              添加责任
            </Button>
          </Card>
        )}
      </Form.List>
      <RequiredMaterialsField />
    </CrudModal>
  );
}
