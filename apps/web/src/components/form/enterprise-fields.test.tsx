import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { AddressItem, EnterpriseCodeItem, EnterpriseNameItem, PhoneItem } from './enterprise-fields.tsx';

type Values = Record<string, string>;

/** One enterprise form of the kit's fields; 保存 reports the values that passed. */
function renderForm(initial: Values, options: { legacy?: boolean; kept?: string } = {}) {
  const saved = vi.fn();
  render(
    <Form<Values> initialValues={initial} onFinish={saved}>
      <EnterpriseCodeItem
        name="code"
        label="统一社会信用代码"
        required="请输入统一社会信用代码"
        legacyTaxNumbers={options.legacy}
      />
      <EnterpriseNameItem label="名称" required="请输入名称" />
      <AddressItem label="地址" />
      <PhoneItem name="phone" label="联系电话" required="请输入联系电话" kept={options.kept} />
      <Button htmlType="submit">保存</Button>
    </Form>,
  );
  return saved;
}

const VALID = { code: '91350100m000100y43', name: '镇江安评', phone: '13812345678' };

describe('enterprise fields', () => {
  it('a GB 32100 code passes in lower case; a wrong check character is refused with the shared message', async () => {
    const saved = renderForm(VALID);
    await userEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(saved).toHaveBeenCalledOnce());

    await userEvent.clear(screen.getByLabelText('统一社会信用代码'));
    await userEvent.type(screen.getByLabelText('统一社会信用代码'), '91320000134768025M');
    await userEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('请输入正确的统一社会信用代码')).toBeInTheDocument();
    expect(saved).toHaveBeenCalledOnce();
  });

  it('an old tax number (three letters, twelve digits) passes only where legacy numbers are allowed (customers)', async () => {
    const taxNumber = { ...VALID, code: 'JSZ320102123456' };
    const refused = renderForm(taxNumber);
    await userEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('请输入正确的统一社会信用代码')).toBeInTheDocument();
    expect(refused).not.toHaveBeenCalled();
  });

  it('accepts the old tax number with legacyTaxNumbers', async () => {
    const saved = renderForm({ ...VALID, code: 'JSZ320102123456' }, { legacy: true });
    await userEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(saved).toHaveBeenCalledOnce());
  });

  it('names each empty field in its own message; a one-character name is too short', async () => {
    renderForm({ code: '', name: '甲', phone: ' ' });
    await userEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('请输入统一社会信用代码')).toBeInTheDocument();
    expect(screen.getByText('至少 2 个字符')).toBeInTheDocument();
    expect(screen.getByText('请输入联系电话')).toBeInTheDocument();
  });

  it('a phone loaded masked may be sent back as it is; with `kept`, only that very mask passes', async () => {
    const saved = renderForm({ ...VALID, phone: '138****5678' }, { kept: '138****5678' });
    await userEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(saved).toHaveBeenCalledOnce());

    await userEvent.clear(screen.getByLabelText('联系电话'));
    await userEvent.type(screen.getByLabelText('联系电话'), '139****0000');
    await userEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('请输入正确的电话号码或者固话号码')).toBeInTheDocument();
    expect(saved).toHaveBeenCalledOnce();
  });
});
