import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { page } from '@/features/customer/test-data.ts';
import { changeDetail, declarationDetail } from '@/features/project/test-data.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { customerHistory, taskDetail, taskRow } from '../test-data.ts';
import TaskList from './TaskList.tsx';
import TenderAudit from './TenderAudit.tsx';

const PATTERN = '/piibs/task/tenderAudit/:id/:audit';
let api: MockApi;

beforeEach(() => signInAs(['underwriter'], ['tender:review', 'project_order:list']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const tenderTask = (over = {}) =>
  taskDetail({ id: 77, kind: 'tender', subjectId: 42, title: 'EC2026000042 学府路小学改扩建工程', ...over });
const decideBody = () => JSON.parse(String(api.callsTo('POST api/tasks/77/decide').at(-1)?.data));

describe('审核二次下单信息 (task/tenderAudit/:id/:audit)', { timeout: 40_000 }, () => {
  it('shows the project, its quote and the quota; 通过 sends the version and goes back to the list', async () => {
    api = mockApi({
      'GET api/tasks/77': { data: tenderTask() },
      'GET api/project-declarations/42': { data: declarationDetail() },
      'GET api/customers/7/history': { data: customerHistory() },
      'POST api/tasks/77/decide': {
        data: taskRow({ id: 77, kind: 'tender', status: 'done', decision: 'approve' }),
      },
    });
    const { router } = renderRoute(<TenderAudit />, PATTERN, '/piibs/task/tenderAudit/77/true');
    expect(await screen.findByTestId('project-cost')).toHaveTextContent('¥10,000,000.00');
    expect(screen.getByTestId('declaration-premium')).toHaveTextContent('¥6,500.00');
    expect(screen.getByText('工程造价 1000万元及以下部分 × 0.65‰')).toBeInTheDocument();
    expect(screen.getByTestId('quota-remaining')).toHaveTextContent('¥453,850.00');
    expect(screen.getByText('镇江示范机械有限公司')).toBeInTheDocument();
    // The quote first, then the contractor and its history, each section foldable.
    expect(
      screen
        .getAllByRole('button')
        .filter((b) => b.hasAttribute('aria-expanded'))
        .map((b) => b.textContent),
    ).toEqual([
      '保费信息（按工程造价分档计费）',
      expect.stringMatching(/^年度订单 /),
      '施工企业：镇江示范机械有限公司',
      '客户历史',
      '申报历史',
      '历次审核',
    ]);
    const history = screen.getByRole('region', { name: '客户历史' });
    expect(await within(history).findByText('PAZX202600000031')).toBeInTheDocument();
    expect(api.callsTo('GET api/customers/7/history')[0]?.params).toBeUndefined();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /拒\s*绝/ }));
    expect(await screen.findByText('退回或拒绝时必须填写审核意见')).toBeInTheDocument();
    // 通过 issues the policy: it asks first, saying so; 取消 sends nothing.
    await user.click(screen.getByRole('button', { name: /通\s*过/ }));
    let dialog = await screen.findByRole('dialog', { name: '确定通过？' });
    expect(dialog).toHaveTextContent('通过后即出具项目保单（保费按年度订单结算）。此操作不能撤回。');
    await user.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST api/tasks/77/decide')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: /通\s*过/ }));
    dialog = await screen.findByRole('dialog', { name: '确定通过？' });
    await user.click(within(dialog).getByRole('button', { name: /通\s*过/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/task/list'));
    expect(decideBody()).toEqual({ decision: 'approve', opinion: null, version: 2 });
  });

  it('a second reviewer gets the server’s 409 and sees the task as decided', async () => {
    let loads = 0;
    api = mockApi({
      'GET api/tasks/77': () => {
        loads += 1;
        return { data: tenderTask(loads > 1 ? { status: 'done', decision: 'approve', version: 3 } : {}) };
      },
      'GET api/project-declarations/42': { data: declarationDetail() },
      'POST api/tasks/77/decide': {
        status: 409,
        data: { status: 409, message: '该任务已被处理，请刷新后查看' },
      },
    });
    renderRoute(<TenderAudit />, PATTERN, '/piibs/task/tenderAudit/77/true');
    await screen.findByTestId('declaration-premium');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('审核意见'), '请补充资料');
    await user.click(screen.getByRole('button', { name: /退\s*回/ }));
    expect(await screen.findByText('该任务已被处理，请刷新后查看')).toBeInTheDocument();
    expect(decideBody()).toEqual({ decision: 'return', opinion: '请补充资料', version: 2 });
    await waitFor(() => expect(screen.queryByRole('button', { name: /通\s*过/ })).toBeNull());
  });

  it('a change (批改) shows each changed field before → after and the premium difference', async () => {
    api = mockApi({
      'GET api/tasks/77': {
        data: tenderTask({ subjectId: 43, title: 'EC2026000043 【批改】滨江花园二期住宅工程' }),
      },
      'GET api/project-declarations/43': {
        data: changeDetail({ status: 'PENDING_REVIEW', statusLabel: '待审核', reservedFen: 120_000 }),
      },
    });
    renderRoute(<TenderAudit />, PATTERN, '/piibs/task/tenderAudit/77/true');
    expect(await screen.findByText('批改内容（项目 EC2026000041）')).toBeInTheDocument();
    const table = screen.getByTestId('change-comparison');
    const cost = within(table).getByText('工程造价').closest('tr')!;
    expect(within(cost).getByText('¥10,000,000.00')).toBeInTheDocument();
    expect(within(cost).getByText('¥12,000,000.00')).toBeInTheDocument();
    expect(within(table).getByText('¥7,700.00（加收 ¥1,200.00）')).toBeInTheDocument();
  });

  it('the task list opens a tender task on this page', async () => {
    api = mockApi({
      'GET api/tasks': page([
        taskRow({ id: 77, kind: 'tender', subjectId: 42, title: 'EC2026000042 学府路小学改扩建工程' }),
      ]),
    });
    const { router } = renderWithProviders(<TaskList />, '/piibs/task/list');
    const row = (await screen.findByText('EC2026000042 学府路小学改扩建工程')).closest('tr')!;
    expect(within(row).getByText('二次下单审核')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: /处\s*理/ }));
    expect(router.state.location.pathname).toBe('/piibs/task/tenderAudit/77/true');
  });
});
