import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { renderRoute } from '@/components/customer/test-render.tsx';
import { annualOrderDetail, annualOrderRow, declarationRow } from '@/components/project/test-data.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import OrderDetail from './OrderDetail.tsx';

const PATTERN = '/piibs/projectManage/orderDetail/:id';
let api: MockApi;

beforeEach(() => signInAs(['contractor'], ['project_order:list', 'project_order:apply']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const page = <T,>(content: T[]) => ({ data: { content, totalElements: content.length } });

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
    expect(await screen.findByTestId('quota-total')).toHaveTextContent('500,000.00 元');
    // 39,650 (approved) + 6,500 (pending) = 46,150 yuan taken; 453,850 left.
    expect(screen.getByTestId('quota-consumed')).toHaveTextContent('46,150.00 元');
    expect(screen.getByTestId('quota-remaining')).toHaveTextContent('453,850.00 元');
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

  it('answers a missing (or someone else’s) order with the server’s message', async () => {
    api = mockApi({
      'GET api/project-orders/9': { status: 404, data: { status: 404, message: '年度订单不存在' } },
    });
    renderRoute(<OrderDetail />, PATTERN, '/piibs/projectManage/orderDetail/9');
    expect(await screen.findByText('年度订单不存在')).toBeInTheDocument();
  });
});
