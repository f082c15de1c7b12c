import type { CustomerRow } from '@piibs/shared/customer';
import { sectionOfDivision } from '@piibs/shared/industry';
import { rules } from '@piibs/shared/validators';
import { Col, Form, type FormInstance, Input, Row, Select } from 'antd';
import { useMemo } from 'react';
import {
  AddressItem,
  EnterpriseCodeItem,
  EnterpriseNameItem,
  PhoneItem,
  useEnterpriseRegionOptions,
} from '@/components/form/enterprise-fields.tsx';
import { DictSelect, useDict } from '@/lib/dict.tsx';
import { useCan } from '@/lib/permission.tsx';
import { APPLICANT_TEXTS as T } from '../texts.ts';
import { CertificateField } from './CertificateField.tsx';
import { UnmaskButton } from './UnmaskPhone.tsx';

/** The form's values: text fields as typed (headcount too, until saved). */
export interface CustomerValues {
  uscc: string;
  name: string;
  industrySection: string;
  industryDivision: string;
  region: string;
  address: string;
  legalRepresentative: string;
  contactName: string;
  phone: string;
  headcount: string;
  licenceNo?: string | null;
  caFingerprint?: string | null;
}

export function customerValues(row: CustomerRow): CustomerValues {
  return {
    uscc: row.uscc,
    name: row.name,
    industrySection: row.industrySection,
    industryDivision: row.industryDivision,
    region: row.region,
    address: row.address,
    legalRepresentative: row.legalRepresentative,
    contactName: row.contactName,
    phone: row.phone,
    headcount: String(row.headcount),
    licenceNo: row.licenceNo,
    caFingerprint: row.caFingerprint,
  };
}

const EMPTY = '不能为空';
const required = { required: true, message: EMPTY };

/**
 * The customer's fields, with the shared rules. `maskedPhone` is the phone as loaded (138****5678): sending it
 * back keeps the stored number, so it passes.
 */
export function CustomerFields({
  form,
  readOnly,
  maskedPhone,
  customerId,
  usccLocked = false,
}: {
  form: FormInstance<CustomerValues>;
  readOnly: boolean;
  maskedPhone?: string | undefined;
  /** The record shown: while its phone is the masked one, 查看完整号码 (customer:unmask) fills in the number. */
  customerId?: number | undefined;
  /** The code cannot be changed (an enterprise keeps the record of its own code). */
  usccLocked?: boolean;
}) {
  const section = Form.useWatch('industrySection', form);
  const phone = Form.useWatch('phone', form);
  const mayUnmask = useCan('customer:unmask');
  const canUnmask =
    mayUnmask && customerId !== undefined && !!maskedPhone?.includes('*') && phone === maskedPhone;
  const divisions = useDict('industry_division');
  const divisionOptions = useMemo(
    () => (section ? divisions.filter((d) => sectionOfDivision(d.value) === section) : []),
    [divisions, section],
  );
  const regions = useEnterpriseRegionOptions();
  const span = { xs: 24, md: 12 };

  return (
    <Row gutter={24}>
      <Col {...span}>
        <EnterpriseCodeItem
          name="uscc"
          label={T.uscc}
          required={EMPTY}
          readOnly={readOnly || usccLocked}
          legacyTaxNumbers
        />
      </Col>
      <Col {...span}>
        <EnterpriseNameItem label={T.name} required={EMPTY} readOnly={readOnly} />
      </Col>
      <Col {...span}>
        <Form.Item
          name="industrySection"
          label={T.industrySection}
          rules={[{ required: true, message: '请选择行业门类' }]}
        >
          <DictSelect
            dict="industry_section"
            showSearch={{ optionFilterProp: 'label' }}
            disabled={readOnly}
            onChange={() => form.setFieldValue('industryDivision', undefined)}
          />
        </Form.Item>
      </Col>
      <Col {...span}>
        <Form.Item
          name="industryDivision"
          label={T.industryDivision}
          rules={[{ required: true, message: '请选择行业大类' }]}
        >
          <Select
            options={divisionOptions}
            showSearch={{ optionFilterProp: 'label' }}
            allowClear
            disabled={readOnly}
            placeholder={section ? '请选择' : T.divisionFirst}
          />
        </Form.Item>
      </Col>
      <Col {...span}>
        <Form.Item name="region" label={T.region} rules={[{ required: true, message: '请选择地区' }]}>
          <Select
            options={regions}
            showSearch={{ optionFilterProp: 'label' }}
            allowClear
            disabled={readOnly}
            placeholder="请选择"
          />
        </Form.Item>
      </Col>
      <Col {...span}>
        <AddressItem label={T.address} required={EMPTY} readOnly={readOnly} />
      </Col>
      <Col {...span}>
        <Form.Item name="legalRepresentative" label={T.legalRepresentative} rules={[required]}>
          <Input maxLength={30} readOnly={readOnly} />
        </Form.Item>
      </Col>
      <Col {...span}>
        <Form.Item name="contactName" label={T.contactName} rules={[required]}>
          <Input maxLength={30} readOnly={readOnly} />
        </Form.Item>
      </Col>
      <Col {...span}>
        <PhoneItem
          name="phone"
          label={T.phone}
          required={EMPTY}
          readOnly={readOnly}
          kept={maskedPhone ?? ''}
          extra={
            canUnmask ? (
              <UnmaskButton
                customerId={customerId}
                onRevealed={(full) => form.setFieldValue('phone', full)}
              />
            ) : undefined
          }
        />
      </Col>
      <Col {...span}>
        <Form.Item name="headcount" label={T.headcount} rules={[required, rules.headcount]}>
          <Input maxLength={6} readOnly={readOnly} />
        </Form.Item>
      </Col>
      <Col {...span}>
        <Form.Item name="licenceNo" label={T.licenceNo}>
          <Input maxLength={50} readOnly={readOnly} />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <CertificateField readOnly={readOnly} />
      </Col>
    </Row>
  );
}
