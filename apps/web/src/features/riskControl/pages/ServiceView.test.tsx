import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { renderRoute } from '@/components/customer/test-render.tsx';
import { dictAnswer, orderDetail, SEQ } from '@/components/risk-control/test-data.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import ServiceView from './ServiceView.tsx';

const PATTERN = '/piibs/riskControl/prevention/view/:seqNo';
const NUMBER = `${SEQ}-003`;
const URL = `/piibs/riskControl/prevention/view/${SEQ}?order=${NUMBER}`;
let api: MockApi;

afterEach(() => {
  api?.restore();
  resetKitState();
});

const submitted = orderDetail({
  id: 33,
  number: NUMBER,
  status: 'SUBMITTED',
  statusLabel: '待企业确认',
  party: 'enterprise',
  actions: ['confirm', 'return'],
  canComplain: true,
  version: 5,
  serviceDate: '2026-05-10',
  findings: '组织火灾事故应急疏散演练。',
  participants: [{ name: '王振国', side: 'ORG', position: null }],
});

function answers(over: Record<string, unknown> = {}) {
  return {
    [`GET api/prevention/orders/${NUMBER}`]: { data: submitted },
    'GET api/materials': { data: { content: [], totalElements: 0, editable: false, readOnlyReason: null } },
    'GET api/dictDetail': dictAnswer,
    ...over,
  };
}

const body = (key: string) => JSON.parse(String(api.callsTo(key).at(-1)!.data));
const button = async (name: RegExp) => (await screen.findByText(name)).closest('button')!;

describe('服务详情', { timeout: 40_000 }, () => {
  it('the enterprise confirms with a rating: posts the loaded version, then shows the result page', async () => {
    signInAs(['17'], ['prevention:list', 'prevention:confirm']);
    api = mockApi(
      answers({
        [`POST api/prevention/orders/${NUMBER}/confirm`]: {
          data: { ...submitted, status: 'CONFIRMED', version: 6, satisfaction: 4, actions: [] },
        },
      }),
    );
    const { router } = renderRoute(<ServiceView />, PATTERN, URL);
    expect(await screen.findByTestId('order-findings')).toHaveTextContent('组织火灾事故应急疏散演练。');
    const user = userEvent.setup();
    await user.click(await button(/^确认服务$/));
    const dialog = (await screen.findByText('确认服务并评价')).closest('.ant-modal') as HTMLElement;
    const stars = dialog.querySelectorAll('.ant-rate-star > div');
    await user.click(stars[3]!);
    await user.type(within(dialog).getByLabelText('评价'), '服务专业');
    await user.click(
      within(dialog)
        .getByText(/^确\s*定$/)
        .closest('button')!,
    );

    await waitFor(() => expect(api.callsTo(`POST api/prevention/orders/${NUMBER}/confirm`)).toHaveLength(1));
    expect(body(`POST api/prevention/orders/${NUMBER}/confirm`)).toEqual({
      version: 5,
      satisfaction: 4,
      comment: '服务专业',
    });
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        `/piibs/riskControl/prevention/success/${SEQ}?order=${NUMBER}`,
      ),
    );
  });

  it('sends back with an opinion; a 409 reloads the order and says so in the dialog', async () => {
    signInAs(['17'], ['prevention:list', 'prevention:confirm']);
    api = mockApi(
      answers({
        [`POST api/prevention/orders/${NUMBER}/return`]: {
          status: 409,
          data: { status: 409, message: '服务单已被他人修改，请刷新后重试' },
        },
      }),
    );
    renderRoute(<ServiceView />, PATTERN, URL);
    const user = userEvent.setup();
    await user.click(await button(/^退回服务记录$/));
    const dialog = (await screen.findByText('退回意见')).closest('.ant-modal') as HTMLElement;
    await user.type(within(dialog).getByLabelText('退回意见'), '请补充配电房检查情况');
    await user.click(
      within(dialog)
        .getByText(/^确\s*定$/)
        .closest('button')!,
    );
    expect(await within(dialog).findByText(/服务单已被他人修改/)).toBeInTheDocument();
    expect(body(`POST api/prevention/orders/${NUMBER}/return`)).toEqual({
      version: 5,
      opinion: '请补充配电房检查情况',
    });
    await waitFor(() => expect(api.callsTo(`GET api/prevention/orders/${NUMBER}`).length).toBeGreaterThan(1));
  });

  it('the organisation sees no confirmation, and marks an open hazard 已整改 after it', async () => {
    signInAs(['service'], ['prevention:list', 'prevention:serve']);
    api = mockApi(
      answers({
        [`GET api/prevention/orders/${NUMBER}`]: {
          data: {
            ...submitted,
            status: 'CONFIRMED',
            party: 'org',
            actions: [],
            canComplain: false,
            canRectify: true,
            hazards: [
              {
                id: 81,
                seq: 1,
                description: '三楼应急照明灯故障',
                location: '办公楼三楼',
                level: 'GENERAL',
                levelLabel: '一般',
                measure: null,
                deadline: '2026-05-20',
                status: 'OPEN',
                statusLabel: '待整改',
                rectifiedDate: null,
                rectifyNote: null,
                overdue: false,
              },
            ],
          },
        },
        [`POST api/prevention/orders/${NUMBER}/hazards/81/rectify`]: {
          data: { ...submitted, status: 'CLOSED' },
        },
      }),
    );
    renderRoute(<ServiceView />, PATTERN, URL);
    expect(await screen.findByText('三楼应急照明灯故障')).toBeInTheDocument();
    expect(screen.queryByText('确认服务')).toBeNull();
    const user = userEvent.setup();
    await user.click(await button(/^已整改$/));
    const dialog = (await screen.findByText(/^登记隐患整改/)).closest('.ant-modal') as HTMLElement;
    await user.click(
      within(dialog)
        .getByText(/^确\s*定$/)
        .closest('button')!,
    );
    await waitFor(() =>
      expect(api.callsTo(`POST api/prevention/orders/${NUMBER}/hazards/81/rectify`)).toHaveLength(1),
    );
    expect(body(`POST api/prevention/orders/${NUMBER}/hazards/81/rectify`)).toMatchObject({
      version: 5,
      note: null,
    });
  });

  it('shows the 404 page for an order the caller may not see', async () => {
    signInAs(['service'], ['prevention:list', 'prevention:serve']);
    api = mockApi(
      answers({
        [`GET api/prevention/orders/${NUMBER}`]: {
          status: 404,
          data: { status: 404, message: '服务单不存在' },
        },
      }),
    );
    renderRoute(<ServiceView />, PATTERN, URL);
    expect(await screen.findByText('服务单不存在或无权查看')).toBeInTheDocument();
    expect(screen.getByText('返回我的服务单')).toBeInTheDocument();
  });
});
