import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useUserStore } from '@/stores/user.ts';
import { Auth, can, isReducedShell } from './permission.tsx';

describe('permission directive: requires a non-empty list of role names, otherwise it errors', () => {
  it('throws for an empty list', () => {
    expect(() => can(['admin'], [])).toThrow(Error);
  });

  it('throws for something that is not a list', () => {
    expect(() => can(['admin'], 'admin' as unknown as string[])).toThrow(Error);
    expect(() => can(['admin'], undefined as unknown as string[])).toThrow(Error);
  });

  it('<Auth> with an empty list errors too', () => {
    // React reports the render error; keep the test output clean.
    const error = console.error;
    console.error = () => {};
    try {
      expect(() =>
        render(
          <Auth roles={[]}>
            <button type="button">删除</button>
          </Auth>,
        ),
      ).toThrow(Error);
    } finally {
      console.error = error;
    }
  });
});

describe('elements guarded by the permission directive are hidden unless one of the user roles is in the list', () => {
  it('can: true when the user holds one of the roles', () => {
    expect(can(['agent', '17'], ['admin', '17'])).toBe(true);
    expect(can(['agent'], ['admin', 'underwriter'])).toBe(false);
    expect(can([], ['admin'])).toBe(false);
  });

  beforeEach(() => {
    useUserStore.setState({ roles: ['agent'] });
  });

  it('<Auth> renders its children for a user holding one of the roles', () => {
    render(
      <Auth roles={['admin', 'agent']}>
        <button type="button">新增</button>
      </Auth>,
    );
    expect(screen.getByRole('button', { name: '新增' })).toBeInTheDocument();
  });

  it('<Auth> removes the element from the page when the user has none of the roles', () => {
    const { container } = render(
      <div data-testid="box">
        <Auth roles={['admin']}>
          <button type="button">删除</button>
        </Auth>
      </div>,
    );
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(container.querySelector('[data-testid="box"]')?.childElementCount).toBe(0);
  });
});

describe("role '17' and CA-login users see a reduced shell", () => {
  it('isReducedShell', () => {
    expect(isReducedShell(['17'], false)).toBe(true);
    expect(isReducedShell(['admin'], true)).toBe(true);
    expect(isReducedShell(['admin', 'agent'], false)).toBe(false);
    expect(isReducedShell(['ROLE_SYSTEM_DEFAULT'], false)).toBe(false);
  });
});
