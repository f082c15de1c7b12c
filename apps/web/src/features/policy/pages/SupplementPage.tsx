// 补录资料详情 (policy/Marge, route marge/:id/:detail): the policy summary on top, then the sales information form
// — salesperson, agent, commission rate (typed as a percentage, sent as micro-percent, ≤ the product's cap),
// business source, and for the NBNMG variant (?variant=NBNMG, or the saved supplement's own variant) the
// migrant-worker fields. `detail` 'true' is read-only. Saves with the loaded version; a 409 loads what the server
// holds now; a 400 naming a field is shown under that field.
import { formatTime } from '@piibs/shared/constants';
import { formatFen, microPercentText, percentTextToMicro } from '@piibs/shared/money';
import { periodText } from '@piibs/shared/policy';
import {
  BUSINESS_SOURCE_DICT,
  BUSINESS_SOURCES,
  commissionCapProblem,
  type PolicySales,
  SUPPLEMENT_FIELD_TITLES,
  SUPPLEMENT_VARIANT_LABELS,
  type SupplementForm,
  type SupplementVariant,
} from '@piibs/shared/sales';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Radio,
  Result,
  Row,
  Select,
  Space,
  Spin,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { useDictState } from '@/lib/dict.tsx';
import { Can } from '@/lib/permission.tsx';
import {
  MARGE_LIST_PATH,
  MARGE_NBNMG_LIST_PATH,
  policySalesQuery,
  salesResource,
  saveSupplement,
} from '../api.ts';
import { ChangeHistory } from '../components/ChangeHistory.tsx';
import { PolicyStatusTag } from '../components/PolicySummary.tsx';
import { SALES_TEXTS as T } from '../texts.ts';

const F = SUPPLEMENT_FIELD_TITLES;

export interface SupplementValues {
  variant: SupplementVariant;
  salespersonName: string;
  salespersonNo: string;
  agentName?: string | null;
  agentLicenceNo?: string | null;
  /** Typed percentage ('3.5'); sent as micro-percent. */
  commissionRate: string;
  businessSource?: string;
  nbProjectName?: string | null;
  migrantWorkerCount?: number | null;
  wageBank?: string | null;
  wageAccountNo?: string | null;
  labourContractFilingNo?: string | null;
  supervisingAuthority?: string | null;
  remark?: string | null;
}

function valuesOf(data: PolicySales, variant: SupplementVariant): SupplementValues {
  const s = data.supplement;
  if (!s)
    return {
      variant,
      salespersonName: '',
      salespersonNo: '',
      agentName: data.defaults.agentName,
      commissionRate:
        data.defaults.commissionRate === null ? '' : microPercentText(data.defaults.commissionRate),
    };
  return {
    variant: s.variant,
    salespersonName: s.salespersonName,
    salespersonNo: s.salespersonNo,
    agentName: s.agentName,
    agentLicenceNo: s.agentLicenceNo,
    commissionRate: microPercentText(s.commissionRate),
    businessSource: s.businessSource,
    nbProjectName: s.nbProjectName,
    migrantWorkerCount: s.migrantWorkerCount,
    wageBank: s.wageBank,
    wageAccountNo: s.wageAccountNo,
    labourContractFilingNo: s.labourContractFilingNo,
    supervisingAuthority: s.supervisingAuthority,
    remark: s.remark,
  };
}

const blankToNull = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);

/** The request body: the percentage as micro-percent, blanks as null, the agent user kept while its name is. */
export function toSupplementBody(values: SupplementValues, data: PolicySales): SupplementForm {
  const base = data.supplement ?? data.defaults;
  const agentName = blankToNull(values.agentName);
  const nb = values.variant === 'NBNMG';
  return {
    version: data.supplement?.version ?? null,
    variant: values.variant,
    salespersonName: values.salespersonName.trim(),
    salespersonNo: values.salespersonNo.trim(),
    agentUserId: base.agentUserId && agentName === base.agentName ? base.agentUserId : null,
    agentName,
    agentLicenceNo: blankToNull(values.agentLicenceNo),
    commissionRate: percentTextToMicro(values.commissionRate) ?? Number.NaN,
    businessSource: values.businessSource ?? '',
    nbProjectName: nb ? blankToNull(values.nbProjectName) : null,
    migrantWorkerCount: nb ? (values.migrantWorkerCount ?? null) : null,
    wageBank: nb ? blankToNull(values.wageBank) : null,
    wageAccountNo: nb ? blankToNull(values.wageAccountNo) : null,
    labourContractFilingNo: nb ? blankToNull(values.labourContractFilingNo) : null,
    supervisingAuthority: nb ? blankToNull(values.supervisingAuthority) : null,
    remark: blankToNull(values.remark),
  };
}

function PolicyCard({ data }: { data: PolicySales }) {
  const p = data.policy;
  return (
    <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} bordered>
      <Descriptions.Item label={T.number}>
        <Typography.Text strong copyable data-testid="marge-policy-number">
          {p.number}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={T.policyStatus}>
        <PolicyStatusTag status={p.status} label={p.statusLabel} />
      </Descriptions.Item>
      <Descriptions.Item label={T.product}>{p.productName}</Descriptions.Item>
      <Descriptions.Item label={T.holder}>{p.holderName}</Descriptions.Item>
      <Descriptions.Item label={T.insured}>{p.insuredName}</Descriptions.Item>
      <Descriptions.Item label={T.premium}>{formatFen(p.premiumFen)}</Descriptions.Item>
      <Descriptions.Item label={T.period} span="filled">
        {periodText(p.startDate, p.endDate)}
      </Descriptions.Item>
    </Descriptions>
  );
}

function BusinessSourceSelect(props: { value?: string; onChange?: (v: string) => void; disabled?: boolean }) {
  const { options, loading } = useDictState(BUSINESS_SOURCE_DICT);
  // An installation seeded before the dictionary existed: the default list (the server accepts it then).
  const shown = options.length ? options : BUSINESS_SOURCES.map(([value, label]) => ({ value, label }));
  return (
    <Select<string>
      {...props}
      aria-label={F.businessSource}
      placeholder="请选择"
      loading={loading}
      options={shown}
      optionFilterProp="label"
    />
  );
}

export default function SupplementPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const policyId = Number(params.id ?? 0) || 0;
  const readOnly = params.detail === 'true';
  const queryVariant: SupplementVariant = search.get('variant') === 'NBNMG' ? 'NBNMG' : 'STANDARD';
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = useAppApis();
  const [form] = Form.useForm<SupplementValues>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const query = useQuery({ ...policySalesQuery(policyId), enabled: policyId > 0 });
  const data = query.data;
  const variant = Form.useWatch('variant', form) ?? data?.supplement?.variant ?? queryVariant;

  const initial = useMemo(() => (data ? valuesOf(data, queryVariant) : undefined), [data, queryVariant]);
  useEffect(() => {
    if (initial) form.setFieldsValue(initial);
  }, [initial, form]);

  const cap = data?.policy.commissionCap ?? 5_000_000;
  const capText = data?.policy.commissionCapText ?? '5';

  const save = async (values: SupplementValues) => {
    if (!data) return;
    setError(null);
    setSaving(true);
    try {
      const fresh = await saveSupplement(policyId, toSupplementBody(values, data));
      client.setQueryData(policySalesQuery(policyId).queryKey, fresh);
      await client.invalidateQueries({ queryKey: salesResource.key, refetchType: 'none' });
      void message.success(T.saved);
      navigate(values.variant === 'NBNMG' ? MARGE_NBNMG_LIST_PATH : MARGE_LIST_PATH);
    } catch (err) {
      const refusal = serverError(err);
      if (!refusal) return;
      if (refusal.status === 409) {
        const reloaded = await query.refetch();
        if (reloaded.data) form.setFieldsValue(valuesOf(reloaded.data, queryVariant));
        setError(`${refusal.message}（${T.conflictReloaded}）`);
        return;
      }
      // The agent is chosen by name: a refused agent account shows there.
      if (!applyServerErrors(form, err, { agentUserId: 'agentName' })) setError(refusal.message);
    } finally {
      setSaving(false);
    }
  };

  if (query.isPending && policyId > 0) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (!data) {
    const refusal = query.error ? serverError(query.error) : null;
    return (
      <Result
        status="warning"
        title={refusal && refusal.status !== 404 ? refusal.message : T.notFound}
        extra={<Button onClick={() => navigate(MARGE_LIST_PATH)}>{T.back}</Button>}
      />
    );
  }

  const s = data.supplement;
  const required = { required: true, whitespace: true };
  const nb = variant === 'NBNMG';

  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card
          variant="borderless"
          title={readOnly ? T.formTitleView(data.policy.number) : T.formTitle(data.policy.number)}
        >
          <PolicyCard data={data} />
        </Card>
        <Card variant="borderless" title={T.salesCard}>
          {readOnly && !s ? (
            <Alert type="info" showIcon title={T.notSupplemented} style={{ marginBottom: 16 }} />
          ) : null}
          {error ? (
            <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
          ) : null}
          <Form<SupplementValues>
            form={form}
            layout="vertical"
            name="supplement"
            disabled={readOnly}
            initialValues={initial}
            onFinish={save}
            onValuesChange={() => {
              if (error) setError(null);
            }}
          >
            <Form.Item name="variant" label="补录类型">
              <Radio.Group
                options={(['STANDARD', 'NBNMG'] as const).map((v) => ({
                  value: v,
                  label: SUPPLEMENT_VARIANT_LABELS[v],
                }))}
              />
            </Form.Item>
            <Row gutter={16}>
              <Col xs={24} md={12} xl={8}>
                <Form.Item name="salespersonName" label={F.salespersonName} rules={[required]}>
                  <Input maxLength={50} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12} xl={8}>
                <Form.Item
                  name="salespersonNo"
                  label={F.salespersonNo}
                  rules={[required, { pattern: /^[A-Za-z0-9\-_/]+$/, message: '只能包含字母、数字和 - _ /' }]}
                >
                  <Input maxLength={32} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12} xl={8}>
                <Form.Item name="businessSource" label={F.businessSource} rules={[{ required: true }]}>
                  <BusinessSourceSelect />
                </Form.Item>
              </Col>
              <Col xs={24} md={12} xl={8}>
                <Form.Item name="agentName" label={F.agentName}>
                  <Input maxLength={100} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12} xl={8}>
                <Form.Item name="agentLicenceNo" label={F.agentLicenceNo}>
                  <Input maxLength={50} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12} xl={8}>
                <Form.Item
                  name="commissionRate"
                  label={F.commissionRate}
                  extra={T.commissionCap(capText)}
                  rules={[
                    { required: true, whitespace: true },
                    {
                      validator: async (_, value: string | undefined) => {
                        if (!value?.trim()) return;
                        const micro = percentTextToMicro(value);
                        if (micro === null || micro > 5_000_000) throw new Error(T.percentInvalid);
                        if (micro > cap) throw new Error(commissionCapProblem(capText).message);
                      },
                    },
                  ]}
                >
                  <Input suffix="%" placeholder={T.percentHint} inputMode="decimal" />
                </Form.Item>
              </Col>
            </Row>
            {nb ? (
              <>
                <Typography.Title level={5}>{T.nbnmgCard}</Typography.Title>
                <Row gutter={16}>
                  <Col xs={24} md={12} xl={8}>
                    <Form.Item name="nbProjectName" label={F.nbProjectName} rules={[required]}>
                      <Input maxLength={200} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={12} xl={8}>
                    <Form.Item
                      name="migrantWorkerCount"
                      label={F.migrantWorkerCount}
                      rules={[{ required: true }]}
                    >
                      <InputNumber min={1} max={999999} precision={0} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={12} xl={8}>
                    <Form.Item name="supervisingAuthority" label={F.supervisingAuthority} rules={[required]}>
                      <Input maxLength={100} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={12} xl={8}>
                    <Form.Item name="wageBank" label={F.wageBank} rules={[required]}>
                      <Input maxLength={100} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={12} xl={8}>
                    <Form.Item
                      name="wageAccountNo"
                      label={F.wageAccountNo}
                      rules={[
                        required,
                        { pattern: /^[\d\s]{8,40}$/, message: '请输入 8–32 位数字的银行账号' },
                      ]}
                    >
                      <Input maxLength={40} inputMode="numeric" />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={12} xl={8}>
                    <Form.Item
                      name="labourContractFilingNo"
                      label={F.labourContractFilingNo}
                      rules={[required]}
                    >
                      <Input maxLength={50} />
                    </Form.Item>
                  </Col>
                </Row>
              </>
            ) : null}
            <Form.Item name="remark" label={F.remark}>
              <Input.TextArea maxLength={500} rows={2} />
            </Form.Item>
            {s ? (
              <Typography.Paragraph type="secondary">
                {T.updatedBy}：{s.updatedBy ?? T.none} {formatTime(s.updatedAt)}
              </Typography.Paragraph>
            ) : null}
          </Form>
          <Space>
            {readOnly ? null : (
              <Can code="sales:edit">
                <Button type="primary" loading={saving} onClick={() => form.submit()}>
                  {T.save}
                </Button>
              </Can>
            )}
            <Button onClick={() => navigate(-1)}>{T.back}</Button>
          </Space>
        </Card>
        {s ? (
          <Card variant="borderless" title={T.history}>
            <ChangeHistory rows={data.changes} />
          </Card>
        ) : null}
      </Space>
    </div>
  );
}
