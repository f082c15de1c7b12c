import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { page } from '@/features/customer/test-data.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { ageText } from '../api.ts';
import { taskRow } from '../test-data.ts';
import TaskList from './TaskList.tsx';

let api: MockApi;

beforeEach(() => signInAs(['underwriter'], ['customer:review']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

describe('审核任务', { timeout: 40_000 }, () => {
  it('says how long a task has waited', () => {
    expect(ageText(2 * 86_400 + 3 * 3_600 + 59)).toBe('2天3小时');
    expect(ageText(5 * 3_600 + 12 * 60)).toBe('5小时12分钟');
    expect(ageText(8 * 60)).toBe('8分钟');
    expect(ageText(20)).toBe('刚刚');
  });

  it('lists the queue oldest first with age and kind; 处理 opens the audit page; status filters', async () => {
    api = mockApi({ 'GET api/tasks': page([taskRow()]) });
    const { router } = renderWithProviders(<TaskList />, '/piibs/task/list');
    const title = await screen.findByText('镇江示范机械有限公司（91440300708461136T）');
    const row = title.closest('tr')!;
    expect(within(row).getByText('2天3小时')).toBeInTheDocument();
    expect(within(row).getByText('投保人信息审核')).toBeInTheDocument();
    expect(api.callsTo('GET api/tasks')[0]?.params).toEqual({ page: 0, size: 10, sort: 'createdAt,asc' });

    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: /处\s*理/ }));
    expect(router.state.location.pathname).toBe('/piibs/task/audit/11/true');

    await router.navigate('/piibs/task/list?status=done');
    await waitFor(() =>
      expect(api.callsTo('GET api/tasks').at(-1)?.params).toMatchObject({ status: 'done', page: 0 }),
    );
  });

  it('filters by holder (我的 / 未分配 / 全部) and by decision', async () => {
    api = mockApi({ 'GET api/tasks': page([taskRow()]) });
    renderWithProviders(<TaskList />, '/piibs/task/list');
    await screen.findByText('镇江示范机械有限公司（91440300708461136T）');
    const user = userEvent.setup();
    const last = () => api.callsTo('GET api/tasks').at(-1)?.params;

    await user.click(screen.getByText('我的'));
    await waitFor(() => expect(last()).toMatchObject({ assignee: 'me', page: 0 }));
    await user.click(screen.getByText('未分配'));
    await waitFor(() => expect(last()).toMatchObject({ assignee: 'none' }));
    await user.click(screen.getByText('全部'));
    await waitFor(() => expect(last()).not.toHaveProperty('assignee'));

    await user.click(screen.getByRole('combobox', { name: '审核结论' }));
    await user.click(await screen.findByTitle('退回'));
    await user.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(last()).toMatchObject({ decision: 'return' }));
  });

  it('领取 takes an unheld task with its version; a held one offers no 领取; 指派 needs task:assign', async () => {
    api = mockApi({
      'GET api/tasks': page([
        taskRow(),
        taskRow({ id: 12, title: '镇江已领取有限公司', assignee: { id: 8, name: '核保员乙' } }),
        taskRow({ id: 13, title: '镇江我的有限公司', assignee: { id: 1, name: '系统管理员' } }),
      ]),
      'POST api/tasks/11/claim': { data: taskRow({ assignee: { id: 1, name: '系统管理员' }, version: 3 }) },
    });
    renderWithProviders(<TaskList />, '/piibs/task/list');
    const free = (await screen.findByText('镇江示范机械有限公司（91440300708461136T）')).closest('tr')!;
    const held = screen.getByText('镇江已领取有限公司').closest('tr')!;
    const mine = screen.getByText('镇江我的有限公司').closest('tr')!;
    expect(within(held).getByText('核保员乙')).toBeInTheDocument();
    expect(within(mine).getByText('系统管理员（我）')).toBeInTheDocument();
    expect(within(held).queryByRole('button', { name: /领\s*取/ })).toBeNull();
    expect(within(mine).queryByRole('button', { name: /领\s*取/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /指\s*派/ })).toBeNull();

    const user = userEvent.setup();
    await user.click(within(free).getByRole('button', { name: /领\s*取/ }));
    expect(await screen.findByText('已领取该任务')).toBeInTheDocument();
    expect(JSON.parse(String(api.callsTo('POST api/tasks/11/claim')[0]?.data))).toEqual({ version: 2 });
    // The queue is reloaded to show the new holder.
    await waitFor(() => expect(api.callsTo('GET api/tasks').length).toBeGreaterThan(1));
  });

  it('a refused 领取 (someone was first) shows the server’s message', async () => {
    api = mockApi({
      'GET api/tasks': page([taskRow()]),
      'POST api/tasks/11/claim': {
        status: 409,
        data: { status: 409, message: '该任务已由「核保员乙」领取，请刷新后查看' },
      },
    });
    renderWithProviders(<TaskList />, '/piibs/task/list');
    const row = (await screen.findByText('镇江示范机械有限公司（91440300708461136T）')).closest('tr')!;
    await userEvent.setup().click(within(row).getByRole('button', { name: /领\s*取/ }));
    expect(await screen.findByText('该任务已由「核保员乙」领取，请刷新后查看')).toBeInTheDocument();
  });

  it('指派 (task:assign) picks a reviewer the server offers and sends the task’s version', async () => {
    signInAs(['underwriter'], ['customer:review', 'task:assign']);
    let refuse = true;
    api = mockApi({
      'GET api/tasks': page([taskRow()]),
      'GET api/tasks/11/assignees': {
        data: [
          { id: 7, name: '核保员甲（uw）' },
          { id: 8, name: '核保员乙（uw2）' },
        ],
      },
      'POST api/tasks/11/assign': () => {
        if (refuse) {
          refuse = false;
          return {
            status: 400,
            data: {
              status: 400,
              message: '处理人：该用户不能审核此任务',
              errors: [{ field: 'assigneeId', message: '该用户不能审核此任务' }],
            },
          };
        }
        return { data: taskRow({ assignee: { id: 8, name: '核保员乙' }, version: 3 }) };
      },
    });
    renderWithProviders(<TaskList />, '/piibs/task/list');
    const row = (await screen.findByText('镇江示范机械有限公司（91440300708461136T）')).closest('tr')!;
    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: /指\s*派/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('指派处理人')).toBeInTheDocument();
    // Nothing chosen: asked for a reviewer, nothing sent.
    await user.click(within(dialog).getByRole('button', { name: /指\s*派/ }));
    expect(await within(dialog).findByText('请选择处理人')).toBeInTheDocument();
    expect(api.callsTo('POST api/tasks/11/assign')).toHaveLength(0);

    await user.click(within(dialog).getByRole('combobox', { name: '处理人' }));
    await user.click(await screen.findByTitle('核保员乙（uw2）'));
    await user.click(within(dialog).getByRole('button', { name: /指\s*派/ }));
    expect(await within(dialog).findByText('该用户不能审核此任务')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: /指\s*派/ }));
    expect(await screen.findByText('已指派给 核保员乙')).toBeInTheDocument();
    expect(JSON.parse(String(api.callsTo('POST api/tasks/11/assign').at(-1)?.data))).toEqual({
      assigneeId: 8,
      version: 2,
    });
    await waitFor(() => expect(api.callsTo('GET api/tasks').length).toBeGreaterThan(1));
  });
});
