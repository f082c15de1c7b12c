import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { annualOrderDetail, annualOrderRow, declarationRow } from '../test-data.ts';
import OrderDetail from './OrderDetail.tsx';

const PATTERN = '/piibs/projectManage/orderDetail/:id';
let api: MockApi;

beforeEach(() => signInAs(['contractor'], ['project_order:list', 'project_order:apply']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const page = <T,>(content: T[]) => ({ data: { content, totalElements: content.length } });
const bodyOf = (key: string) => JSON.parse(String(api.callsTo(key).at(-1)?.data));

describe('年度订单详情 (projectManage/orderDetail/:id)', { timeout: 40_000 }, () => {
  it('shows the quota consumed and remaining, the declared projects and the policies; 申报项目 opens apply', async () => {
    api = mockApi({
      'GET api/project-orders/5': { data: annualOrderDetail() },
      'GET api/project-declarations': page([
        declarationRow(),
        declarationRow({
          id: 41,
          number: 'EC2026000041',
          projectName: '滨江花园二期住宅工程',
          status: 'APPROVED',
          statusLabel: '审核通过',
          premiumFen: 3_965_000,
          policyId: 31,
          policyNumber: 'PJZSG202600000031',
        }),
      ]),
    });
    const { router } = renderRoute(<OrderDetail />, PATTERN, '/piibs/projectManage/orderDetail/5');
    expect(await screen.findByTestId('quota-total')).toHaveTextContent('¥500,000.00');
    // 39,650 (approved) + 6,500 (pending) = 46,150 yuan taken; 453,850 left.
    expect(screen.getByTestId('quota-consumed')).toHaveTextContent('¥46,150.00');
    expect(screen.getByTestId('quota-remaining')).toHaveTextContent('¥453,850.00');
    expect(screen.getByText('已用 9.2%')).toBeInTheDocument();

    const row = (await screen.findByText('学府路小学改扩建工程')).closest('tr')!;
    expect(within(row).getByText('待审核')).toBeInTheDocument();
    expect(within(row).getByText('¥6,500.00')).toBeInTheDocument();
    const call = api.callsTo('GET api/project-declarations')[0]!;
    expect(call.params).toMatchObject({ orderId: 5 });
    // The policy issued under the order, in the declared list and in the policies.
    expect(screen.getAllByText('PJZSG202600000031').length).toBe(2);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /申报项目/ }));
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        '/piibs/projectManage/apply/0/false/1/0?orderId=5',
      ),
    );
  });

  it('orderDetail/0 lists the annual orders with what is left of each, and the declared projects', async () => {
    api = mockApi({
      'GET api/project-orders': page([
        annualOrderRow(),
        annualOrderRow({
          id: 6,
          number: 'ND2026000006',
          consumedFen: 0,
          remainingFen: 10_000_000,
          quotaFen: 10_000_000,
        }),
      ]),
      'GET api/project-declarations': page([declarationRow()]),
    });
    renderRoute(<OrderDetail />, PATTERN, '/piibs/projectManage/orderDetail/0');
    const first = (await screen.findByText('ND2026000005')).closest('tr')!;
    expect(within(first).getByText('¥453,850.00')).toBeInTheDocument();
    const second = screen.getByText('ND2026000006').closest('tr')!;
    expect(within(second).getByText('¥100,000.00', { selector: 'strong, strong *' })).toBeInTheDocument();
    expect(await screen.findByText('学府路小学改扩建工程')).toBeInTheDocument();
    // A contractor does not open annual orders.
    expect(screen.queryByRole('button', { name: /新建年度订单/ })).toBeNull();
  });

  it('staff with project_order:edit edit the quota (a 409 shown in the dialog) and close the order', async () => {
    signInAs(['underwriter'], ['project_order:list', 'project_order:add', 'project_order:edit']);
    let updates = 0;
    api = mockApi({
      'GET api/project-orders/5': { data: annualOrderDetail({ openCount: 0, canDeclare: false }) },
      'GET api/project-declarations': page([]),
      'POST api/project-orders/5/update': () => {
        updates += 1;
        return updates === 1
          ? {
              status: 409,
              data: {
                status: 409,
                message: '保费额度：不能低于已占用的保费 ¥46,150.00（拟调整为 ¥40,000.00）',
                errors: [
                  {
                    field: 'quotaFen',
                    message: '不能低于已占用的保费 ¥46,150.00（拟调整为 ¥40,000.00）',
                  },
                ],
              },
            }
          : { data: annualOrderDetail({ quotaFen: 6_000_000, version: 4 }) };
      },
      'POST api/project-orders/5/close': {
        data: annualOrderDetail({
          state: 'CLOSED',
          stateLabel: '已关闭',
          closedAt: '2026-03-01T02:00:00.000Z',
        }),
      },
    });
    renderRoute(<OrderDetail />, PATTERN, '/piibs/projectManage/orderDetail/5');
    const user = userEvent.setup();
    await user.click(await screen.findByText('修改订单'));
    const dialog = await screen.findByRole('dialog');
    const quota = within(dialog).getByLabelText('保费额度');
    expect(quota).toHaveValue('500000.00');
    expect(within(dialog).getByLabelText('联系电话')).toHaveValue('138****5678');
    await user.clear(quota);
    await user.type(quota, '40000');
    await user.click(within(dialog).getByText('确 定').closest('button')!);
    // The server's refusal names the field: shown under it, with the amounts in yuan.
    expect(
      await within(dialog).findByText('不能低于已占用的保费 ¥46,150.00（拟调整为 ¥40,000.00）'),
    ).toBeInTheDocument();
    expect(bodyOf('POST api/project-orders/5/update')).toEqual({
      quotaFen: 4_000_000,
      contactName: '张工',
      contactPhone: '138****5678',
      note: null,
      version: 3,
    });
    await user.clear(quota);
    await user.type(quota, '60000');
    await user.click(within(dialog).getByText('确 定').closest('button')!);
    await waitFor(() => expect(api.callsTo('POST api/project-orders/5/update')).toHaveLength(2));

    await user.click(screen.getByText('关闭订单'));
    await user.click(await screen.findByText('关闭订单', { selector: '.ant-modal-confirm button span' }));
    await waitFor(() => expect(api.callsTo('POST api/project-orders/5/close')).toHaveLength(1));
    expect(bodyOf('POST api/project-orders/5/close')).toEqual({ version: 3 });
  });

  it('without project_order:edit there is no 修改 / 关闭; the source application is linked', async () => {
    api = mockApi({
      'GET api/project-orders/5': {
        data: annualOrderDetail({ applicationId: 12, applicationNumber: 'JZSG2026000012' }),
      },
      'GET api/project-declarations': page([]),
    });
    renderRoute(<OrderDetail />, PATTERN, '/piibs/projectManage/orderDetail/5');
    expect(await screen.findByTestId('order-source-application')).toHaveAttribute(
      'href',
      '/piibs/insured/viewInsurance/12/1',
    );
    expect(screen.queryByText('修改订单')).toBeNull();
    expect(screen.queryByText('关闭订单')).toBeNull();
  });

  it('a closed order says so and offers no 修改 / 关闭, even to staff who may', async () => {
    signInAs(['underwriter'], ['project_order:list', 'project_order:edit']);
    api = mockApi({
      'GET api/project-orders/5': {
        data: annualOrderDetail({
          state: 'CLOSED',
          stateLabel: '已关闭',
          closedAt: '2026-03-01T02:00:00.000Z',
        }),
      },
      'GET api/project-declarations': page([]),
    });
    renderRoute(<OrderDetail />, PATTERN, '/piibs/projectManage/orderDetail/5');
    expect(
      await screen.findByText('该年度订单已关闭：不能再申报项目或批改，已承保项目的保单继续有效'),
    ).toBeInTheDocument();
    expect(screen.queryByText('修改订单')).toBeNull();
  });

  it('answers a missing (or someone else’s) order with the server’s message', async () => {
    api = mockApi({
      'GET api/project-orders/9': { status: 404, data: { status: 404, message: '年度订单不存在' } },
    });
    renderRoute(<OrderDetail />, PATTERN, '/piibs/projectManage/orderDetail/9');
    expect(await screen.findByText('年度订单不存在')).toBeInTheDocument();
  });
});
