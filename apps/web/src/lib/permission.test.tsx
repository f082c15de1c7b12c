import { ROLE_CODES } from '@piibs/shared/auth';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useUserStore } from '@/stores/user.ts';
import { fakeUser } from '@/test/mock-api.ts';
import { Can, can, isReducedShell, permissionsOf } from './permission.tsx';

const ENTERPRISE = ROLE_CODES.enterprise;
const initial = useUserStore.getState();
afterEach(() => useUserStore.setState(initial, true));

function signIn(roles: string[], permissions?: string[]) {
  useUserStore.setState({
    roles,
    user: { ...fakeUser({ roles }), ...(permissions ? { permissions } : {}) } as never,
  });
}

describe('permission directive: requires a code or a non-empty list of them, otherwise it errors', () => {
  it('throws for an empty list or an empty code', () => {
    expect(() => can([], { roles: ['admin'] })).toThrow(Error);
    expect(() => can('', { roles: ['admin'] })).toThrow(Error);
    expect(() => can(['admin', ''], { roles: ['admin'] })).toThrow(Error);
  });

  it('throws for something that is neither a code nor a list of codes', () => {
    expect(() => can(undefined as unknown as string[], { roles: ['admin'] })).toThrow(Error);
    expect(() => can({ admin: true } as unknown as string[], { roles: ['admin'] })).toThrow(Error);
    expect(() => can([1] as unknown as string[], { roles: ['admin'] })).toThrow(Error);
  });

  it('<Can> with an empty list errors too', () => {
    // React reports the render error; keep the test output clean.
    const error = console.error;
    console.error = () => {};
    try {
      expect(() =>
        render(
          <Can code={[]}>
            <button type="button">删除</button>
          </Can>,
        ),
      ).toThrow(Error);
    } finally {
      console.error = error;
    }
  });
});

describe('elements guarded by the permission directive are hidden unless one of the user roles is in the list', () => {
  it('can: true when the user holds one of the roles', () => {
    expect(can(['admin', ENTERPRISE], { roles: ['agent', ENTERPRISE] })).toBe(true);
    expect(can(['admin', 'underwriter'], { roles: ['agent'] })).toBe(false);
    expect(can(['admin'], { roles: [] })).toBe(false);
  });

  beforeEach(() => signIn(['agent']));

  it('can without a subject asks about the signed-in user', () => {
    expect(can(['admin', 'agent'])).toBe(true);
    expect(can('underwriter')).toBe(false);
  });

  it('<Can> renders its children for a user holding one of the roles', () => {
    render(
      <Can code={['admin', 'agent']}>
        <button type="button">新增</button>
      </Can>,
    );
    expect(screen.getByRole('button', { name: '新增' })).toBeInTheDocument();
  });

  it('<Can> removes the element from the page when the user has none of the roles', () => {
    const { container } = render(
      <div data-testid="box">
        <Can code={['admin']}>
          <button type="button">删除</button>
        </Can>
      </div>,
    );
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(container.querySelector('[data-testid="box"]')?.childElementCount).toBe(0);
  });

  it('<Can fallback> shows the fallback instead', () => {
    render(
      <Can code="admin" fallback={<span>无权限</span>}>
        <button type="button">删除</button>
      </Can>,
    );
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(screen.getByText('无权限')).toBeInTheDocument();
  });
});

describe('permission codes (the codes the server checks, e.g. user:add)', () => {
  it('admin holds every code, as on the server', () => {
    expect(can('user:del', { roles: ['admin'] })).toBe(true);
    expect(can(['underwriter'], { roles: ['admin'] })).toBe(true);
  });

  it('other users hold the codes /api/auth/info lists, and none while it lists none', () => {
    expect(can('user:add', { roles: ['underwriter'], permissions: ['user:list', 'user:add'] })).toBe(true);
    expect(can(['user:add', 'user:edit'], { roles: ['underwriter'], permissions: ['user:list'] })).toBe(
      false,
    );
    expect(can('user:list', { roles: ['underwriter'] })).toBe(false);
  });

  it('reads permissions from the user record only when it is a list of strings', () => {
    expect(permissionsOf({ permissions: ['a:b'] })).toEqual(['a:b']);
    expect(permissionsOf({ permissions: 'a:b' })).toBeUndefined();
    expect(permissionsOf(null)).toBeUndefined();
  });

  it('<Can code> shows its children only to holders; a role in the list is the fallback', () => {
    signIn(['underwriter'], ['user:add']);
    render(
      <>
        <Can code="user:add">
          <button type="button">新增</button>
        </Can>
        <Can code="user:del">
          <button type="button">删除</button>
        </Can>
        <Can code={['user:edit', 'underwriter']}>
          <button type="button">编辑</button>
        </Can>
      </>,
    );
    expect(screen.getByRole('button', { name: '新增' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(screen.getByRole('button', { name: '编辑' })).toBeInTheDocument();
  });
});

describe('the enterprise role and CA-login users see a reduced shell', () => {
  it('isReducedShell', () => {
    expect(isReducedShell({ roles: [ENTERPRISE], isCA: false })).toBe(true);
    expect(isReducedShell({ roles: ['admin'], isCA: true })).toBe(true);
    expect(isReducedShell({ roles: ['admin', 'agent'], isCA: false })).toBe(false);
    expect(isReducedShell({ roles: ['ROLE_SYSTEM_DEFAULT'], isCA: false })).toBe(false);
  });
});
