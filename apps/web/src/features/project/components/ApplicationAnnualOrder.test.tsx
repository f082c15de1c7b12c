import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { annualOrderDetail, annualOrderRow } from '../test-data.ts';
import { ApplicationAnnualOrder } from './ApplicationAnnualOrder.tsx';

let api: MockApi;
afterEach(() => {
  api?.restore();
  resetKitState();
});

const issued = {
  id: 12,
  channel: 'project' as const,
  productClass: 'construction',
  status: 'ISSUED' as const,
  premiumFen: 1_250_000,
};
const noOrder = { data: { content: [], totalElements: 0 } };

describe('生成年度订单 on an epinsure application', { timeout: 30_000 }, () => {
  it('staff who open annual orders convert an issued application, the quota defaulting to its premium', async () => {
    signInAs(['underwriter'], ['project_order:list', 'project_order:add']);
    api = mockApi({
      'GET api/project-orders': noOrder,
      'POST api/project-orders/from-application/12': {
        data: annualOrderDetail({ id: 9, applicationId: 12 }),
      },
    });
    const { router } = renderWithProviders(<ApplicationAnnualOrder app={issued} />);
    const user = userEvent.setup();
    await user.click(await screen.findByText('生成年度订单'));
    const dialog = await screen.findByRole('dialog');
    const quota = within(dialog).getByLabelText('保费额度');
    expect(quota).toHaveValue('12500.00');
    await user.clear(quota);
    await user.type(quota, '300000');
    await user.click(within(dialog).getByText('生 成').closest('button')!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/projectManage/orderDetail/9'));
    expect(JSON.parse(String(api.callsTo('POST api/project-orders/from-application/12')[0]?.data))).toEqual({
      quotaFen: 30_000_000,
    });
    expect(api.callsTo('GET api/project-orders')[0]?.params).toMatchObject({ applicationId: 12 });
  });

  it('links the order once made; offers nothing before payment, to others, or for other products', async () => {
    signInAs(['contractor'], ['project_order:list']);
    api = mockApi({ 'GET api/project-orders': { data: { content: [annualOrderRow()], totalElements: 1 } } });
    const { unmount } = renderWithProviders(<ApplicationAnnualOrder app={issued} />);
    expect(await screen.findByTestId('application-annual-order')).toHaveTextContent('年度订单 ND2026000005');
    expect(screen.getByTestId('application-annual-order')).toHaveAttribute(
      'href',
      '/piibs/projectManage/orderDetail/5',
    );
    unmount();
    api.restore();

    signInAs(['underwriter'], ['project_order:list', 'project_order:add']);
    api = mockApi({ 'GET api/project-orders': noOrder });
    const unpaid = renderWithProviders(
      <ApplicationAnnualOrder app={{ ...issued, status: 'PENDING_PAYMENT' }} />,
    );
    await waitFor(() => expect(api.callsTo('GET api/project-orders')).toHaveLength(1));
    expect(screen.queryByText('生成年度订单')).toBeNull();
    unpaid.unmount();

    const work = renderWithProviders(
      <ApplicationAnnualOrder app={{ ...issued, channel: 'enterprise', productClass: 'work_safety' }} />,
    );
    expect(screen.queryByText('生成年度订单')).toBeNull();
    work.unmount();
    // Only the one query above: a work-safety application never asks for an annual order.
    expect(api.callsTo('GET api/project-orders')).toHaveLength(1);
  });
});
