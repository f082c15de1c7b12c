import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { renderRoute } from '@/components/customer/test-render.tsx';
import { fundPercents } from '@/components/risk-control/FundSummary.tsx';
import { fund, page, planDetail, SEQ } from '@/components/risk-control/test-data.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import Prevention from './Prevention.tsx';

const PATTERN = '/piibs/riskControl/prevention/index/:seqNo';
const URL = `/piibs/riskControl/prevention/index/${SEQ}`;
let api: MockApi;

afterEach(() => {
  api?.restore();
  resetKitState();
});

const ORG = {
  id: 3,
  name: '镇江安泰安全技术服务有限公司',
};

function answers(over: Record<string, unknown> = {}) {
  return {
    [`GET api/prevention/plans/${SEQ}`]: { data: planDetail() },
    [`GET api/prevention/plans/${SEQ}/ledger`]: {
      data: {
        fund: fund(),
        entries: [
          {
            id: 1,
            kind: 'RESERVE',
            kindLabel: '计划预留',
            amountFen: 200_000,
            plannedDeltaFen: 200_000,
            spentDeltaFen: 0,
            plannedAfterFen: 200_000,
            spentAfterFen: 0,
            leftAfterFen: 800_000,
            planItemId: 5,
            orderId: null,
            orderNumber: null,
            note: '隐患排查',
            actorName: '核保员',
            at: '2026-05-01T02:00:00.000Z',
          },
        ],
      },
    },
    'GET api/prevention/orders': page([]),
    'GET api/service-orgs': page([ORG]),
    'GET api/service-persons': page([]),
    ...over,
  };
}

const text = (id: string) => screen.getByTestId(id).textContent?.replace(/\s/g, '');

describe('事故预防', { timeout: 40_000 }, () => {
  it('shows the fund in yuan: total, planned, spent, left and the share no longer free', async () => {
    signInAs(['underwriter'], ['prevention:list', 'prevention:plan']);
    api = mockApi(answers());
    renderRoute(<Prevention />, PATTERN, URL);
    expect(await screen.findByTestId('plan-seqno')).toHaveTextContent(SEQ);
    // 10 000 total, 2 500 planned, 1 250 spent → 6 250 left; (2 500 + 1 250) / 10 000 = 37.5 %.
    expect(text('fund-total')).toContain('¥10,000.00');
    expect(text('fund-planned')).toContain('¥2,500.00');
    expect(text('fund-spent')).toContain('¥1,250.00');
    expect(text('fund-left')).toContain('¥6,250.00');
    expect(screen.getByText('已使用（含预留）37.5%')).toBeInTheDocument();
    expect(screen.getByText('15%')).toBeInTheDocument();
    // The ledger's amounts after each entry.
    expect(await screen.findByText('计划预留')).toBeInTheDocument();
    expect(within(screen.getByTestId('ledger')).getByText('¥8,000.00')).toBeInTheDocument();
  });

  it('computes the percentages of the total (spent, and spent + planned), never above 100', () => {
    expect(fundPercents(fund())).toEqual({ used: 37.5, spent: 12.5 });
    expect(fundPercents(fund({ totalFen: 300, plannedFen: 100, spentFen: 0 }))).toEqual({
      used: 33.3,
      spent: 0,
    });
    expect(fundPercents(fund({ totalFen: 0, plannedFen: 0, spentFen: 0 }))).toEqual({ used: 0, spent: 0 });
    expect(fundPercents(fund({ totalFen: 100, plannedFen: 0, spentFen: 100 }))).toEqual({
      used: 100,
      spent: 100,
    });
  });

  it('adds a plan item with the unit cost typed in yuan and sent in fen', async () => {
    signInAs(['underwriter'], ['prevention:list', 'prevention:plan']);
    api = mockApi(
      answers({ [`POST api/prevention/plans/${SEQ}/items`]: { data: planDetail({ itemCount: 2 }) } }),
    );
    renderRoute(<Prevention />, PATTERN, URL);
    const user = userEvent.setup();
    await user.click((await screen.findByText('新增服务项目')).closest('button')!);
    await user.click(await screen.findByLabelText('服务项目'));
    await user.click(await screen.findByTitle('安全培训'));
    await user.type(screen.getByLabelText('单次费用（元）'), '1200.5');
    await user.click(screen.getByLabelText('服务机构'));
    await user.click(await screen.findByTitle(ORG.name));
    await user.click((await screen.findByText(/^确\s*定$/)).closest('button')!);
    await waitFor(() => expect(api.callsTo(`POST api/prevention/plans/${SEQ}/items`)).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo(`POST api/prevention/plans/${SEQ}/items`)[0]!.data))).toEqual({
      itemType: 'SAFETY_TRAINING',
      content: null,
      frequency: 'ONCE',
      times: 1,
      unitCostFen: 120_050,
      orgId: 3,
      personIds: [],
    });
  });

  it('answers 404 for a record the caller may not see', async () => {
    signInAs(['service'], ['prevention:list']);
    api = mockApi(
      answers({
        [`GET api/prevention/plans/${SEQ}`]: {
          status: 404,
          data: { status: 404, message: '事故预防记录不存在' },
        },
      }),
    );
    renderRoute(<Prevention />, PATTERN, URL);
    expect(await screen.findByText('事故预防记录不存在或无权查看')).toBeInTheDocument();
  });
});
