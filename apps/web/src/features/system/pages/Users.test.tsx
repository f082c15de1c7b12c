import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { deptNode, dictAnswer, page, userRow } from '../test-data.ts';
import Users from './Users.tsx';

const PASSWORD = 'Xy7#kP2m@Qa9';
let api: MockApi;

beforeEach(() => signInAs(['admin']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

function mockUsersApi(extra: Parameters<typeof mockApi>[0] = {}) {
  api = mockApi({
    'GET api/users': page([userRow()]),
    'GET api/depts': page([deptNode({ children: [deptNode({ id: 4, parentId: 1, name: '镇江分公司' })] })]),
    'GET api/dictDetail': dictAnswer,
    'GET api/roles/all': { data: [{ id: 3, code: 'underwriter', name: '核保员', level: 2 }] },
    'GET api/jobs': page([]),
    'POST api/users': { data: { id: 9, username: 'lisi', password: PASSWORD } },
    'POST api/users/resetPass': { data: { id: 2, username: 'zhangsan', password: 'Reset#Pw2026x' } },
    ...extra,
  });
}

describe('用户管理', { timeout: 20_000 }, () => {
  it('lists users with their department, roles and channel label; the tree filters by department', async () => {
    mockUsersApi();
    const { search } = renderWithProviders(<Users />, '/piibs/system/user');
    expect(await screen.findByText('zhangsan')).toBeInTheDocument();
    expect(screen.getByText('核保员')).toBeInTheDocument();
    expect(await screen.findByText('内部员工')).toBeInTheDocument();
    expect(api.callsTo('GET api/users')[0]?.params).toEqual({ page: 0, size: 10, sort: 'createdAt,desc' });

    fireEvent.click(await screen.findByText('镇江分公司'));
    await waitFor(() =>
      expect(api.callsTo('GET api/users').at(-1)?.params).toMatchObject({ deptId: '4', page: 0 }),
    );
    expect(search().get('deptId')).toBe('4');
  });

  it('新增: validates phone and email with the shared rules, then shows the one-time password once', async () => {
    mockUsersApi();
    renderWithProviders(<Users />, '/piibs/system/user');
    await screen.findByText('zhangsan');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('用户名'), 'lisi');
    await user.type(within(dialog).getByLabelText('昵称'), '李四');
    await user.type(within(dialog).getByLabelText('手机号'), '1381234');
    await user.type(within(dialog).getByLabelText('邮箱'), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请输入正确的11位手机号码')).toBeInTheDocument();
    expect(within(dialog).getByText('请输入正确的邮箱地址')).toBeInTheDocument();
    expect(api.callsTo('POST api/users')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('手机号'), '5678');
    await user.clear(within(dialog).getByLabelText('邮箱'));
    await user.type(within(dialog).getByLabelText('邮箱'), 'lisi@example.com');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));

    await waitFor(() => expect(api.callsTo('POST api/users')).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo('POST api/users')[0]?.data))).toEqual({
      username: 'lisi',
      nickName: '李四',
      phone: '13812345678',
      email: 'lisi@example.com',
      gender: null,
      deptId: null,
      roleIds: [],
      jobIds: [],
      channel: 'staff',
      uscc: null,
      enabled: true,
    });

    const shown = await screen.findByTestId('one-time-password');
    expect(shown).toHaveTextContent(PASSWORD);
    expect(screen.getByText('用户「lisi」已创建')).toBeInTheDocument();
    expect(screen.getByText(/该密码只显示这一次/)).toBeInTheDocument();
    expect(screen.getAllByText(PASSWORD)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: '我已记下，关闭' }));
    await waitFor(() => expect(screen.queryByText(PASSWORD)).toBeNull());
    // Nothing keeps it: the list reloads without it, and it is in no storage.
    await waitFor(() => expect(api.callsTo('GET api/users').length).toBeGreaterThan(1));
    expect(JSON.stringify({ ...localStorage })).not.toContain(PASSWORD);
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(PASSWORD);
  });

  it('重置密码 asks first, then shows the new one-time password', async () => {
    mockUsersApi();
    renderWithProviders(<Users />, '/piibs/system/user');
    await screen.findByText('zhangsan');
    fireEvent.click(screen.getByText('重置密码'));
    const [title] = await screen.findAllByText('确定重置「张三」的密码吗？');
    const confirm = title!.closest<HTMLElement>('.ant-modal')!;
    expect(confirm).toHaveTextContent('确定重置「张三」的密码吗？');
    fireEvent.click(within(confirm).getByText(/^确\s*定$/));
    expect(await screen.findByTestId('one-time-password')).toHaveTextContent('Reset#Pw2026x');
    expect(JSON.parse(String(api.callsTo('POST api/users/resetPass')[0]?.data))).toEqual({ id: 2 });
  });

  it('a user without user:add / user:edit / user:del codes gets no action buttons', async () => {
    mockUsersApi();
    signInAs(['underwriter'], ['user:list']);
    renderWithProviders(<Users />, '/piibs/system/user');
    await screen.findByText('zhangsan');
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /编\s*辑/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '重置密码' })).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeInTheDocument();
  });
});
