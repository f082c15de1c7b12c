import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { customerRow, dictAnswer, page } from '../test-data.ts';
import CustomerList from './CustomerList.tsx';

let api: MockApi;

afterEach(() => {
  api?.restore();
  resetKitState();
});

describe('客户列表', { timeout: 40_000 }, () => {
  beforeEach(() => signInAs(['underwriter'], ['customer:list', 'customer:add', 'customer:edit']));

  it('lists customers with 0-based paging, masked phones and the review label', async () => {
    api = mockApi({
      'GET api/customers': page([
        customerRow(),
        customerRow({ id: 8, name: '退回的公司', reviewStatus: 'returned' }),
      ]),
      'GET api/dictDetail': dictAnswer,
    });
    renderWithProviders(<CustomerList />, '/piibs/applicant/list');
    expect(await screen.findByText('镇江示范机械有限公司')).toBeInTheDocument();
    expect(screen.getAllByText('138****5678')).toHaveLength(2);
    // Without customer:unmask the phones stay masked, with nothing to reveal them.
    expect(screen.queryAllByRole('button', { name: '查看完整号码' })).toHaveLength(0);
    expect(screen.getAllByText('待审核').length).toBeGreaterThan(0);
    expect(screen.getByText('已退回')).toBeInTheDocument();
    expect(api.callsTo('GET api/customers')[0]?.params).toEqual({
      page: 0,
      size: 10,
      sort: 'updatedAt,desc',
    });
  });

  it('searches by keyword; 查看 / 编辑 / 新增 open the customer page', async () => {
    api = mockApi({ 'GET api/customers': page([customerRow()]), 'GET api/dictDetail': dictAnswer });
    const { router } = renderWithProviders(<CustomerList />, '/piibs/applicant/list');
    await screen.findByText('镇江示范机械有限公司');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('关键词'), '镇江');
    await user.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() =>
      expect(api.callsTo('GET api/customers').at(-1)?.params).toMatchObject({ blurry: '镇江', page: 0 }),
    );

    const row = (await screen.findByText('镇江示范机械有限公司')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    expect(router.state.location.pathname).toBe('/piibs/applicant/newUpdate/7/false');
    await router.navigate(-1);
    await user.click(
      within((await screen.findByText('镇江示范机械有限公司')).closest('tr')!).getByRole('button', {
        name: /查\s*看/,
      }),
    );
    expect(router.state.location.pathname).toBe('/piibs/applicant/newUpdate/7/true');
    await router.navigate(-1);
    await user.click(await screen.findByRole('button', { name: /新\s*增/ }));
    expect(router.state.location.pathname).toBe('/piibs/applicant/newUpdate/0/false');
  });

  it('holders of customer:unmask reveal one row’s full phone from the server', async () => {
    api = mockApi({
      'GET api/customers': page([customerRow(), customerRow({ id: 8, name: '另一家公司' })]),
      'GET api/dictDetail': dictAnswer,
      'POST api/customers/8/unmask': { data: { phone: '13900008888' } },
    });
    signInAs(['underwriter'], ['customer:list', 'customer:unmask']);
    renderWithProviders(<CustomerList />, '/piibs/applicant/list');
    const row = (await screen.findByText('另一家公司')).closest('tr')!;
    expect(screen.getAllByRole('button', { name: '查看完整号码' })).toHaveLength(2);
    await userEvent.setup().click(within(row).getByRole('button', { name: '查看完整号码' }));
    expect(await within(row).findByText('13900008888')).toBeInTheDocument();
    expect(screen.getAllByText('138****5678')).toHaveLength(1);
    expect(api.callsTo('POST api/customers/8/unmask')).toHaveLength(1);
  });

  it('agents open customers under their own route', async () => {
    signInAs(['agent'], ['customer:list', 'customer:edit']);
    api = mockApi({ 'GET api/customers': page([customerRow()]), 'GET api/dictDetail': dictAnswer });
    const { router } = renderWithProviders(<CustomerList />, '/piibs/applicant/list');
    const row = (await screen.findByText('镇江示范机械有限公司')).closest('tr')!;
    await userEvent.setup().click(within(row).getByRole('button', { name: /编\s*辑/ }));
    expect(router.state.location.pathname).toBe('/piibs/agent/applicant/newUpdate/7/false');
  });
});
