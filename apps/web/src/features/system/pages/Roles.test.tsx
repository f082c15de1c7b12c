import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import type { MenuTreeNode } from '../api.ts';
import { grantedIds } from '../components/RoleMenuPanel.tsx';
import { dictAnswer, page, roleRow } from '../test-data.ts';
import Roles from './Roles.tsx';

const TREE: MenuTreeNode[] = [
  {
    id: 1,
    label: '风险管控',
    children: [
      { id: 2, label: '我的服务单' },
      { id: 3, label: '服务机构' },
    ],
  },
  {
    id: 10,
    label: '系统管理',
    children: [
      {
        id: 11,
        label: '用户管理',
        children: [
          { id: 12, label: '用户查询' },
          { id: 13, label: '用户新增' },
        ],
      },
    ],
  },
];

let api: MockApi;
beforeEach(() => signInAs(['admin']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const checkbox = (title: string) =>
  screen.getByText(title).closest('.ant-tree-treenode')!.querySelector<HTMLElement>('.ant-tree-checkbox')!;

describe('角色管理', { timeout: 20_000 }, () => {
  it('grants exactly the checked menus, with the directories above them', () => {
    expect(grantedIds(TREE, new Set([2]))).toEqual([1, 2]);
    expect(grantedIds(TREE, new Set([12]))).toEqual([10, 11, 12]);
    expect(grantedIds(TREE, new Set())).toEqual([]);
  });

  it('shows the selected role’s grant and saves the checked menus with POST /api/roles/menu', async () => {
    api = mockApi({
      'GET api/roles': page([roleRow()]),
      'GET api/dictDetail': dictAnswer,
      'GET api/menus/tree': { data: TREE },
      'GET api/roles/5': { data: { ...roleRow(), menuIds: [10, 11, 12] } },
      'POST api/roles/menu': (config) => ({ data: JSON.parse(String(config.data)) }),
    });
    const { search } = renderWithProviders(<Roles />, '/piibs/system/role');
    fireEvent.click(await screen.findByText('服务单查看'));
    expect(await screen.findByText('角色：服务单查看')).toBeInTheDocument();
    expect(search().get('role')).toBe('5');

    // The grant as loaded: 用户查询 only, so 用户管理 is half-checked.
    fireEvent.click(screen.getByRole('button', { name: '展开全部' }));
    await waitFor(() => expect(checkbox('用户查询')).toHaveClass('ant-tree-checkbox-checked'));
    expect(checkbox('用户新增')).not.toHaveClass('ant-tree-checkbox-checked');
    expect(checkbox('用户管理')).toHaveClass('ant-tree-checkbox-indeterminate');

    // Swap 用户查询 for 我的服务单.
    fireEvent.click(checkbox('用户查询'));
    fireEvent.click(checkbox('我的服务单'));
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.callsTo('POST api/roles/menu')).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo('POST api/roles/menu')[0]?.data))).toEqual({
      id: 5,
      menuIds: [1, 2],
    });
    expect(await screen.findByText('菜单权限已保存，用户下次加载菜单时生效')).toBeInTheDocument();
  });

  it('without menu:list the panel says so instead of calling /api/menus/tree', async () => {
    api = mockApi({
      'GET api/roles': page([roleRow()]),
      'GET api/dictDetail': dictAnswer,
      'GET api/roles/5': { data: { ...roleRow(), menuIds: [] } },
    });
    signInAs(['manager'], ['role:list', 'role:edit']);
    renderWithProviders(<Roles />, '/piibs/system/role?role=5');
    expect(await screen.findByText(/你没有查看菜单的权限/)).toBeInTheDocument();
    expect(api.callsTo('GET api/menus/tree')).toHaveLength(0);
  });
});
