import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { renderRoute } from '@/components/customer/test-render.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { taskDetail, taskRow } from '../test-data.ts';
import CustomerAudit from './CustomerAudit.tsx';

const PATTERN = '/piibs/task/audit/:id/:audit';
let api: MockApi;

beforeEach(() => signInAs(['underwriter'], ['customer:review']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const decideBody = () => JSON.parse(String(api.callsTo('POST api/tasks/11/decide').at(-1)?.data));

describe('审核客户信息', { timeout: 40_000 }, () => {
  it('shows the customer, earlier decisions and changes; 退回 needs an opinion, then goes back to the list', async () => {
    api = mockApi({
      'GET api/tasks/11': { data: taskDetail() },
      'POST api/tasks/11/decide': { data: taskRow({ status: 'done', decision: 'return' }) },
    });
    const { router } = renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
    expect(await screen.findByText('镇江示范机械有限公司')).toBeInTheDocument();
    expect(screen.getByText('138****5678')).toBeInTheDocument();
    expect(screen.getByText('营业执照照片不清晰')).toBeInTheDocument();
    expect(screen.getByText(/修改投保人/)).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /退\s*回/ }));
    expect(await screen.findByText('退回或拒绝时必须填写审核意见')).toBeInTheDocument();
    expect(api.callsTo('POST api/tasks/11/decide')).toHaveLength(0);

    await user.type(screen.getByLabelText('审核意见'), '请补充营业执照');
    await user.click(screen.getByRole('button', { name: /退\s*回/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/task/list'));
    expect(decideBody()).toEqual({ decision: 'return', opinion: '请补充营业执照', version: 2 });
    expect(await screen.findByText('审核完成：退回')).toBeInTheDocument();
  });

  it('通过 needs no opinion; a 409 shows the server message and reloads the task', async () => {
    let loads = 0;
    api = mockApi({
      'GET api/tasks/11': () => {
        loads += 1;
        return { data: taskDetail(loads > 1 ? { status: 'done', decision: 'approve', version: 3 } : {}) };
      },
      'POST api/tasks/11/decide': { status: 409, data: { status: 409, message: '该任务已被他人处理' } },
    });
    renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
    await screen.findByText('镇江示范机械有限公司');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /通\s*过/ }));
    expect(await screen.findByText('该任务已被他人处理')).toBeInTheDocument();
    expect(decideBody()).toEqual({ decision: 'approve', opinion: null, version: 2 });
    await waitFor(() => expect(loads).toBe(2));
    // Decided meanwhile: no more decision buttons.
    await waitFor(() => expect(screen.queryByRole('button', { name: /拒\s*绝/ })).toBeNull());
  });
});
