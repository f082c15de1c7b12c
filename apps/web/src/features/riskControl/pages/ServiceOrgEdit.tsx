// 服务机构信息 (riskControl/ServiceOrgEdit, route serviceOrg/newUpdate/:id/:detail): an organisation's code
// (GB 32100), name, address, qualifications with validity, regions and industries served, contacts (phones
// masked as loaded; sending the mask back keeps the stored number; 查看完整号码 reads them, audited), enabled and
// note. `id` 0 creates one; `detail` 'true' is read-only. Saves with the loaded version: a 409 loads what the
// server holds now; a 400 naming a field is shown under it. An organisation's own account cannot change the
// code or the enabled flag (the server refuses; the fields are locked here).
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  contactForm,
  orgCodeField,
  type ServiceOrgCreateForm,
  type ServiceOrgRow,
} from '@piibs/shared/risk-control';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  DatePicker,
  Form,
  Input,
  Result,
  Row,
  Select,
  Space,
  Spin,
  Switch,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import {
  createOrg,
  EXPERT_PATH,
  orgEditPath,
  orgQuery,
  orgsResource,
  unmaskOrg,
  updateOrg,
} from '@/components/risk-control/api.ts';
import { dayOf, dayText, fieldRefusal, zodRule } from '@/components/risk-control/form.ts';
import { RISK_TEXTS as T } from '@/components/risk-control/texts.ts';
import { DictSelect, useDict } from '@/lib/dict.tsx';
import { Auth, useCanDo } from '@/lib/permission.tsx';

interface OrgValues {
  code: string;
  name: string;
  address?: string | null;
  qualifications: {
    name: string;
    certNo: string;
    level?: string | null;
    validFrom?: Dayjs;
    validTo?: Dayjs;
  }[];
  regions: string[];
  industries: string[];
  contacts: { name: string; phone: string; position?: string | null }[];
  enabled: boolean;
  note?: string | null;
}

/** The server's field titles → form fields (nested ones are shown above the form). */
const FIELD_TITLES: Readonly<Record<string, string>> = {
  统一社会信用代码: 'code',
  机构名称: 'name',
  地址: 'address',
  服务地区: 'regions',
  服务行业: 'industries',
  备注: 'note',
};

function valuesOf(o: ServiceOrgRow): OrgValues {
  return {
    code: o.code,
    name: o.name,
    address: o.address,
    qualifications: o.qualifications.map((q) => ({
      name: q.name,
      certNo: q.certNo,
      level: q.level,
      validFrom: dayOf(q.validFrom),
      validTo: dayOf(q.validTo),
    })),
    regions: o.regions,
    industries: o.industries,
    contacts: o.contacts.map((c) => ({ name: c.name, phone: c.phone, position: c.position })),
    enabled: o.enabled,
    note: o.note,
  };
}

const NEW_ORG: Partial<OrgValues> = {
  qualifications: [{ name: '', certNo: '' }],
  contacts: [{ name: '', phone: '' }],
  regions: [],
  industries: [],
  enabled: true,
};

const blank = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);

function toOrgBody(v: OrgValues): ServiceOrgCreateForm {
  return {
    code: v.code.trim().toUpperCase(),
    name: v.name.trim(),
    address: blank(v.address),
    qualifications: v.qualifications.map((q) => ({
      name: q.name.trim(),
      certNo: q.certNo.trim(),
      level: blank(q.level),
      validFrom: dayText(q.validFrom) ?? '',
      validTo: dayText(q.validTo) ?? '',
    })),
    regions: v.regions,
    industries: v.industries,
    contacts: v.contacts.map((c) => ({
      name: c.name.trim(),
      phone: c.phone.trim(),
      position: blank(c.position),
    })),
    enabled: v.enabled,
    note: blank(v.note),
  };
}

/** Zhenjiang's districts first, then Jiangsu's cities (GB/T 2260 codes). */
function useRegionOptions() {
  const zhenjiang = useDict('region_zhenjiang');
  const jiangsu = useDict('region_jiangsu');
  return useMemo(
    () =>
      [
        { label: '镇江市', options: zhenjiang },
        { label: '江苏省', options: jiangsu },
      ].filter((g) => g.options.length > 0),
    [zhenjiang, jiangsu],
  );
}

const required = (label: string) => ({ required: true, whitespace: true, message: T.required(label) });

export default function ServiceOrgEdit() {
  const params = useParams();
  const id = Number(params.id ?? 0) || 0;
  const readOnly = params.detail === 'true';
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<OrgValues>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const isStaff = useCanDo('service_org:add');
  const regions = useRegionOptions();
  const query = useQuery({ ...orgQuery(id), enabled: id > 0 });
  const org = query.data;

  useEffect(() => {
    if (org) form.setFieldsValue(valuesOf(org));
  }, [org, form]);

  const save = async (values: OrgValues) => {
    setError(null);
    setSaving(true);
    try {
      const body = toOrgBody(values);
      const saved = org
        ? await updateOrg({ ...body, id: org.id, version: org.version })
        : await createOrg(body);
      client.setQueryData(orgQuery(saved.id).queryKey, saved);
      await client.invalidateQueries({ queryKey: orgsResource.key, refetchType: 'none' });
      void message.success(T.saved);
      navigate(EXPERT_PATH);
    } catch (err) {
      const refusal = serverError(err);
      if (!refusal) return;
      if (refusal.status === 409 && org) {
        const fresh = await query.refetch();
        if (fresh.data) form.setFieldsValue(valuesOf(fresh.data));
        setError(`${refusal.message}（${T.conflictReloaded}）`);
        return;
      }
      const field = fieldRefusal(refusal.message, FIELD_TITLES);
      if (field) form.setFields([{ name: field.name as keyof OrgValues, errors: [field.error] }]);
      else setError(refusal.message);
    } finally {
      setSaving(false);
    }
  };

  const showPhones = async () => {
    if (!org) return;
    try {
      const { contacts } = await unmaskOrg(org.id);
      const current = form.getFieldValue('contacts') as OrgValues['contacts'];
      form.setFieldValue(
        'contacts',
        current.map((c, i) => ({ ...c, phone: contacts[i]?.phone ?? c.phone })),
      );
    } catch (err) {
      setError(serverError(err)?.message ?? null);
    }
  };

  if (id > 0 && query.isPending) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (id > 0 && !org) {
    const refusal = query.error ? serverError(query.error) : null;
    return (
      <Result
        status="404"
        title={refusal && refusal.status !== 404 ? refusal.message : T.orgNotFound}
        extra={<Button onClick={() => navigate(EXPERT_PATH)}>{T.back}</Button>}
      />
    );
  }

  const span = { xs: 24, md: 12 };
  return (
    <div style={{ padding: 16 }}>
      <Card variant="borderless" title={T.orgTitle(org?.name)}>
        {error ? (
          <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
        ) : null}
        <Form<OrgValues>
          form={form}
          name="service-org"
          layout="vertical"
          disabled={readOnly}
          initialValues={org ? valuesOf(org) : NEW_ORG}
          onFinish={save}
          onValuesChange={() => {
            if (error) setError(null);
          }}
        >
          <Row gutter={24}>
            <Col {...span}>
              <Form.Item name="code" label={T.orgCode} rules={[required(T.orgCode), zodRule(orgCodeField)]}>
                <Input maxLength={18} disabled={readOnly || (!!org && !isStaff)} />
              </Form.Item>
            </Col>
            <Col {...span}>
              <Form.Item
                name="name"
                label={T.orgName}
                rules={[required(T.orgName), { min: 2, message: '至少 2 个字符' }]}
              >
                <Input maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="address" label={T.address}>
                <Input maxLength={200} />
              </Form.Item>
            </Col>
            <Col {...span}>
              <Form.Item
                name="regions"
                label={T.regions}
                rules={[{ required: true, type: 'array', min: 1, message: '请至少选择一个服务地区' }]}
              >
                <Select mode="multiple" options={regions} optionFilterProp="label" aria-label={T.regions} />
              </Form.Item>
            </Col>
            <Col {...span}>
              <Form.Item
                name="industries"
                label={T.industries}
                rules={[{ required: true, type: 'array', min: 1, message: '请至少选择一个服务行业' }]}
              >
                <DictSelect
                  dict="industry_section"
                  mode="multiple"
                  optionFilterProp="label"
                  aria-label={T.industries}
                />
              </Form.Item>
            </Col>
          </Row>

          <Form.List name="qualifications">
            {(fields, { add, remove }) => (
              <Card size="small" title={T.qualifications} style={{ marginBottom: 16 }}>
                {fields.map(({ key, name }) => (
                  <Row gutter={12} key={key} align="top">
                    <Col xs={24} md={6}>
                      <Form.Item name={[name, 'name']} label={T.qualName} rules={[required(T.qualName)]}>
                        <Input maxLength={100} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={5}>
                      <Form.Item
                        name={[name, 'certNo']}
                        label={T.qualCertNo}
                        rules={[required(T.qualCertNo)]}
                      >
                        <Input maxLength={50} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={3}>
                      <Form.Item name={[name, 'level']} label={T.qualLevel}>
                        <Input maxLength={30} />
                      </Form.Item>
                    </Col>
                    <Col xs={12} md={4}>
                      <Form.Item
                        name={[name, 'validFrom']}
                        label={T.validFrom}
                        rules={[{ required: true, message: T.choose(T.validFrom) }]}
                      >
                        <DatePicker style={{ width: '100%' }} />
                      </Form.Item>
                    </Col>
                    <Col xs={12} md={4}>
                      <Form.Item
                        name={[name, 'validTo']}
                        label={T.validTo}
                        dependencies={[['qualifications', name, 'validFrom']]}
                        rules={[
                          { required: true, message: T.choose(T.validTo) },
                          ({ getFieldValue }) => ({
                            validator: async (_: unknown, v: Dayjs | undefined) => {
                              const from = getFieldValue(['qualifications', name, 'validFrom']) as
                                | Dayjs
                                | undefined;
                              if (v && from && v.isBefore(from, 'day')) throw new Error('不能早于有效期起');
                            },
                          }),
                        ]}
                      >
                        <DatePicker style={{ width: '100%' }} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={2} style={{ paddingTop: 30 }}>
                      {fields.length > 1 && !readOnly ? (
                        <MinusCircleOutlined aria-label="删除资质" onClick={() => remove(name)} />
                      ) : null}
                    </Col>
                  </Row>
                ))}
                {readOnly || fields.length >= 20 ? null : (
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', certNo: '' })}>
                    {T.addQualification}
                  </Button>
                )}
              </Card>
            )}
          </Form.List>

          <Form.List name="contacts">
            {(fields, { add, remove }) => (
              <Card
                size="small"
                title={T.contacts}
                style={{ marginBottom: 16 }}
                extra={
                  org ? (
                    <Auth permission="service_org:edit">
                      <Button size="small" type="link" disabled={false} onClick={() => void showPhones()}>
                        {T.unmask}
                      </Button>
                    </Auth>
                  ) : null
                }
              >
                {fields.map(({ key, name }) => (
                  <Row gutter={12} key={key} align="top">
                    <Col xs={24} md={7}>
                      <Form.Item
                        name={[name, 'name']}
                        label={T.contactName}
                        rules={[required(T.contactName)]}
                      >
                        <Input maxLength={30} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={8}>
                      <Form.Item
                        name={[name, 'phone']}
                        label={T.contactPhone}
                        rules={[required(T.contactPhone), zodRule(contactForm.shape.phone)]}
                      >
                        <Input maxLength={20} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={7}>
                      <Form.Item name={[name, 'position']} label={T.contactPosition}>
                        <Input maxLength={30} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} md={2} style={{ paddingTop: 30 }}>
                      {fields.length > 1 && !readOnly ? (
                        <MinusCircleOutlined aria-label="删除联系人" onClick={() => remove(name)} />
                      ) : null}
                    </Col>
                  </Row>
                ))}
                {readOnly || fields.length >= 5 ? null : (
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', phone: '' })}>
                    {T.addContact}
                  </Button>
                )}
              </Card>
            )}
          </Form.List>

          <Row gutter={24}>
            <Col {...span}>
              <Form.Item name="enabled" label={T.status} valuePropName="checked">
                <Switch
                  checkedChildren={T.enabled}
                  unCheckedChildren={T.disabled}
                  disabled={readOnly || (!!org && !isStaff)}
                />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="note" label={T.remark}>
                <Input.TextArea rows={2} maxLength={500} />
              </Form.Item>
            </Col>
          </Row>
        </Form>
        <Space>
          {readOnly ? (
            org ? (
              <Auth permission="service_org:edit">
                <Button type="primary" onClick={() => navigate(orgEditPath(org.id, false))}>
                  {T.edit}
                </Button>
              </Auth>
            ) : null
          ) : (
            <Auth permission={org ? 'service_org:edit' : 'service_org:add'}>
              <Button type="primary" loading={saving} onClick={() => form.submit()}>
                {T.save}
              </Button>
            </Auth>
          )}
          <Button onClick={() => navigate(-1)}>{T.back}</Button>
        </Space>
      </Card>
    </div>
  );
}
