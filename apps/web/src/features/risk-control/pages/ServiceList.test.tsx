import { ROLE_CODES } from '@piibs/shared/auth';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { useUserStore } from '@/stores/user.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { orderDetail, orderRow, page, SEQ } from '../test-data.ts';
import ServiceList from './ServiceList.tsx';

const LIST = '/piibs/riskControl/prevention/serviceList';
let api: MockApi;

afterEach(() => {
  api?.restore();
  resetKitState();
  vi.restoreAllMocks();
});

const rowOf = async (number: string) => (await screen.findByText(number)).closest('tr')!;
// Role queries are slow over an antd table: the buttons are read from the DOM.
const buttonsOf = (row: HTMLElement) => [...row.querySelectorAll('button')];
const buttonNames = (row: HTMLElement) => buttonsOf(row).map((b) => b.textContent?.replace(/\s/g, ''));
const button = (row: HTMLElement, name: string) =>
  buttonsOf(row).find((b) => b.textContent?.replace(/\s/g, '') === name)!;

describe('我的服务单', { timeout: 40_000 }, () => {
  it("shows each row's allowed actions only, and posts 接单 with the row's version", async () => {
    signInAs(['service'], ['prevention:list', 'prevention:serve', 'prevention:export']);
    api = mockApi({
      'GET api/prevention/orders': page([
        orderRow({ actions: ['accept', 'reject'] }),
        orderRow({ id: 32, number: `${SEQ}-002`, status: 'IN_SERVICE', actions: ['submit'] }),
        orderRow({ id: 33, number: `${SEQ}-003`, status: 'SUBMITTED', actions: [] }),
      ]),
      [`POST api/prevention/orders/${SEQ}-001/accept`]: { data: orderDetail({ status: 'ACCEPTED' }) },
    });
    const { router } = renderWithProviders(<ServiceList />, LIST);

    const first = await rowOf(`${SEQ}-001`);
    expect(buttonNames(first)).toEqual(['接单', '拒单']);
    expect(within(first).getByText('已派单')).toBeInTheDocument();
    expect(buttonNames(await rowOf(`${SEQ}-002`))).toEqual(['执行服务']);
    // Waiting for the enterprise: nothing for the organisation but 查看 (a link).
    expect(buttonNames(await rowOf(`${SEQ}-003`))).toEqual([]);
    expect(
      within(await rowOf(`${SEQ}-003`))
        .getByText('查看')
        .closest('a'),
    ).toHaveAttribute('href', `/piibs/riskControl/prevention/view/${SEQ}?order=${SEQ}-003`);
    expect(api.callsTo('GET api/prevention/orders')[0]?.params).toEqual({
      page: 0,
      size: 10,
      sort: 'id,desc',
    });

    const user = userEvent.setup();
    await user.click(button(first, '接单'));
    await user.click((await screen.findByText(/^确\s*定$/)).closest('button')!);
    await waitFor(() => expect(api.callsTo(`POST api/prevention/orders/${SEQ}-001/accept`)).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo(`POST api/prevention/orders/${SEQ}-001/accept`)[0]!.data))).toEqual({
      version: 2,
    });

    await user.click(button(await rowOf(`${SEQ}-002`), '执行服务'));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      `/piibs/riskControl/prevention/service/${SEQ}?order=${SEQ}-002`,
    );
  });

  it('offers the enterprise 确认服务 (on the record page), never the organisation’s actions', async () => {
    signInAs([ROLE_CODES.enterprise], ['prevention:list', 'prevention:confirm']);
    api = mockApi({
      'GET api/prevention/orders': page([
        orderRow({ status: 'SUBMITTED', actions: ['confirm', 'return'] }),
        orderRow({ id: 32, number: `${SEQ}-002`, actions: [] }),
      ]),
    });
    const { router } = renderWithProviders(<ServiceList />, LIST);
    const first = await rowOf(`${SEQ}-001`);
    expect(buttonNames(first)).toEqual(['确认服务']);
    expect(buttonNames(await rowOf(`${SEQ}-002`))).toEqual([]);
    // No export permission: no export button.
    expect(screen.queryByText('导出服务档案')).toBeNull();
    expect(screen.queryByText('导出档案PDF')).toBeNull();
    await userEvent.setup().click(button(first, '确认服务'));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      `/piibs/riskControl/prevention/view/${SEQ}?order=${SEQ}-001`,
    );
  });

  it('导出档案PDF asks staff for the enterprise and saves the PDF under the server’s name', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    URL.createObjectURL = vi.fn(() => 'blob:test');
    URL.revokeObjectURL = vi.fn();
    const fileName = `1767225600000-事故预防服务档案-镇江示范机械有限公司.pdf`;
    signInAs(['underwriter'], ['prevention:list', 'prevention:export']);
    api = mockApi({
      'GET api/prevention/orders': page([orderRow()]),
      'GET api/prevention/archive/pdf': {
        data: new Blob(['%PDF-'], { type: 'application/pdf' }),
        headers: { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}` },
      },
    });
    renderWithProviders(<ServiceList />, LIST);
    await rowOf(`${SEQ}-001`);
    expect(screen.getByText('导出服务档案')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByText('导出档案PDF'));
    const dialog = await screen.findByRole('dialog');
    // The only enterprise on screen is offered.
    expect(within(dialog).getByRole('combobox')).toHaveValue('91321100MA1AQFW3KP');
    await user.click(within(dialog).getByText('导出档案PDF'));
    await waitFor(() => expect(saved).toEqual([fileName]));
    const call = api.callsTo('GET api/prevention/archive/pdf')[0]!;
    expect(call.params).toEqual({ uscc: '91321100MA1AQFW3KP' });
    expect(call.responseType).toBe('blob');
    expect(api.callsTo('GET api/prevention/archive/download')).toHaveLength(0);
    expect(await screen.findByText(`已导出 ${fileName}`)).toBeInTheDocument();
  });

  it('leaves out the column naming the account’s own organisation or enterprise; the status follows the service item', async () => {
    const headers = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent?.trim());
    const cases = [
      { channel: 'staff', roles: ['underwriter'], shows: ['投保企业', '服务机构'], omits: [] },
      { channel: 'service', roles: ['service'], shows: ['投保企业'], omits: ['服务机构'] },
      { channel: 'enterprise', roles: [ROLE_CODES.enterprise], shows: ['服务机构'], omits: ['投保企业'] },
    ] as const;
    for (const { channel, roles, shows, omits } of cases) {
      signInAs([...roles], ['prevention:list']);
      useUserStore.setState((s) => ({ user: { ...s.user!, channel } }));
      api = mockApi({ 'GET api/prevention/orders': page([orderRow()]) });
      const view = renderWithProviders(<ServiceList />, LIST);
      await rowOf(`${SEQ}-001`);
      const names = headers();
      for (const name of shows) expect(names, channel).toContain(name);
      for (const name of omits) expect(names, channel).not.toContain(name);
      expect(names.indexOf('状态'), channel).toBe(names.indexOf('服务项目') + 1);
      // Nor is it offered among the columns a user may show again.
      await userEvent.setup().click(screen.getByRole('button', { name: '列设置' }));
      for (const name of omits) expect(screen.queryByRole('checkbox', { name })).toBeNull();
      view.unmount();
      api.restore();
    }
  });

  it('sends the planned-date range as whole days and the filters from the URL', async () => {
    signInAs(['underwriter'], ['prevention:list', 'prevention:plan']);
    api = mockApi({ 'GET api/prevention/orders': page([orderRow({ actions: ['cancel'] })]) });
    renderWithProviders(
      <ServiceList />,
      `${LIST}?status=DISPATCHED&startDate=2026-05-01%2000:00:00&endDate=2026-05-31%2023:59:59`,
    );
    const first = await rowOf(`${SEQ}-001`);
    expect(buttonNames(first)).toEqual(['取消服务单']);
    expect(api.callsTo('GET api/prevention/orders')[0]?.params).toMatchObject({
      status: 'DISPATCHED',
      startDate: '2026-05-01',
      endDate: '2026-05-31',
    });
  });
});
