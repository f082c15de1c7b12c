import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onPhone } from '@/test/phone.ts';
import { WizardSteps } from './WizardSteps.tsx';

const TITLES = ['填写投保信息', '保单基本信息', '共保信息', '确认保费信息', '提交审核'];

afterEach(() => vi.restoreAllMocks());

describe('WizardSteps', () => {
  it('on a wide screen names every step in a row', () => {
    render(<WizardSteps titles={TITLES} current={1} />);
    for (const title of TITLES) expect(screen.getByText(title)).toBeInTheDocument();
    expect(screen.queryByText(/第 2 步/)).toBeNull();
  });

  it('on a phone says where the user is in one line, marks the step for screen readers and names the next', () => {
    onPhone();
    render(<WizardSteps titles={TITLES} current={1} />);
    const nav = screen.getByRole('navigation', { name: '投保步骤' });
    expect(nav).toHaveTextContent('第 2 步，共 5 步：保单基本信息');
    expect(nav).toHaveTextContent('下一步：共保信息');
    const items = within(nav).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent('填写投保信息（已完成）');
    expect(items[1]).toHaveAttribute('aria-current', 'step');
    expect(items.filter((item) => item.hasAttribute('aria-current'))).toHaveLength(1);
  });

  it('on a phone: the last step has no next; past the last, every step is done', () => {
    onPhone();
    const { rerender } = render(<WizardSteps titles={TITLES} current={4} />);
    const nav = screen.getByRole('navigation', { name: '投保步骤' });
    expect(nav).toHaveTextContent('第 5 步，共 5 步：提交审核');
    expect(nav).not.toHaveTextContent('下一步');
    rerender(<WizardSteps titles={TITLES} current={5} />);
    expect(nav).toHaveTextContent('已完成全部 5 步');
    expect(within(nav).getAllByText(/（已完成）/)).toHaveLength(5);
  });
});
