import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { page } from '@/components/customer/test-data.ts';
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
});
