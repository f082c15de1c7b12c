// The change (批改, type 2) of an approved project: the fields a change may change, each with the project's
// value before the change beside it, and the premium difference priced live on the active rate table (the
// server prices it again, authoritatively, at submit). The name and the start stay.

import { earliestStart } from '@piibs/shared/application-status';
import { fenToYuanText, formatFen } from '@piibs/shared/money';
import {
  CHANGE_FIELDS,
  type ChangeField,
  changeValueText,
  type DeclarationChangeForm,
  type ProjectValues,
  premiumDiffText,
} from '@piibs/shared/project-order';
import {
  Alert,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Row,
  Switch,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import { YuanInput } from '@/components/form/YuanInput.tsx';
import { yuanRule } from '@/components/form/zod-rule.ts';
import {
  type DeclarationValues,
  FORMAT,
  fenOf,
  fromPicker,
  toPicker,
  useLivePremium,
} from './DeclarationForm.tsx';

/** The request body of a change: what may change, money in fen. */
export function toChangeFields(v: DeclarationValues): DeclarationChangeForm {
  return {
    projectAddress: (v.projectAddress ?? '').trim(),
    projectCostFen: fenOf(v.projectCostYuan) ?? 0,
    endDate: v.endDate ?? '',
    highRisk: v.highRisk ?? false,
    headcount: v.headcount ?? null,
  };
}

/** The form's values for a project as it stands (a new change starts from them). */
export function changeValuesOf(
  p: { projectName: string } & Omit<ProjectValues, 'premiumFen'>,
): DeclarationValues {
  return {
    projectName: p.projectName,
    projectAddress: p.projectAddress,
    projectCostYuan: fenToYuanText(p.projectCostFen),
    startDate: p.startDate,
    endDate: p.endDate,
    highRisk: p.highRisk,
    headcount: p.headcount,
  };
}

const LABELS = Object.fromEntries(CHANGE_FIELDS) as Record<ChangeField, string>;

/** 批改前：… under a field, as the project stands. */
function Before({ field, base }: { field: ChangeField; base: ProjectValues }) {
  return (
    <Typography.Text type="secondary" data-testid={`before-${field}`}>
      批改前：{changeValueText(field, base)}
    </Typography.Text>
  );
}

/** The premium before and after the change and the difference; whether a surcharge fits the quota left. */
function ChangeQuote({
  form,
  productId,
  base,
  remainingFen,
  heldFen,
}: {
  form: FormInstance<DeclarationValues>;
  productId: number;
  base: ProjectValues;
  remainingFen: number;
  heldFen: number;
}) {
  const { quote, problem } = useLivePremium(form, productId);
  const after = quote?.premium.premiumFen ?? null;
  const diff = after == null ? null : after - base.premiumFen;
  const over = diff != null && Math.max(0, diff) - heldFen > remainingFen;
  return (
    <Card size="small" title="保费差额试算" aria-live="polite">
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label="批改前保费">{formatFen(base.premiumFen)}</Descriptions.Item>
        <Descriptions.Item label="批改后保费">
          <span data-testid="change-premium">{after == null ? '—' : formatFen(after)}</span>
        </Descriptions.Item>
        <Descriptions.Item label="保费差额">
          <Typography.Text strong data-testid="change-diff">
            {diff == null ? '—' : premiumDiffText(diff)}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      {problem ? <Alert type="info" showIcon style={{ marginTop: 12 }} title={problem} /> : null}
      {over ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          title={`加收保费超过年度订单剩余额度（${formatFen(remainingFen)}），提交审核时将被拒绝`}
        />
      ) : null}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        加收部分在提交审核时占用年度订单额度；退还部分在审核通过、出具批单后释放。
      </Typography.Paragraph>
    </Card>
  );
}

/** 批改信息: the project's name and start (fixed), the fields that may change, the premium difference. */
export function ChangeForm({
  form,
  initialValues,
  base,
  productId,
  remainingFen,
  heldFen = 0,
}: {
  form: FormInstance<DeclarationValues>;
  initialValues: DeclarationValues;
  /** The project as it stood when the change was made. */
  base: ProjectValues;
  productId: number;
  remainingFen: number;
  heldFen?: number;
}) {
  const earliest = earliestStart();
  const item = (field: ChangeField, control: ReactNode, extra: Record<string, unknown> = {}) => (
    <Form.Item
      name={field === 'projectCostFen' ? 'projectCostYuan' : field}
      label={LABELS[field]}
      extra={<Before field={field} base={base} />}
      {...extra}
    >
      {control}
    </Form.Item>
  );
  return (
    <Form<DeclarationValues> form={form} layout="vertical" name="change" initialValues={initialValues}>
      <Row gutter={24}>
        <Col xs={24} lg={14}>
          <Form.Item name="projectName" label="工程名称" extra="批改不能变更工程名称">
            <Input disabled />
          </Form.Item>
          <Form.Item name="startDate" label="开工日期" getValueProps={toPicker} normalize={fromPicker}>
            <DatePicker disabled />
          </Form.Item>
          {item('projectAddress', <Input maxLength={200} />, {
            rules: [{ required: true, whitespace: true, message: '请输入工程地址' }],
          })}
          {item('projectCostFen', <YuanInput width={260} />, {
            rules: [{ required: true, message: '请输入工程造价' }, yuanRule()],
          })}
          {item(
            'endDate',
            <DatePicker
              aria-label="竣工日期"
              disabledDate={(d) => {
                const day = d.format(FORMAT);
                return day !== base.endDate && (day < earliest || day <= base.startDate);
              }}
            />,
            {
              getValueProps: toPicker,
              normalize: fromPicker,
              rules: [{ required: true, message: '请选择竣工日期' }],
            },
          )}
          {item('highRisk', <Switch checkedChildren="是" unCheckedChildren="否" />, {
            valuePropName: 'checked',
          })}
          {item(
            'headcount',
            <InputNumber min={1} max={999_999} precision={0} style={{ width: 200 }} suffix="人" />,
          )}
        </Col>
        <Col xs={24} lg={10}>
          <ChangeQuote
            form={form}
            productId={productId}
            base={base}
            remainingFen={remainingFen}
            heldFen={heldFen}
          />
        </Col>
      </Row>
    </Form>
  );
}
