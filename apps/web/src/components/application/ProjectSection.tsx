import type { CustomerRow } from '@piibs/shared/customer';
import type { AvailableProduct } from '@piibs/shared/product';
import { Col, Form, type FormInstance, Input, InputNumber, Row, Switch } from 'antd';
import { LiveQuote } from './LiveQuote.tsx';
import { PeriodFields } from './PeriodFields.tsx';
import type { WizardValues } from './values.ts';

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
        <Form.Item
          name="projectName"
          label="工程名称"
          rules={[{ required: true, whitespace: true, message: '请输入工程名称' }]}
        >
          <Input maxLength={200} placeholder="与施工合同一致" />
        </Form.Item>
        <Form.Item
          name="projectAddress"
          label="工程地址"
          rules={[{ required: true, whitespace: true, message: '请输入工程地址' }]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="projectCostYuan"
          label="工程造价"
          rules={[{ required: true, message: '请输入工程造价' }]}
          extra="按造价分档计费（‰），各档分段累进"
        >
          <InputNumber<string> stringMode min="0.01" precision={2} style={{ width: 260 }} suffix="元" />
        </Form.Item>
        <Form.Item
          name="contractor"
          label="施工单位"
          rules={[{ required: true, whitespace: true, message: '请输入施工单位' }]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="highRisk"
          label="高风险工程"
          valuePropName="checked"
          extra="深基坑、高大模板、起重吊装等危险性较大的分部分项工程"
        >
          <Switch checkedChildren="是" unCheckedChildren="否" />
        </Form.Item>
        <PeriodFields form={form} />
      </Col>
      <Col xs={24} lg={10}>
        <LiveQuote form={form} product={product} customer={customer} />
      </Col>
    </Row>
  );
}
