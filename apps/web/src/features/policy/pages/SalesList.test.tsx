import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { pageOf, policySales, salesDictAnswer, salesRow, supplement } from '../test-data.ts';
import { SalesList } from './SalesList.tsx';

let api: MockApi;

beforeEach(() => signInAs(['agent'], ['sales:list', 'sales:edit']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const done = salesRow({
  policyId: 12,
  number: 'PAZX202600000012',
  holderName: '已补录的公司',
  supplementStatus: 'DONE',
  supplementStatusLabel: '已补录',
  supplementId: 3,
  variant: 'STANDARD',
  salespersonName: '王销售',
  salespersonNo: 'S0001',
  commissionRate: 2_500_000,
  commissionRateText: '2.5',
  version: 2,
});

describe('补录资料 lists', { timeout: 40_000 }, () => {
  it('shows 未补录 / 已补录; 补录 opens the form, 查看 the read-only one', async () => {
    api = mockApi({ 'GET api/sales': pageOf([salesRow(), done]), 'GET api/dictDetail': salesDictAnswer });
    const { router } = renderWithProviders(<SalesList mode="supplement" />, '/piibs/policy/marge/xxt');
    const fresh = (await screen.findByText('镇江示范机械有限公司')).closest('tr')!;
    expect(within(fresh).getByText('未补录')).toBeInTheDocument();
    const supplemented = screen.getByText('已补录的公司').closest('tr')!;
    expect(within(supplemented).getByText('已补录')).toBeInTheDocument();
    expect(within(supplemented).getByText('王销售（S0001）')).toBeInTheDocument();
    expect(within(supplemented).getByText('2.5%')).toBeInTheDocument();
    expect(api.callsTo('GET api/sales')[0]?.params).toEqual({ page: 0, size: 10 });

    const user = userEvent.setup();
    await user.click(within(fresh).getByRole('button', { name: /补\s*录/ }));
    expect(router.state.location.pathname).toBe('/piibs/policy/marge/11/false');
    await router.navigate(-1);
    await user.click(
      within((await screen.findByText('已补录的公司')).closest('tr')!).getByRole('button', {
        name: /查\s*看/,
      }),
    );
    expect(router.state.location.pathname).toBe('/piibs/policy/marge/12/true');
  });

  it('filters by supplement status', async () => {
    api = mockApi({ 'GET api/sales': pageOf([salesRow()]), 'GET api/dictDetail': salesDictAnswer });
    renderWithProviders(<SalesList mode="supplement" />, '/piibs/policy/marge/xxt?status=NONE');
    await screen.findByText('镇江示范机械有限公司');
    expect(api.callsTo('GET api/sales')[0]?.params).toMatchObject({ status: 'NONE' });
  });

  it('the NBNMG list opens the form with ?variant=NBNMG', async () => {
    api = mockApi({ 'GET api/sales': pageOf([salesRow()]), 'GET api/dictDetail': salesDictAnswer });
    const { router } = renderWithProviders(
      <SalesList mode="supplement" variant="NBNMG" />,
      '/piibs/policy/marge/NBNMG',
    );
    const row = (await screen.findByText('镇江示范机械有限公司')).closest('tr')!;
    await userEvent.setup().click(within(row).getByRole('button', { name: /补\s*录/ }));
    expect(router.state.location.pathname).toBe('/piibs/policy/marge/11/false');
    expect(router.state.location.search).toBe('?variant=NBNMG');
  });

  it('without sales:edit there is no 补录 button', async () => {
    signInAs(['underwriter'], ['sales:list']);
    api = mockApi({ 'GET api/sales': pageOf([salesRow()]), 'GET api/dictDetail': salesDictAnswer });
    renderWithProviders(<SalesList mode="supplement" />, '/piibs/policy/marge/xxt');
    const row = (await screen.findByText('镇江示范机械有限公司')).closest('tr')!;
    expect(within(row).queryByRole('button', { name: /补\s*录/ })).toBeNull();
  });
});

describe('修改销售信息', { timeout: 40_000 }, () => {
  it('lists supplemented policies and changes the salesperson with a reason', async () => {
    api = mockApi({
      'GET api/sales': pageOf([done]),
      'GET api/dictDetail': salesDictAnswer,
      'GET api/policies/12/sales': { data: policySales({ supplement: supplement({ policyId: 12 }) }) },
      'POST api/policies/12/sales/salesperson': {
        status: 400,
        data: {
          status: 400,
          message: '变更原因：不能超过 200 个字符',
          errors: [{ field: 'reason', message: '不能超过 200 个字符' }],
        },
      },
    });
    renderWithProviders(<SalesList mode="updateSale" />, '/piibs/policy/marge/updateSale');
    const row = (await screen.findByText('已补录的公司')).closest('tr')!;
    expect(api.callsTo('GET api/sales')[0]?.params).toMatchObject({ status: 'DONE' });
    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: '修改销售人员' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('王销售（S0001）')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('新销售人员姓名'), '李销售');
    await user.type(within(dialog).getByLabelText('新销售人员工号'), 'S0002');
    await user.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    // The reason is required before anything is sent.
    expect(await within(dialog).findByText('请填写变更原因')).toBeInTheDocument();
    expect(api.callsTo('POST api/policies/12/sales/salesperson')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('变更原因'), '岗位调整');
    await user.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('不能超过 200 个字符')).toHaveClass('ant-form-item-explain-error');
    await waitFor(() => expect(api.callsTo('POST api/policies/12/sales/salesperson')).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo('POST api/policies/12/sales/salesperson')[0]?.data))).toEqual({
      version: 2,
      salespersonName: '李销售',
      salespersonNo: 'S0002',
      reason: '岗位调整',
    });
  });
});
