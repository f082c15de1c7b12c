// 服务人员信息 (riskControl/ServicePersonEdit, route servicePerson/newUpdate/:id/:detail): a service person /
// expert — organisation, name, specialty, title, expert flag, qualification certificate with validity, phone
// (masked as loaded; the mask sent back keeps the stored number; 查看完整号码 reads it, audited), enabled, note.
// `id` 0 creates one (`?orgId=` preselects the organisation); `detail` 'true' is read-only. Saves with the loaded
// version: a 409 loads what the server holds now; a 400 naming a field is shown under it.
import type { ServicePersonCreateForm, ServicePersonRow } from '@piibs/shared/risk-control';
import { useQuery } from '@tanstack/react-query';
import { Col, Form, Input, Row, Select, Switch } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { EnabledItem, NoteItem, PhoneItem } from '@/components/form/enterprise-fields.tsx';
import {
  createPerson,
  EXPERT_PATH,
  orgOptionsQuery,
  personEditPath,
  personQuery,
  personsResource,
  unmaskPerson,
  updatePerson,
} from '../api.ts';
import {
  blankToNull,
  RecordFormPage,
  requiredText,
  UnmaskButton,
  useRecordForm,
  ValidityItems,
} from '../components/RecordForm.tsx';
import { dayOf, dayText } from '../form.ts';
import { RISK_TEXTS as T } from '../texts.ts';

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

function toBody(v: PersonValues): ServicePersonCreateForm {
  return {
    orgId: v.orgId ?? 0,
    name: v.name.trim(),
    specialty: v.specialty.trim(),
    title: blankToNull(v.title),
    expert: v.expert,
    certificateName: v.certificateName.trim(),
    certificateNo: v.certificateNo.trim(),
    certificateValidFrom: dayText(v.certificateValidFrom) ?? '',
    certificateValidTo: dayText(v.certificateValidTo) ?? '',
    phone: v.phone.trim(),
    enabled: v.enabled,
    note: blankToNull(v.note),
  };
}

export default function ServicePersonEdit() {
  const [search] = useSearchParams();
  const orgs = useQuery(orgOptionsQuery());
  const page = useRecordForm({
    detail: personQuery,
    listKey: personsResource.key,
    valuesOf,
    toBody,
    create: createPerson,
    update: updatePerson,
    donePath: EXPERT_PATH,
    notFound: T.personNotFound,
  });
  const { form, record: person } = page;
  const presetOrg = Number(search.get('orgId')) || undefined;

  // An organisation's own account has one organisation: chosen for it.
  useEffect(() => {
    const only = orgs.data?.length === 1 ? orgs.data[0]!.id : undefined;
    if (!person && only && !form.getFieldValue('orgId')) form.setFieldValue('orgId', only);
  }, [orgs.data, person, form]);

  const showPhone = () =>
    page.run(async () => {
      if (person) form.setFieldValue('phone', (await unmaskPerson(person.id)).phone);
    });

  const span = { xs: 24, md: 12 };
  return (
    <RecordFormPage
      page={page}
      title={T.personTitle(person?.name)}
      permission={{ add: 'service_person:add', edit: 'service_person:edit' }}
      editPath={(id) => personEditPath(id, false)}
    >
      <Form<PersonValues>
        {...page.formProps}
        name="service-person"
        initialValues={person ? valuesOf(person) : { orgId: presetOrg, expert: false, enabled: true }}
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
            <Form.Item name="name" label={T.personName} rules={[requiredText(T.personName)]}>
              <Input maxLength={30} />
            </Form.Item>
          </Col>
          <Col {...span}>
            <Form.Item name="specialty" label={T.specialty} rules={[requiredText(T.specialty)]}>
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
              rules={[requiredText(T.certificateName)]}
            >
              <Input maxLength={50} />
            </Form.Item>
          </Col>
          <Col {...span}>
            <Form.Item name="certificateNo" label={T.certificateNo} rules={[requiredText(T.certificateNo)]}>
              <Input maxLength={50} />
            </Form.Item>
          </Col>
          <ValidityItems
            from="certificateValidFrom"
            to="certificateValidTo"
            fromLabel={T.certificateFrom}
            toLabel={T.certificateTo}
            col={span}
          />
          <Col {...span}>
            <PhoneItem
              name="phone"
              label={T.phone}
              required={T.required(T.phone)}
              extra={
                person ? (
                  <UnmaskButton permission="service_person:edit" onClick={() => void showPhone()} />
                ) : null
              }
            />
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="expert" label={T.expert} valuePropName="checked">
              <Switch checkedChildren={T.yes} unCheckedChildren={T.no} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <EnabledItem label={T.status} on={T.enabled} off={T.disabled} />
          </Col>
          <Col xs={24}>
            <NoteItem label={T.remark} />
          </Col>
        </Row>
      </Form>
    </RecordFormPage>
  );
}
