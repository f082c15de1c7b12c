// The construction project's fields, shared by the project-insurance wizard (application/ProjectSection) and a
// secondary order's declaration (DeclarationForm): the same names in both forms, the cost typed in yuan.

import { amountShortText } from '@piibs/shared/money';
import { fenField } from '@piibs/shared/money-field';
import { Form, Input, Switch } from 'antd';
import { useMemo } from 'react';
import { YuanInput } from '@/components/form/YuanInput.tsx';
import { yuanRule } from '@/components/form/zod-rule.ts';

/**
 * 工程名称, 工程地址, 工程造价 (yuan, two decimals): inside a Form whose values use these names. With the
 * product's minimum project cost, a lower cost is refused at the field with the server's words.
 */
export function ProjectFields({ minCostFen }: { minCostFen?: number | null | undefined }) {
  const costRule = useMemo(
    () =>
      yuanRule(
        minCostFen
          ? fenField('工程造价').min(minCostFen, {
              error: `不能低于本险种最低工程造价 ${amountShortText(minCostFen)}`,
            })
          : undefined,
      ),
    [minCostFen],
  );
  return (
    <>
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
        rules={[{ required: true, message: '请输入工程造价' }, costRule]}
        extra={`按造价分档计费（‰），各档分段累进${minCostFen ? `；本险种最低工程造价 ${amountShortText(minCostFen)}` : ''}`}
      >
        <YuanInput width={260} />
      </Form.Item>
    </>
  );
}

/** The high-risk (危大) switch that loads the premium; each form words its label and hint. */
export function HighRiskField({ label, extra }: { label: string; extra: string }) {
  return (
    <Form.Item name="highRisk" label={label} valuePropName="checked" extra={extra}>
      <Switch checkedChildren="是" unCheckedChildren="否" />
    </Form.Item>
  );
}
