import type { CustomerRow } from '@piibs/shared/customer';
import type { AvailableProduct } from '@piibs/shared/product';
import { Col, Form, type FormInstance, Input, Row } from 'antd';
import { HighRiskField, ProjectFields } from '@/features/project/components/ProjectFields.tsx';
import type { WizardValues } from '../values.ts';
import { LiveQuote } from './LiveQuote.tsx';
import { PeriodFields } from './PeriodFields.tsx';

/** 项目信息 (epinsure): the construction project priced by its cost (‰ by cost band), high-risk loaded. */
export function ProjectSection({
  form,
  product,
  customer,
}: {
  form: FormInstance<WizardValues>;
  product: AvailableProduct | undefined;
  customer: CustomerRow | undefined;
}) {
  return (
    <Row gutter={24}>
      <Col xs={24} lg={14}>
        <ProjectFields minCostFen={product?.minProjectCostFen} />
        <Form.Item
          name="contractor"
          label="施工单位"
          rules={[{ required: true, whitespace: true, message: '请输入施工单位' }]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <HighRiskField label="高风险工程" extra="深基坑、高大模板、起重吊装等危险性较大的分部分项工程" />
        <PeriodFields form={form} />
      </Col>
      <Col xs={24} lg={10}>
        <LiveQuote form={form} product={product} customer={customer} />
      </Col>
    </Row>
  );
}
