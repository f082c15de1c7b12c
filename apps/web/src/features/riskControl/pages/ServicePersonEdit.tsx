// 服务人员信息 (riskControl/ServicePersonEdit, route servicePerson/newUpdate/:id/:detail): a service person /
// expert — organisation, name, specialty, title, expert flag, qualification certificate with validity, phone
// (masked as loaded; the mask sent back keeps the stored number; 查看完整号码 reads it, audited), enabled, note.
// `id` 0 creates one (`?orgId=` preselects the organisation); `detail` 'true' is read-only. Saves with the loaded
// version: a 409 loads what the server holds now; a 400 naming a field is shown under it.
import { contactForm, type ServicePersonCreateForm, type ServicePersonRow } from '@piibs/shared/risk-control';
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
import { useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import {
  createPerson,
  EXPERT_PATH,
  orgOptionsQuery,
  personEditPath,
  personQuery,
  personsResource,
  unmaskPerson,
  updatePerson,
} from '@/components/risk-control/api.ts';
import { dayOf, dayText, fieldRefusal, zodRule } from '@/components/risk-control/form.ts';
import { RISK_TEXTS as T } from '@/components/risk-control/texts.ts';
import { Auth } from '@/lib/permission.tsx';

interface PersonValues {
  orgId?: number;
  name: string;
  specialty: string;
  title?: string | null;
  expert: boolean;
  certificateName: string;
  certificateNo: string;
  certificateValidFrom?: Dayjs;
  certificateValidTo?: Dayjs;
  phone: string;
  enabled: boolean;
  note?: string | null;
}

const FIELD_TITLES: Readonly<Record<string, string>> = {
  服务机构: 'orgId',
  姓名: 'name',
  专业领域: 'specialty',
  职称: 'title',
  资格证书名称: 'certificateName',
  资格证书编号: 'certificateNo',
  证书有效期起: 'certificateValidFrom',
  证书有效期止: 'certificateValidTo',
  手机号: 'phone',
  备注: 'note',
};

function valuesOf(p: ServicePersonRow): PersonValues {
  return {
    orgId: p.orgId,
    name: p.name,
    specialty: p.specialty,
    title: p.title,
    expert: p.expert,
    certificateName: p.certificateName,
    certificateNo: p.certificateNo,
    certificateValidFrom: dayOf(p.certificateValidFrom),
    certificateValidTo: dayOf(p.certificateValidTo),
    phone: p.phone,
    enabled: p.enabled,
    note: p.note,
  };
}

const blank = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);

function toBody(v: PersonValues): ServicePersonCreateForm {
  return {
    orgId: v.orgId ?? 0,
    name: v.name.trim(),
    specialty: v.specialty.trim(),
    title: blank(v.title),
    expert: v.expert,
    certificateName: v.certificateName.trim(),
    certificateNo: v.certificateNo.trim(),
    certificateValidFrom: dayText(v.certificateValidFrom) ?? '',
    certificateValidTo: dayText(v.certificateValidTo) ?? '',
    phone: v.phone.trim(),
    enabled: v.enabled,
    note: blank(v.note),
  };
}

const required = (label: string) => ({ required: true, whitespace: true, message: T.required(label) });

export default function ServicePersonEdit() {
  const params = useParams();
  const [search] = useSearchParams();
  const id = Number(params.id ?? 0) || 0;
  const readOnly = params.detail === 'true';
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<PersonValues>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const orgs = useQuery(orgOptionsQuery());
  const query = useQuery({ ...personQuery(id), enabled: id > 0 });
  const person = query.data;
  const presetOrg = Number(search.get('orgId')) || undefined;

  useEffect(() => {
    if (person) form.setFieldsValue(valuesOf(person));
  }, [person, form]);
  // An organisation's own account has one organisation: chosen for it.
  useEffect(() => {
    const only = orgs.data?.length === 1 ? orgs.data[0]!.id : undefined;
    if (!person && only && !form.getFieldValue('orgId')) form.setFieldValue('orgId', only);
  }, [orgs.data, person, form]);

  const save = async (values: PersonValues) => {
    setError(null);
    setSaving(true);
    try {
      const body = toBody(values);
      const saved = person
        ? await updatePerson({ ...body, id: person.id, version: person.version })
        : await createPerson(body);
      client.setQueryData(personQuery(saved.id).queryKey, saved);
      await client.invalidateQueries({ queryKey: personsResource.key, refetchType: 'none' });
      void message.success(T.saved);
      navigate(EXPERT_PATH);
    } catch (err) {
      const refusal = serverError(err);
      if (!refusal) return;
      if (refusal.status === 409 && person) {
        const fresh = await query.refetch();
        if (fresh.data) form.setFieldsValue(valuesOf(fresh.data));
        setError(`${refusal.message}（${T.conflictReloaded}）`);
        return;
      }
      const field = fieldRefusal(refusal.message, FIELD_TITLES);
      if (field) form.setFields([{ name: field.name as keyof PersonValues, errors: [field.error] }]);
      else setError(refusal.message);
    } finally {
      setSaving(false);
    }
  };

  const showPhone = async () => {
    if (!person) return;
    try {
      form.setFieldValue('phone', (await unmaskPerson(person.id)).phone);
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
  if (id > 0 && !person) {
    const refusal = query.error ? serverError(query.error) : null;
    return (
      <Result
        status="404"
        title={refusal && refusal.status !== 404 ? refusal.message : T.personNotFound}
        extra={<Button onClick={() => navigate(EXPERT_PATH)}>{T.back}</Button>}
      />
    );
  }

  const span = { xs: 24, md: 12 };
  return (
    <div style={{ padding: 16 }}>
      <Card variant="borderless" title={T.personTitle(person?.name)}>
        {error ? (
          <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
        ) : null}
        <Form<PersonValues>
          form={form}
          name="service-person"
          layout="vertical"
          disabled={readOnly}
          initialValues={person ? valuesOf(person) : { orgId: presetOrg, expert: false, enabled: true }}
          onFinish={save}
          onValuesChange={() => {
            if (error) setError(null);
          }}
        >
          <Row gutter={24}>
            <Col {...span}>
              <Form.Item name="orgId" label={T.org} rules={[{ required: true, message: T.choose(T.org) }]}>
                <Select
                  aria-label={T.org}
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={orgs.isPending}
                  options={(orgs.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
                />
              </Form.Item>
            </Col>
            <Col {...span}>
              <Form.Item name="name" label={T.personName} rules={[required(T.personName)]}>
                <Input maxLength={30} />
              </Form.Item>
            </Col>
            <Col {...span}>
              <Form.Item name="specialty" label={T.specialty} rules={[required(T.specialty)]}>
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col {...span}>
              <Form.Item name="title" label={T.title}>
                <Input maxLength={30} />
              </Form.Item>
            </Col>
            <Col {...span}>
              <Form.Item
                name="certificateName"
                label={T.certificateName}
                rules={[required(T.certificateName)]}
              >
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col {...span}>
              <Form.Item name="certificateNo" label={T.certificateNo} rules={[required(T.certificateNo)]}>
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col {...span}>
              <Form.Item
                name="certificateValidFrom"
                label={T.certificateFrom}
                rules={[{ required: true, message: T.choose(T.certificateFrom) }]}
              >
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col {...span}>
              <Form.Item
                name="certificateValidTo"
                label={T.certificateTo}
                dependencies={['certificateValidFrom']}
                rules={[
                  { required: true, message: T.choose(T.certificateTo) },
                  ({ getFieldValue }) => ({
                    validator: async (_: unknown, v: Dayjs | undefined) => {
                      const from = getFieldValue('certificateValidFrom') as Dayjs | undefined;
                      if (v && from && v.isBefore(from, 'day')) throw new Error('不能早于证书有效期起');
                    },
                  }),
                ]}
              >
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col {...span}>
              <Form.Item
                name="phone"
                label={T.phone}
                rules={[required(T.phone), zodRule(contactForm.shape.phone)]}
                extra={
                  person ? (
                    <Auth permission="service_person:edit">
                      <Button size="small" type="link" disabled={false} onClick={() => void showPhone()}>
                        {T.unmask}
                      </Button>
                    </Auth>
                  ) : null
                }
              >
                <Input maxLength={20} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="expert" label={T.expert} valuePropName="checked">
                <Switch checkedChildren={T.yes} unCheckedChildren={T.no} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="enabled" label={T.status} valuePropName="checked">
                <Switch checkedChildren={T.enabled} unCheckedChildren={T.disabled} />
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
            person ? (
              <Auth permission="service_person:edit">
                <Button type="primary" onClick={() => navigate(personEditPath(person.id, false))}>
                  {T.edit}
                </Button>
              </Auth>
            ) : null
          ) : (
            <Auth permission={person ? 'service_person:edit' : 'service_person:add'}>
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
