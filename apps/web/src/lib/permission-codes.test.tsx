import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useUserStore } from '@/stores/user.ts';
import { fakeUser } from '@/test/mock-api.ts';
import { Auth, canDo, permissionsOf } from './permission.tsx';

const initial = useUserStore.getState();
afterEach(() => useUserStore.setState(initial, true));

describe('permission codes (the codes the server checks, e.g. user:add)', () => {
  it('admin holds every code, as on the server', () => {
    expect(canDo({ roles: ['admin'] }, 'user:del')).toBe(true);
  });

  it('other users hold the codes /api/auth/info lists, and none while it lists none', () => {
    expect(canDo({ roles: ['underwriter'], permissions: ['user:list', 'user:add'] }, 'user:add')).toBe(true);
    expect(canDo({ roles: ['underwriter'], permissions: ['user:list'] }, ['user:add', 'user:edit'])).toBe(
      false,
    );
    expect(canDo({ roles: ['underwriter'] }, 'user:list')).toBe(false);
  });

  it('errors on an empty code, like the role check', () => {
    expect(() => canDo({ roles: ['admin'] }, '')).toThrow(Error);
    expect(() => canDo({ roles: ['admin'] }, [])).toThrow(Error);
  });

  it('reads permissions from the user record only when it is a list of strings', () => {
    expect(permissionsOf({ permissions: ['a:b'] })).toEqual(['a:b']);
    expect(permissionsOf({ permissions: 'a:b' })).toBeUndefined();
    expect(permissionsOf(null)).toBeUndefined();
  });

  it('<Auth permission> shows its children only to holders; roles are the fallback', () => {
    useUserStore.setState({
      roles: ['underwriter'],
      user: { ...fakeUser({ roles: ['underwriter'] }), permissions: ['user:add'] } as never,
    });
    render(
      <>
        <Auth permission="user:add">
          <button type="button">新增</button>
        </Auth>
        <Auth permission="user:del">
          <button type="button">删除</button>
        </Auth>
        <Auth permission="user:edit" roles={['underwriter']}>
          <button type="button">编辑</button>
        </Auth>
      </>,
    );
    expect(screen.getByRole('button', { name: '新增' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(screen.getByRole('button', { name: '编辑' })).toBeInTheDocument();
  });
});
