import { yuanTextToFen } from '@piibs/shared/money';
import { rateRowForm } from '@piibs/shared/product';
import { contactForm } from '@piibs/shared/risk-control';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Form, type FormInstance, Input } from 'antd';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp, request, resetHttp } from '@/lib/http.ts';
import type { HttpUi } from '@/lib/http-ui.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { applyServerErrors, type FieldNames } from './server-errors.ts';
import { zodRule } from './zod-rule.ts';

let api: MockApi;
let ui: { confirm: ReturnType<typeof vi.fn>; error: ReturnType<typeof vi.fn> };

beforeEach(() => {
  ui = { confirm: vi.fn(), error: vi.fn() };
  configureHttp({ ui: ui as unknown as HttpUi });
});
afterEach(() => {
  api?.restore();
  resetHttp();
});

type Values = {
  name: string;
  insured: { contactPhone: string };
  contacts: { phone: string }[];
  costYuan: string;
};

/** A real antd form saving through the shared client; a refusal goes on its fields, else into a notice line. */
function OrgForm({ names }: { names?: FieldNames }) {
  const [form] = Form.useForm<Values>();
  const [notice, setNotice] = useState<string | null>(null);
  const save = async (values: Values) => {
    setNotice(null);
    try {
      await request({ url: 'api/orgs', method: 'post', data: values, inlineErrors: true });
    } catch (err) {
      if (!applyServerErrors(form as FormInstance, err, names)) setNotice('refused');
    }
  };
  return (
    <Form<Values>
      form={form}
      onFinish={save}
      initialValues={{
        name: '甲',
        insured: { contactPhone: '' },
        contacts: [{ phone: '1' }, { phone: '2' }],
      }}
    >
      <Form.Item name="name" label="名称">
        <Input />
      </Form.Item>
      <Form.Item name={['insured', 'contactPhone']} label="联系电话">
        <Input />
      </Form.Item>
      <Form.List name="contacts">
        {(fields) =>
          fields.map((f) => (
            <Form.Item key={f.key} name={[f.name, 'phone']} label={`联系人电话${f.name + 1}`}>
              <Input />
            </Form.Item>
          ))
        }
      </Form.List>
      <Form.Item name="costYuan" label="工程造价">
        <Input />
      </Form.Item>
      {notice ? <div role="alert">{notice}</div> : null}
      <Button htmlType="submit">保存</Button>
    </Form>
  );
}

const refuse = (errors: unknown, message = '联系电话：请输入正确的11位手机号码') => ({
  status: 400,
  data: { status: 400, message, errors },
});

/** The error text antd shows under the field labelled `label`. */
const errorUnder = (label: string) =>
  screen.getByLabelText(label).closest('.ant-form-item')?.querySelector('.ant-form-item-explain-error')
    ?.textContent;

describe('applyServerErrors', () => {
  it('puts each refused field’s message under that field, nested and list fields too, and nothing else', async () => {
    api = mockApi({
      'POST api/orgs': refuse([
        { field: 'insured.contactPhone', message: '请输入正确的11位手机号码' },
        { field: 'contacts.1.phone', message: '请输入完整的电话号码' },
        { field: 'unknownField', message: '不该出现' },
        // The list itself shows no message: not taken.
        { field: 'contacts', message: '列表不该出现' },
      ]),
    });
    render(<OrgForm />);
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));

    // Each field shows its errors on a timer of its own (antd's ErrorList): wait for both.
    await waitFor(() => {
      expect(errorUnder('联系电话')).toBe('请输入正确的11位手机号码');
      expect(errorUnder('联系人电话2')).toBe('请输入完整的电话号码');
    });
    expect(errorUnder('联系人电话1')).toBeUndefined();
    expect(errorUnder('名称')).toBeUndefined();
    expect(screen.queryByText('不该出现')).not.toBeInTheDocument();
    expect(screen.queryByText('列表不该出现')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // The form shows the refusal: the client's notice stays quiet.
    expect(ui.error).not.toHaveBeenCalled();
  });

  it('puts an entry of a list the form edits as one field on that field', async () => {
    api = mockApi({ 'POST api/orgs': refuse([{ field: 'name.0', message: '不能为空' }], '名称：不能为空') });
    render(<OrgForm />);
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(errorUnder('名称')).toBe('不能为空'));
  });

  it('maps a request field the form names differently', async () => {
    api = mockApi({
      'POST api/orgs': refuse([{ field: 'projectCostFen', message: '须大于 0' }], '工程造价：须大于 0'),
    });
    render(<OrgForm names={{ projectCostFen: 'costYuan' }} />);
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(errorUnder('工程造价')).toBe('须大于 0'));
  });

  it('does not take a message for a list (it has no place to show it)', async () => {
    api = mockApi({ 'POST api/orgs': refuse([{ field: 'contacts.1', message: '重复' }], '联系人：重复') });
    render(<OrgForm />);
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('refused');
  });

  it('returns false when no field of the form is named, so the caller shows the message', async () => {
    api = mockApi({
      'POST api/orgs': { status: 409, data: { status: 409, message: '数据已被他人修改，请刷新后重试' } },
    });
    render(<OrgForm />);
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('refused');
  });
});

describe('zodRule', () => {
  function RuleForm() {
    return (
      <Form>
        <Form.Item name="phone" label="电话" rules={[zodRule(contactForm.shape.phone)]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="limit"
          label="限额档次"
          rules={[
            zodRule(rateRowForm.shape.limitTierFen, { read: yuanTextToFen, malformed: '请输入金额（元）' }),
          ]}
        >
          <Input />
        </Form.Item>
      </Form>
    );
  }

  it('checks a field with the shared schema and shows its message; empty is left to `required`', async () => {
    render(<RuleForm />);
    const phone = screen.getByLabelText('电话');
    fireEvent.change(phone, { target: { value: '12' } });
    await waitFor(() => expect(errorUnder('电话')).toBe('请输入正确的电话号码或者固话号码'));
    fireEvent.change(phone, { target: { value: '' } });
    await waitFor(() => expect(errorUnder('电话')).toBeUndefined());
    fireEvent.change(phone, { target: { value: '13912345678' } });
    await waitFor(() => expect(errorUnder('电话')).toBeUndefined());
  });

  it('reads typed text into the value the schema checks', async () => {
    render(<RuleForm />);
    const limit = screen.getByLabelText('限额档次');
    fireEvent.change(limit, { target: { value: '12.345' } });
    await waitFor(() => expect(errorUnder('限额档次')).toBe('请输入金额（元）'));
    fireEvent.change(limit, { target: { value: '100000001' } });
    await waitFor(() => expect(errorUnder('限额档次')).toBe('不能超过 1000000000 分'));
    fireEvent.change(limit, { target: { value: ' 400000 ' } });
    await waitFor(() => expect(errorUnder('限额档次')).toBeUndefined());
  });
});
