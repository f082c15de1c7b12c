// 服务机构信息 (riskControl/ServiceOrgEdit, route serviceOrg/newUpdate/:id/:detail): an organisation's code
// (GB 32100), name, address, qualifications with validity, regions and industries served, contacts (phones
// masked as loaded; sending the mask back keeps the stored number; 查看完整号码 reads them, audited), enabled and
// note. `id` 0 creates one; `detail` 'true' is read-only. Saves with the loaded version: a 409 loads what the
// server holds now; a 400 naming a field is shown under it. An organisation's own account cannot change the
// code or the enabled flag (the server refuses; the fields are locked here). Insurer staff see the 机构账号
// card below (OrgMembersCard): the accounts acting for the organisation, linked on the edit page.
import type { ServiceOrgCreateForm, ServiceOrgRow } from '@piibs/shared/risk-control';
import { Col, Form, Input, Row, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import {
  AddressItem,
  EnabledItem,
  EnterpriseCodeItem,
  EnterpriseNameItem,
  NoteItem,
  PhoneItem,
  useEnterpriseRegionOptions,
} from '@/components/form/enterprise-fields.tsx';
import { DictSelect } from '@/lib/dict.tsx';
import { useCan } from '@/lib/permission.tsx';
import { createOrg, EXPERT_PATH, orgEditPath, orgQuery, orgsResource, unmaskOrg, updateOrg } from '../api.ts';
import { OrgMembersCard } from '../components/OrgMembersCard.tsx';
import {
  blankToNull,
  FormListCard,
  RecordFormPage,
  requiredText,
  UnmaskButton,
  useRecordForm,
  ValidityItems,
} from '../components/RecordForm.tsx';
import { dayOf, dayText } from '../form.ts';
import { RISK_TEXTS as T } from '../texts.ts';

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

function toOrgBody(v: OrgValues): ServiceOrgCreateForm {
  return {
    code: v.code.trim().toUpperCase(),
    name: v.name.trim(),
    address: blankToNull(v.address),
    qualifications: v.qualifications.map((q) => ({
      name: q.name.trim(),
      certNo: q.certNo.trim(),
      level: blankToNull(q.level),
      validFrom: dayText(q.validFrom) ?? '',
      validTo: dayText(q.validTo) ?? '',
    })),
    regions: v.regions,
    industries: v.industries,
    contacts: v.contacts.map((c) => ({
      name: c.name.trim(),
      phone: c.phone.trim(),
      position: blankToNull(c.position),
    })),
    enabled: v.enabled,
    note: blankToNull(v.note),
  };
}

export default function ServiceOrgEdit() {
  const isStaff = useCan('service_org:add');
  const canEdit = useCan('service_org:edit');
  const regions = useEnterpriseRegionOptions();
  const page = useRecordForm({
    detail: orgQuery,
    listKey: orgsResource.key,
    valuesOf,
    toBody: toOrgBody,
    create: createOrg,
    update: updateOrg,
    donePath: EXPERT_PATH,
    notFound: T.orgNotFound,
  });
  const { form, record: org, readOnly } = page;

  const showPhones = () =>
    page.run(async () => {
      if (!org) return;
      const { contacts } = await unmaskOrg(org.id);
      const current = form.getFieldValue('contacts') as OrgValues['contacts'];
      form.setFieldValue(
        'contacts',
        current.map((c, i) => ({ ...c, phone: contacts[i]?.phone ?? c.phone })),
      );
    });

  // An organisation's own account cannot change its code or whether it is enabled.
  const locked = readOnly || (!!org && !isStaff);
  const span = { xs: 24, md: 12 };
  return (
    <RecordFormPage
      page={page}
      title={T.orgTitle(org?.name)}
      permission={{ add: 'service_org:add', edit: 'service_org:edit' }}
      editPath={(id) => orgEditPath(id, false)}
      after={org && isStaff ? <OrgMembersCard orgId={org.id} editable={!readOnly && canEdit} /> : null}
    >
      <Form<OrgValues> {...page.formProps} name="service-org" initialValues={org ? valuesOf(org) : NEW_ORG}>
        <Row gutter={24}>
          <Col {...span}>
            <EnterpriseCodeItem
              name="code"
              label={T.orgCode}
              required={T.required(T.orgCode)}
              disabled={locked}
            />
          </Col>
          <Col {...span}>
            <EnterpriseNameItem label={T.orgName} required={T.required(T.orgName)} />
          </Col>
          <Col xs={24}>
            <AddressItem label={T.address} />
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

        <FormListCard
          name="qualifications"
          title={T.qualifications}
          max={20}
          blank={{ name: '', certNo: '' }}
          addLabel={T.addQualification}
          removeLabel="删除资质"
          readOnly={readOnly}
          row={(name) => (
            <>
              <Col xs={24} md={6}>
                <Form.Item name={[name, 'name']} label={T.qualName} rules={[requiredText(T.qualName)]}>
                  <Input maxLength={100} />
                </Form.Item>
              </Col>
              <Col xs={24} md={5}>
                <Form.Item name={[name, 'certNo']} label={T.qualCertNo} rules={[requiredText(T.qualCertNo)]}>
                  <Input maxLength={50} />
                </Form.Item>
              </Col>
              <Col xs={24} md={3}>
                <Form.Item name={[name, 'level']} label={T.qualLevel}>
                  <Input maxLength={30} />
                </Form.Item>
              </Col>
              <ValidityItems
                from={[name, 'validFrom']}
                to={[name, 'validTo']}
                fromPath={['qualifications', name, 'validFrom']}
                fromLabel={T.validFrom}
                toLabel={T.validTo}
                col={{ xs: 12, md: 4 }}
              />
            </>
          )}
        />

        <FormListCard
          name="contacts"
          title={T.contacts}
          extra={
            org ? <UnmaskButton permission="service_org:edit" onClick={() => void showPhones()} /> : null
          }
          max={5}
          blank={{ name: '', phone: '' }}
          addLabel={T.addContact}
          removeLabel="删除联系人"
          readOnly={readOnly}
          row={(name) => (
            <>
              <Col xs={24} md={7}>
                <Form.Item name={[name, 'name']} label={T.contactName} rules={[requiredText(T.contactName)]}>
                  <Input maxLength={30} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <PhoneItem
                  name={[name, 'phone']}
                  label={T.contactPhone}
                  required={T.required(T.contactPhone)}
                />
              </Col>
              <Col xs={24} md={7}>
                <Form.Item name={[name, 'position']} label={T.contactPosition}>
                  <Input maxLength={30} />
                </Form.Item>
              </Col>
            </>
          )}
        />

        <Row gutter={24}>
          <Col {...span}>
            <EnabledItem label={T.status} on={T.enabled} off={T.disabled} disabled={locked} />
          </Col>
          <Col xs={24}>
            <NoteItem label={T.remark} />
          </Col>
        </Row>
      </Form>
    </RecordFormPage>
  );
}
