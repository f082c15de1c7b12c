import { defaultEnd, earliestStart, periodProblem } from '@piibs/shared/application-status';
import { DatePicker, Form, type FormInstance, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { WizardValues } from '../values.ts';

const FORMAT = 'YYYY-MM-DD';
const toPicker = (value: unknown) => ({ value: typeof value === 'string' && value ? dayjs(value) : null });
const fromPicker = (value: Dayjs | null) => (value ? value.format(FORMAT) : undefined);

/**
 * 保险期间: from 00:00 of the start day to 24:00 of the end day (Asia/Shanghai), never back-dated, at most a
 * year; picking a start proposes start + 1 year − 1 day as the end. The rule is the server's (periodProblem).
 */
export function PeriodFields({ form }: { form: FormInstance<WizardValues> }) {
  const earliest = earliestStart();
  return (
    <Form.Item label="保险期间" required extra="自起期当日零时起至止期当日二十四时止">
      <Space wrap>
        <Form.Item
          name="startDate"
          noStyle
          getValueProps={toPicker}
          normalize={fromPicker}
          rules={[
            { required: true, message: '请选择保险起期' },
            {
              validator: async (_rule, value: string | undefined) => {
                if (!value) return;
                const problem = periodProblem(value, defaultEnd(value));
                if (problem?.field === 'startDate') throw new Error(problem.message);
              },
            },
          ]}
        >
          <DatePicker
            aria-label="保险起期"
            placeholder="保险起期"
            disabledDate={(d) => d.format(FORMAT) < earliest}
            onChange={(d: Dayjs | null) => {
              if (d) form.setFieldValue('endDate', defaultEnd(d.format(FORMAT)));
            }}
          />
        </Form.Item>
        <span>至</span>
        <Form.Item
          name="endDate"
          noStyle
          dependencies={['startDate']}
          getValueProps={toPicker}
          normalize={fromPicker}
          rules={[
            { required: true, message: '请选择保险止期' },
            ({ getFieldValue }) => ({
              validator: async (_rule, value: string | undefined) => {
                const start = getFieldValue('startDate') as string | undefined;
                if (!value || !start) return;
                const problem = periodProblem(start, value);
                if (problem?.field === 'endDate') throw new Error(problem.message);
              },
            }),
          ]}
        >
          <DatePicker aria-label="保险止期" placeholder="保险止期" />
        </Form.Item>
      </Space>
    </Form.Item>
  );
}
