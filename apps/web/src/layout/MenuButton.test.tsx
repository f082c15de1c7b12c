import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MenuButton } from './MenuButton.tsx';

const ENTRIES = [
  { key: 'a', label: '甲' },
  { key: 'b', label: '乙', disabled: true },
  { key: 'c', label: '丙', dividerBefore: true },
];

function renderMenu() {
  const onSelect = vi.fn();
  render(
    <>
      <MenuButton label="用户菜单" entries={ENTRIES} onSelect={onSelect}>
        头像
      </MenuButton>
      <p>页面</p>
    </>,
  );
  return { onSelect, button: screen.getByRole('button', { name: '用户菜单' }) };
}

describe('the navbar menu button', () => {
  it('opens by Enter on its first entry; the arrows skip what cannot be chosen; Enter chooses and closes', async () => {
    const { onSelect, button } = renderMenu();
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    button.focus();
    await userEvent.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: '用户菜单' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', menu.id);
    await vi.waitFor(() => expect(screen.getByRole('menuitem', { name: '甲' })).toHaveFocus());
    expect(screen.getByRole('menuitem', { name: '乙' })).toHaveAttribute('aria-disabled', 'true');

    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: '丙' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: '甲' })).toHaveFocus();
    await userEvent.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: '丙' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledWith('c');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('↑ opens it on its last entry; Esc closes it and gives the focus back to the button', async () => {
    const { onSelect, button } = renderMenu();
    button.focus();
    await userEvent.keyboard('{ArrowUp}');
    await vi.waitFor(() => expect(screen.getByRole('menuitem', { name: '丙' })).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('a click opens it; an entry that cannot be chosen does nothing; a press outside closes it', async () => {
    const { onSelect, button } = renderMenu();
    await userEvent.click(button);
    await userEvent.click(screen.getByRole('menuitem', { name: '乙' }));
    expect(onSelect).not.toHaveBeenCalled();
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await userEvent.click(screen.getByText('页面'));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await userEvent.click(button);
    await userEvent.click(screen.getByRole('menuitem', { name: '甲' }));
    expect(onSelect).toHaveBeenCalledWith('a');
  });
});
