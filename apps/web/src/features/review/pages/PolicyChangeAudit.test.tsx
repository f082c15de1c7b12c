import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { policyChangeView } from '../test-data.ts';
import PolicyChangeAudit from './PolicyChangeAudit.tsx';

const PATTERN = '/piibs/task/policyChange/:id';
let api: MockApi;
beforeEach(() => signInAs(['underwriter'], ['application:review', 'application:list']));
afterEach(() => {
  api?.restore();
  resetKitState();
});
const reviewBody = () => JSON.parse(String(api.callsTo('POST api/policy-changes/31/review').at(-1)?.data));

describe('审核批改/退保申请 (task/policyChange/:id)', { timeout: 40_000 }, () => {
  it('shows before → after with the money; 通过 asks first, sends the version and goes back to the queue', async () => {
    api = mockApi({
      'GET api/policy-changes/31': { data: policyChangeView() },
      'POST api/policy-changes/31/review': {
        data: policyChangeView({ status: 'PENDING_PAYMENT', statusLabel: '待补缴保费', version: 2 }),
      },
    });
    const { router } = renderRoute(<PolicyChangeAudit />, PATTERN, '/piibs/task/policyChange/31');
    expect(await screen.findByText('批改申请 G202600000031')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'PAZX202600000009' })).toBeInTheDocument();
    expect(screen.getByText('镇江示范机械有限公司')).toBeInTheDocument();
    const table = screen.getByTestId('policy-change-comparison');
    const heads = within(table).getByText('参保人数').closest('tr')!;
    expect(within(heads).getByText('50 人')).toBeInTheDocument();
    expect(within(heads).getByText('55 人')).toBeInTheDocument();
    const premium = within(table).getByText('已收保费').closest('tr')!;
    expect(within(premium).getByText('¥24,000.00')).toBeInTheDocument();
    expect(within(premium).getByText('¥26,054.79（补缴 ¥2,054.79）')).toBeInTheDocument();

    const user = userEvent.setup();
    // 退回 and 拒绝 need an opinion: nothing is sent without one.
    await user.click(screen.getByRole('button', { name: /拒\s*绝/ }));
    expect(await screen.findByText('退回或拒绝时必须填写审核意见')).toBeInTheDocument();
    expect(api.callsTo('POST api/policy-changes/31/review')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: /通\s*过/ }));
    const dialog = await screen.findByRole('dialog', { name: '确定通过？' });
    expect(dialog).toHaveTextContent('投保人在支付期限内补缴后生效');
    await user.click(within(dialog).getByRole('button', { name: /通\s*过/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/task/policyChanges'));
    expect(reviewBody()).toEqual({ decision: 'approve', version: 1 });
  });

  it('a named-list endorsement names the people it adds and removes, numbers masked', async () => {
    api = mockApi({
      'GET api/policy-changes/31': {
        data: policyChangeView({
          changes: [{ field: 'persons', label: '从业人员名单', before: '3 人', after: '4 人' }],
          persons: {
            added: [
              { name: '示例员工甲', idNumberMasked: '3211**********0011' },
              { name: '示例员工乙', idNumberMasked: '3211**********0022' },
            ],
            removed: [{ name: '示例员工丙', idNumberMasked: '3211**********0033' }],
          },
        }),
      },
    });
    renderRoute(<PolicyChangeAudit />, PATTERN, '/piibs/task/policyChange/31');
    const table = await screen.findByTestId('policy-change-comparison');
    const added = within(table).getByText('增加人员').closest('tr')!;
    expect(added).toHaveTextContent('示例员工甲（3211**********0011）、示例员工乙（3211**********0022）');
    const removed = within(table).getByText('减少人员').closest('tr')!;
    expect(removed).toHaveTextContent('示例员工丙（3211**********0033）');
  });

  it('a return carries the opinion; a stale version (409) says so and reloads the request', async () => {
    let loads = 0;
    api = mockApi({
      'GET api/policy-changes/31': () => {
        loads += 1;
        return {
          data: policyChangeView(
            loads > 1
              ? { status: 'RETURNED', statusLabel: '已退回', reviewOpinion: '请补充名单', version: 2 }
              : {},
          ),
        };
      },
      'POST api/policy-changes/31/review': {
        status: 409,
        data: { status: 409, message: '该申请已被他人处理，请刷新后重试' },
      },
    });
    renderRoute(<PolicyChangeAudit />, PATTERN, '/piibs/task/policyChange/31');
    await screen.findByText('批改申请 G202600000031');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('审核意见'), '请补充新增人员名单');
    await user.click(screen.getByRole('button', { name: /退\s*回/ }));
    expect(await screen.findByText('该申请已被他人处理，请刷新后重试')).toBeInTheDocument();
    expect(reviewBody()).toEqual({ decision: 'return', opinion: '请补充新增人员名单', version: 1 });
    // Reloaded: decided by someone else, no decision offered.
    expect(await screen.findByText('该申请已退回，无需审核')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /通\s*过/ })).toBeNull();
    expect(screen.getByText('请补充名单')).toBeInTheDocument();
  });

  it('a request the caller may not see: the server’s words and the way back', async () => {
    api = mockApi({
      'GET api/policy-changes/31': { status: 404, data: { status: 404, message: '批改/退保申请不存在' } },
    });
    renderRoute(<PolicyChangeAudit />, PATTERN, '/piibs/task/policyChange/31');
    expect(await screen.findByText('批改/退保申请不存在')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '返回批改审核' })).toBeInTheDocument();
  });
});
