import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { YuanInput } from './YuanInput.tsx';
import { yuanRule } from './zod-rule.ts';

function renderCost() {
  const saved = vi.fn();
  render(
    <Form onFinish={saved}>
      <Form.Item
        name="projectCostYuan"
        label="工程造价"
        rules={[{ required: true, message: '请输入工程造价' }, yuanRule()]}
      >
        <YuanInput />
      </Form.Item>
      <Button htmlType="submit">保存</Button>
    </Form>,
  );
  return { saved, input: screen.getByRole('spinbutton', { name: '工程造价' }) };
}

describe('an amount in yuan (YuanInput + yuanRule)', () => {
  it.each(['-5', '0'])(
    '%s stays as typed and is refused at the field with 须大于 0; nothing is saved',
    async (typed) => {
      const { saved, input } = renderCost();
      await userEvent.type(input, typed);
      await userEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
      expect(await screen.findByText('须大于 0')).toBeInTheDocument();
      expect(input).toHaveValue(`${typed}.00`);
      expect(saved).not.toHaveBeenCalled();
    },
  );

  it('a positive amount passes, as text (read to fen when the form is sent)', async () => {
    const { saved, input } = renderCost();
    await userEvent.type(input, '1200.5');
    await userEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(saved).toHaveBeenCalledWith({ projectCostYuan: '1200.5' }));
  });
});
