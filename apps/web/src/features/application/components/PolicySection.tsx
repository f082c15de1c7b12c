import { ID_CARD_MESSAGE, isIdCardNumber } from '@piibs/shared/application';
import type { PolicyholderType } from '@piibs/shared/application-status';
import { rules } from '@piibs/shared/validators';
import { Col, Form, Input, Row } from 'antd';

/** The identity card rule of the shared schema, for antd (empty is the required rule's job). */
const idCardRule = {
  validator: (_: unknown, value: unknown) =>
    !value || isIdCardNumber(String(value)) ? Promise.resolve() : Promise.reject(new Error(ID_CARD_MESSAGE)),
};
const upper = (v: string | undefined) => v?.toUpperCase();

/**
 * 保单基本信息: the insured, the contacts and special terms. An individual policyholder (`:policyholderType`
 * 2) names a person with an identity card number and has no credit code.
 */
export function PolicySection({ policyholderType }: { policyholderType: PolicyholderType }) {
  const person = policyholderType === 2;
  return (
    <Row gutter={24}>
      <Col xs={24} md={12}>
        <Form.Item
          name="insuredName"
          label={person ? '被保险人姓名' : '被保险人名称'}
          rules={[
            {
              required: true,
              whitespace: true,
              message: person ? '请输入被保险人姓名' : '请输入被保险人名称',
            },
          ]}
        >
          <Input maxLength={200} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        {person ? (
          <Form.Item
            name="insuredIdNumber"
            label="被保险人身份证号"
            normalize={upper}
            rules={[{ required: true, whitespace: true, message: '请输入身份证号' }, idCardRule]}
          >
            <Input maxLength={18} autoComplete="off" />
          </Form.Item>
        ) : (
          <Form.Item
            name="insuredUscc"
            label="被保险人统一社会信用代码"
            normalize={upper}
            rules={[{ required: true, message: '请输入统一社会信用代码' }, rules.taxNumber]}
          >
            <Input maxLength={18} />
          </Form.Item>
        )}
      </Col>
      <Col xs={24}>
        <Form.Item name="insuredAddress" label="被保险人地址">
          <Input maxLength={200} />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item
          name="contactName"
          label="联系人"
          rules={[{ required: true, whitespace: true, message: '请输入联系人' }]}
        >
          <Input maxLength={50} />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item
          name="contactPhone"
          label="联系电话"
          rules={[{ required: true, message: '请输入联系电话' }, rules.phone]}
        >
          <Input maxLength={20} />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item name="contactEmail" label="电子邮箱" rules={[rules.email]}>
          <Input maxLength={100} />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item name="specialTerms" label="特别约定">
          <Input.TextArea rows={3} maxLength={2000} showCount />
        </Form.Item>
      </Col>
    </Row>
  );
}
