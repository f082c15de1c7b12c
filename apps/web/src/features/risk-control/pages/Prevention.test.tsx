import { shanghaiToday } from '@piibs/shared/application-status';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { onPhone } from '@/test/phone.ts';
import { fundPercents } from '../components/FundSummary.tsx';
import { fund, orderDetail, page, planDetail, planItem, SEQ } from '../test-data.ts';
import Prevention from './Prevention.tsx';

const PATTERN = '/piibs/riskControl/prevention/index/:seqNo';
const URL = `/piibs/riskControl/prevention/index/${SEQ}`;
let api: MockApi;

afterEach(() => {
  api?.restore();
  resetKitState();
  vi.restoreAllMocks();
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

  it('on a phone the ledger is a card per movement, its amounts labelled', async () => {
    onPhone();
    signInAs(['underwriter'], ['prevention:list', 'prevention:plan']);
    api = mockApi(answers());
    renderRoute(<Prevention />, PATTERN, URL);
    const ledger = await screen.findByTestId('ledger');
    await within(ledger).findByText('计划预留');
    expect(within(ledger).queryByRole('table')).toBeNull();
    const [entry] = within(within(ledger).getByRole('list', { name: '台账记录列表' })).getAllByRole(
      'listitem',
    );
    expect(within(entry!).getByText('剩余（后）').nextElementSibling).toHaveTextContent('¥8,000.00');
    expect(within(entry!).getByText('操作人').nextElementSibling).toHaveTextContent('核保员');
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
      scheduledDates: [],
    });
  });

  // The date picker's popup opens with antd's slide motion even with motion off, and on a loaded CI machine the
  // first click on 确定 is now and then taken as the click that closes it (once in four full runs): a retry,
  // reported by vitest, rather than a red build for a race the user cannot meet (a person clicks again).
  describe('planned dates', { timeout: 60_000, retry: 2 }, () => {
    // A period starting two months from now: its first month is what the date panel opens on.
    const start = dayjs(shanghaiToday()).add(2, 'month').startOf('month');
    const day = (months: number, date: number) => start.add(months, 'month').date(date).format('YYYY-MM-DD');
    const period = {
      startDate: day(0, 1),
      endDate: start.add(1, 'year').subtract(1, 'day').format('YYYY-MM-DD'),
    };
    const dated = planItem({ times: 4, liveOrders: 1, scheduledDates: [day(1, 5), day(0, 5)] });
    const plan = planDetail({ ...period, items: [dated] });
    const ITEMS = `POST api/prevention/plans/${SEQ}/items`;
    const UPDATE = `POST api/prevention/plans/${SEQ}/items/5/update`;

    function setUp() {
      signInAs(['underwriter'], ['prevention:list', 'prevention:plan']);
      api = mockApi(
        answers({
          [`GET api/prevention/plans/${SEQ}`]: { data: plan },
          [ITEMS]: { data: plan },
          [UPDATE]: { data: plan },
          [`POST api/prevention/plans/${SEQ}/orders`]: { data: orderDetail() },
        }),
      );
      renderRoute(<Prevention />, PATTERN, URL);
      return userEvent.setup();
    }

    /** Opens the dialog's date picker, clicks days of the month it shows and closes it by a click outside. */
    async function pickDays(user: ReturnType<typeof userEvent.setup>, ...days: string[]) {
      const dialog = await screen.findByRole('dialog', { hidden: false });
      const item = within(dialog).getByText('计划日期', { selector: 'label' }).closest('.ant-form-item')!;
      await user.click(item.querySelector<HTMLElement>('.ant-picker')!);
      for (const d of days) {
        const cell = await waitFor(() => {
          const found = document.querySelector<HTMLElement>(`.ant-picker-dropdown td[title="${d}"]`);
          expect(found).not.toBeNull();
          return found!;
        });
        await user.click(cell);
      }
      await user.click(within(dialog).getByText(/^(新增|修改)服务项目$/));
    }

    const bodyOf = (key: string) => JSON.parse(String(api.callsTo(key)[0]!.data));

    it('shows the planned dates of an item in the plan table, sorted', async () => {
      setUp();
      const table = await screen.findByTestId('plan-items');
      expect(within(table).getByText(`${day(0, 5)}、${day(1, 5)}`)).toBeInTheDocument();
    });

    it('refuses more dates than times with the shared message, then sends the dates sorted', async () => {
      const user = setUp();
      await user.click((await screen.findByText('新增服务项目')).closest('button')!);
      await user.click(await screen.findByLabelText('服务项目'));
      await user.click(await screen.findByTitle('安全培训'));
      await user.type(screen.getByLabelText('单次费用（元）'), '100');
      await user.click(screen.getByLabelText('服务机构'));
      await user.click(await screen.findByTitle(ORG.name));
      // 一次 → 1 time, two dates picked.
      await pickDays(user, day(0, 20), day(0, 10));
      await user.click(screen.getByText(/^确\s*定$/).closest('button')!);
      expect(await screen.findByText('不能多于计划次数（1 次），已选 2 个日期')).toBeInTheDocument();
      expect(api.callsTo(ITEMS)).toHaveLength(0);
      // Two times allow both.
      await user.clear(screen.getByLabelText('计划次数'));
      await user.type(screen.getByLabelText('计划次数'), '2');
      await user.click(screen.getByText(/^确\s*定$/).closest('button')!);
      await waitFor(() => expect(api.callsTo(ITEMS)).toHaveLength(1));
      expect(bodyOf(ITEMS)).toMatchObject({ times: 2, scheduledDates: [day(0, 10), day(0, 20)] });
    });

    it('an edit sends the stored dates back, with any added', async () => {
      const user = setUp();
      const table = await screen.findByTestId('plan-items');
      await user.click(within(table).getByText('修改').closest('button')!);
      const dialog = await screen.findByRole('dialog', { hidden: false });
      const cost = within(dialog).getByLabelText('单次费用（元）');
      await user.clear(cost);
      await user.type(cost, '600');
      await pickDays(user, day(0, 15));
      await user.click(
        within(dialog)
          .getByText(/^确\s*定$/)
          .closest('button')!,
      );
      await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
      expect(bodyOf(UPDATE)).toMatchObject({
        unitCostFen: 60_000,
        version: 1,
        scheduledDates: [day(0, 5), day(0, 15), day(1, 5)],
      });
    });

    it('dispatch defaults to the next planned date not yet dispatched', async () => {
      const user = setUp();
      const table = await screen.findByTestId('plan-items');
      await user.click(within(table).getByText('派单').closest('button')!);
      const dialog = await screen.findByRole('dialog', { hidden: false });
      // One order is live: the first date is taken, the second comes next.
      expect(within(dialog).getByLabelText('计划服务日期')).toHaveValue(day(1, 5));
      await user.click(
        within(dialog)
          .getAllByText(/^派\s*单$/)
          .at(-1)!
          .closest('button')!,
      );
      await waitFor(() => expect(api.callsTo(`POST api/prevention/plans/${SEQ}/orders`)).toHaveLength(1));
      expect(bodyOf(`POST api/prevention/plans/${SEQ}/orders`)).toMatchObject({
        planItemId: 5,
        scheduledDate: day(1, 5),
      });
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
