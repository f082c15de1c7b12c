import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { ROLE_CODES } from '@piibs/shared/auth';
import { TOKEN_KEY } from '@piibs/shared/constants';
import type { DashboardAnswer } from '@piibs/shared/dashboard';
import type { MenuRoute } from '@piibs/shared/menu';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { dropEarly, EARLY_DASHBOARD_URL, requestEarly } from '@/lib/early-requests.ts';
import type { SentRequest } from '@/lib/http.ts';
import { usePermissionStore } from '@/stores/permission.ts';
import { type MockApi, mockApi, settle } from '@/test/mock-api.ts';
import { onPhone } from '@/test/phone.ts';
import DashboardPage from './DashboardPage.tsx';

/** The drawn chart (an SVG image) of the card titled `title`. */
const chartOf = (title: string) =>
  within(screen.getByRole('region', { name: title })).getByRole('img', { name: new RegExp(`^${title}，`) });
/** Every chart drawn in an element. */
const chartsIn = (element: HTMLElement) => element.querySelectorAll('svg[role="img"]');

const today = shanghaiToday();
const page = (title: string, path: string, component: string, hidden = false): MenuRoute => ({
  path,
  component,
  hidden,
  meta: { title, icon: 'list' },
});
const MENUS: MenuRoute[] = [
  {
    path: '/piibs/task',
    component: 'Layout',
    meta: { title: '审核任务', icon: 'audit' },
    children: [page('审核任务', 'list', 'task/TaskList')],
  },
  {
    path: '/piibs/insured',
    component: 'Layout',
    meta: { title: '投保管理', icon: 'form' },
    children: [page('在线投保', 'stepOne/0/1', 'insured/StepOne')],
  },
  {
    path: '/piibs/epinsure',
    component: 'Layout',
    meta: { title: '投保单管理', icon: 'project' },
    children: [page('投保单列表', 'insureList', 'epinsure/InsureList')],
  },
];

const periods = (from: string, n: number) => Array.from({ length: n }, (_, i) => addDays(from, i));

function staffAnswer(from: string, to: string): DashboardAnswer {
  const days = periods(from, Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1);
  return {
    range: { from, to, days: days.length, granularity: 'day' },
    generatedAt: new Date().toISOString(),
    review: {
      kinds: [
        { kind: 'customer', label: '投保人信息审核' },
        { kind: 'application', label: '投保单审核' },
      ],
      openTotal: 3,
      oldestAgeSeconds: 5 * 86_400,
      byAge: [
        { bucket: 'lt1h', label: '1 小时内', customer: 1, application: 0, tender: 0, total: 1 },
        { bucket: 'h1to24', label: '1–24 小时', customer: 0, application: 1, tender: 0, total: 1 },
        { bucket: 'd1to3', label: '1–3 天', customer: 0, application: 0, tender: 0, total: 0 },
        { bucket: 'gt3d', label: '超过 3 天', customer: 1, application: 0, tender: 0, total: 1 },
      ],
      decisions: days.map((period, i) => ({
        period,
        approve: i === days.length - 1 ? 7 : 0,
        return: i === 0 ? 2 : 0,
        reject: 0,
      })),
      decisionTotals: { approve: 7, return: 2, reject: 0 },
    },
    management: {
      totals: { premiumFen: 3_480_000, paidFen: 3_480_000, policies: 3 },
      premiumTrend: days.map((period, i) => ({
        period,
        premiumFen: i === days.length - 1 ? 3_480_000 : 0,
        policies: i === days.length - 1 ? 3 : 0,
      })),
      byProduct: [
        {
          productId: 1,
          productCode: 'AZX_GM_2025',
          productName: '安全生产责任保险（工贸行业）',
          premiumFen: 3_480_000,
          policies: 3,
        },
      ],
      coinsurance: [],
      prevention: {
        policies: 3,
        totalFen: 600_000,
        plannedFen: 150_000,
        spentFen: 120_000,
        leftFen: 330_000,
      },
      serviceOrders: [
        { status: 'DISPATCHED', label: '已派单', count: 2 },
        { status: 'CLOSED', label: '已完成', count: 1 },
      ],
    },
    system: {
      database: { up: true, latencyMs: 1.2 },
      sessionsOnline: 4,
      usersOnline: 3,
      signIns: days.map((period) => ({ period, success: 1, failure: 0 })),
      signInTotals: { success: days.length, failure: 0 },
    },
  };
}

const RISK_MENU: MenuRoute = {
  path: '/piibs/riskControl',
  component: 'Layout',
  meta: { title: '风险管控', icon: 'shield' },
  children: [
    page('我的服务单', 'prevention/serviceList', 'riskControl/ServiceList'),
    page('服务机构', 'prevention/expert', 'riskControl/Expert'),
  ],
};

/** An answer over the last 30 days with the sections given. */
function answerOf(sections: Pick<DashboardAnswer, 'business' | 'service'>): DashboardAnswer {
  return {
    range: { from: addDays(today, -29), to: today, days: 30, granularity: 'day' },
    generatedAt: new Date().toISOString(),
    ...sections,
  };
}

function serviceAnswer(service: Omit<NonNullable<DashboardAnswer['service']>, 'org'>): DashboardAnswer {
  return answerOf({ service: { org: { id: 7, name: '镇江安全生产服务中心' }, ...service } });
}

let api: MockApi;
const dashboardCalls = () => api.callsTo('GET api/dashboard');
const paramsOf = (config: SentRequest | undefined) => config?.params ?? null;

beforeEach(() => {
  // The figures are asked for only with a session token in storage (the http client sends it).
  localStorage.setItem(TOKEN_KEY, 't');
  usePermissionStore.getState().setMenus(MENUS);
});
afterEach(() => {
  api?.restore();
  dropEarly();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  usePermissionStore.getState().reset();
  resetKitState();
});

describe('首页 (dashboard)', { timeout: 30_000 }, () => {
  it('keeps the welcome and the shortcuts, and shows the sections the server answers', async () => {
    signInAs(['admin']);
    api = mockApi({
      'GET api/dashboard': () => ({ data: staffAnswer(addDays(today, -29), today) }),
    });
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    expect(screen.getByRole('heading', { name: '欢迎使用财产保险互联网出单系统' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: '快捷入口' })).toBeInTheDocument();

    expect(await screen.findByRole('region', { name: '审核工作' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '经营概况' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '系统状态' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: '我的业务' })).toBeNull();
    // The default range is no parameters (the server's last 30 days).
    expect(paramsOf(dashboardCalls()[0])).toBeNull();

    const review = within(screen.getByRole('region', { name: '审核工作' }));
    expect(review.getByText('待审核任务').nextSibling).toHaveTextContent('3');
    expect(review.getByText('5 天')).toBeInTheDocument();
    // No co-insured policies: an empty state, not an empty chart.
    expect(screen.getByText('所选期间没有共保保单')).toBeInTheDocument();
    // The prevention fund: spent, planned, not yet planned (the table adds up to the total).
    const fund = screen.getByRole('region', { name: '事故预防费用' });
    await userEvent.click(within(fund).getByText('表格'));
    const fundCells = within(within(fund).getByRole('table'))
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(fundCells).toEqual([
      ['已使用', '¥1,200.00', '20.0%'],
      ['已安排未使用', '¥1,500.00', '25.0%'],
      ['未安排', '¥3,300.00', '55.0%'],
    ]);
    expect(screen.getAllByRole('link', { name: '去审核任务' })[0]).toHaveAttribute(
      'href',
      '/piibs/task/list',
    );
  });

  it('a tab opened on the dashboard shows the figures asked with its first requests, without asking again', async () => {
    signInAs(['admin']);
    api = mockApi({
      'GET api/dashboard': () => ({ data: staffAnswer(addDays(today, -29), today) }),
    });
    const early = staffAnswer(addDays(today, -29), today);
    vi.stubGlobal('fetch', async () => Response.json(early));
    requestEarly([EARLY_DASHBOARD_URL]);
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    expect(await screen.findByRole('region', { name: '审核工作' })).toBeInTheDocument();
    expect(dashboardCalls()).toEqual([]);
  });

  it('a failed early request is asked again through the client', async () => {
    signInAs(['admin']);
    api = mockApi({
      'GET api/dashboard': () => ({ data: staffAnswer(addDays(today, -29), today) }),
    });
    vi.stubGlobal('fetch', async () => Response.json({ message: '服务器繁忙' }, { status: 503 }));
    requestEarly([EARLY_DASHBOARD_URL]);
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    expect(await screen.findByRole('region', { name: '审核工作' })).toBeInTheDocument();
    expect(dashboardCalls()).toHaveLength(1);
  });

  it('the range shortcuts go into the URL and the query', async () => {
    signInAs(['admin']);
    api = mockApi({
      'GET api/dashboard': (config) => {
        const p = config.params as { from?: string; to?: string } | undefined;
        return { data: staffAnswer(p?.from ?? addDays(today, -29), p?.to ?? today) };
      },
    });
    const { search } = renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    await screen.findByRole('region', { name: '审核工作' });

    await userEvent.click(screen.getByText('近7天'));
    await waitFor(() => expect(search().get('from')).toBe(addDays(today, -6)));
    expect(search().get('to')).toBe(today);
    await waitFor(() =>
      expect(paramsOf(dashboardCalls().at(-1))).toEqual({ from: addDays(today, -6), to: today }),
    );
    // Seven days drawn: the summary lists each of them for every series.
    await waitFor(() =>
      expect(
        chartOf('审核结论')
          .getAttribute('aria-label')
          ?.match(/\d\d-\d\d/g),
      ).toHaveLength(3 * 7),
    );

    await userEvent.click(screen.getByText('今天'));
    await waitFor(() => expect(search().get('from')).toBe(today));
    expect(paramsOf(dashboardCalls().at(-1))).toEqual({ from: today, to: today });

    // Back to the default: the parameters go.
    await userEvent.click(screen.getByText('近30天'));
    await waitFor(() => expect(search().has('from')).toBe(false));
  });

  it('a range typed in the date inputs is asked for; a wrong one says why and changes nothing', async () => {
    signInAs(['admin']);
    api = mockApi({
      'GET api/dashboard': (config) => {
        const p = config.params as { from?: string; to?: string } | undefined;
        return { data: staffAnswer(p?.from ?? addDays(today, -29), p?.to ?? today) };
      },
    });
    const { search } = renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    await screen.findByRole('region', { name: '审核工作' });
    const from = screen.getByLabelText('开始日期');
    const to = screen.getByLabelText('结束日期');
    expect(from).toHaveValue(addDays(today, -29));
    expect(to).toHaveValue(today);

    // The start after the end: the message names the field, nothing is asked for.
    const calls = dashboardCalls().length;
    fireEvent.change(from, { target: { value: addDays(today, 1) } });
    expect(await screen.findByRole('alert')).toHaveTextContent('开始日期不能晚于结束日期');
    expect(from).toHaveAttribute('aria-invalid', 'true');
    // Longer than a year: refused too.
    fireEvent.change(from, { target: { value: addDays(today, -400) } });
    expect(screen.getByRole('alert')).toHaveTextContent('开始日期：统计期间最长 366 天');
    await settle();
    expect(dashboardCalls()).toHaveLength(calls);
    expect(search().has('from')).toBe(false);

    // A valid range goes into the URL and the query.
    fireEvent.change(from, { target: { value: addDays(today, -9) } });
    await waitFor(() => expect(search().get('from')).toBe(addDays(today, -9)));
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() =>
      expect(paramsOf(dashboardCalls().at(-1))).toEqual({ from: addDays(today, -9), to: today }),
    );
  });

  it('while the figures load, the sections the user will see are drawn empty at their size', async () => {
    signInAs(['admin']);
    let answer: (() => void) | undefined;
    api = mockApi({
      'GET api/dashboard': () =>
        new Promise((resolve) => {
          answer = () => resolve({ data: staffAnswer(addDays(today, -29), today) });
        }),
    });
    const { container } = renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    const busy = await waitFor(() => {
      const el = container.querySelector('[aria-busy="true"]');
      expect(el).not.toBeNull();
      return el as HTMLElement;
    });
    // Admin: review, management, system — with as many chart frames as those sections have charts.
    expect(
      within(busy)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['审核工作', '经营概况', '系统状态']);
    expect(busy.querySelectorAll('[style*="height: 280px"]')).toHaveLength(2 + 5 + 1);
    answer?.();
    expect(await screen.findByRole('region', { name: '审核工作' })).toBeInTheDocument();
    expect(container.querySelector('[aria-busy="true"]')).toBeNull();
  });

  it('a range in the URL is asked for as it is', async () => {
    signInAs(['admin']);
    const from = addDays(today, -9);
    const to = addDays(today, -2);
    api = mockApi({ 'GET api/dashboard': () => ({ data: staffAnswer(from, to) }) });
    renderWithProviders(<DashboardPage />, `/piibs/dashboard?from=${from}&to=${to}`);
    await screen.findByRole('region', { name: '审核工作' });
    expect(paramsOf(dashboardCalls()[0])).toEqual({ from, to });
  });

  it('the table fallback shows the numbers the chart draws', async () => {
    signInAs(['admin']);
    api = mockApi({ 'GET api/dashboard': () => ({ data: staffAnswer(addDays(today, -29), today) }) });
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    await screen.findByRole('region', { name: '审核工作' });
    // The chart's summary: each kind's count per bucket.
    expect(chartOf('待审核任务（按等待时长）')).toHaveAccessibleName(
      '待审核任务（按等待时长），柱状图：投保人信息审核：1 小时内 1，1–24 小时 0，1–3 天 0，超过 3 天 1；' +
        '投保单审核：1 小时内 0，1–24 小时 1，1–3 天 0，超过 3 天 0',
    );
    const drawn = [
      [1, 0, 0, 1],
      [0, 1, 0, 0],
    ];

    const card = screen.getByRole('region', { name: '待审核任务（按等待时长）' });
    await userEvent.click(within(card).getByText('表格'));
    const rows = within(within(card).getByRole('table')).getAllByRole('row').slice(1);
    const cells = rows.map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );
    expect(cells).toEqual([
      ['1 小时内', '1', '0', '1'],
      ['1–24 小时', '0', '1', '1'],
      ['1–3 天', '0', '0', '0'],
      ['超过 3 天', '1', '0', '1'],
    ]);
    // Same figures: each kind's column is the chart's series.
    expect(cells.map((c) => Number(c[1]))).toEqual(drawn[0]);
    expect(cells.map((c) => Number(c[2]))).toEqual(drawn[1]);
  });

  it('an enterprise: its to-dos with the next action, and empty states that say what to do', async () => {
    signInAs([ROLE_CODES.enterprise]);
    const business = {
      applications: [
        { status: 'DRAFT', label: '草稿', count: 2, action: { key: 'continue', label: '继续填写' } },
        { status: 'PENDING_PAYMENT', label: '待支付', count: 1, action: { key: 'pay', label: '去支付' } },
      ],
      applicationsTotal: 3,
      funnel: [
        { stage: 'created', label: '创建投保单', count: 0 },
        { stage: 'submitted', label: '提交审核', count: 0 },
        { stage: 'approved', label: '审核通过', count: 0 },
        { stage: 'paid', label: '完成支付', count: 0 },
        { stage: 'issued', label: '已出单', count: 0 },
      ],
      expiring: [
        { withinDays: 30, count: 0, premiumFen: 0 },
        { withinDays: 60, count: 0, premiumFen: 0 },
        { withinDays: 90, count: 0, premiumFen: 0 },
      ],
      expiringSoon: [],
    } satisfies DashboardAnswer['business'];
    api = mockApi({ 'GET api/dashboard': { data: answerOf({ business }) } });
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    const section = await screen.findByRole('region', { name: '我的业务' });
    expect(screen.queryByRole('region', { name: '审核工作' })).toBeNull();

    const todo = within(within(section).getByRole('list', { name: '待办' }));
    expect(todo.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '待支付 1 件 · 去支付',
      '草稿 2 件 · 继续填写',
    ]);
    expect(todo.getByRole('link', { name: '去支付' })).toHaveAttribute(
      'href',
      '/piibs/epinsure/insureList?status=PENDING_PAYMENT',
    );
    // Nothing new in the range: the funnel says how to start, linking to the wizard.
    expect(within(section).getByText(/所选期间没有新建投保单/)).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: '去在线投保' })).toHaveAttribute(
      'href',
      '/piibs/insured/stepOne/0/1',
    );
    expect(within(section).getByText('未来 90 天内没有到期的保单')).toBeInTheDocument();
    // No made-up series: only the states chart is drawn.
    expect(chartsIn(section)).toHaveLength(1);
    expect(chartOf('我的投保单（按状态）')).toHaveAccessibleName(
      '我的投保单（按状态），柱状图：件数：草稿 2，待支付 1',
    );
  });

  it('最近到期: a table on a wide screen; on a phone one entry per policy with its facts labelled', async () => {
    signInAs([ROLE_CODES.enterprise]);
    const soon = {
      id: 7,
      number: 'PAZX202600000002',
      holderName: '镇江示例安全科技有限公司',
      productName: '安全生产责任保险（工贸行业）',
      endDate: addDays(today, 12),
      daysLeft: 12,
      premiumFen: 1952000,
    };
    const answer = answerOf({
      business: {
        applications: [],
        applicationsTotal: 0,
        funnel: [],
        expiring: [{ withinDays: 30, count: 1, premiumFen: 1952000 }],
        expiringSoon: [soon],
      },
    });
    api = mockApi({ 'GET api/dashboard': { data: answer } });
    const wide = renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    const table = await screen.findByRole('table', { name: '最近到期' });
    expect(within(table).getByRole('row', { name: /PAZX202600000002/ })).toHaveTextContent('12 天');
    wide.unmount();

    onPhone();
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    const list = await screen.findByRole('list', { name: '最近到期' });
    expect(screen.queryByRole('table', { name: '最近到期' })).toBeNull();
    const entry = within(list).getByRole('listitem');
    expect(within(entry).getByText('PAZX202600000002')).toBeInTheDocument();
    expect(within(entry).getByText('安全生产责任保险（工贸行业）')).toBeInTheDocument();
    expect(
      within(entry)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['投保人', '保险止期', '剩余天数', '保费（元）']);
    expect(
      within(entry)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(['镇江示例安全科技有限公司', soon.endDate, '12 天', '¥19,520.00']);
  });

  it('no applications at all: 暂无投保单，去在线投保', async () => {
    signInAs([ROLE_CODES.enterprise]);
    api = mockApi({
      'GET api/dashboard': {
        data: answerOf({
          business: { applications: [], applicationsTotal: 0, funnel: [], expiring: [], expiringSoon: [] },
        }),
      },
    });
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    const section = await screen.findByRole('region', { name: '我的业务' });
    expect(
      within(section).getAllByText((_, el) => el?.textContent === '暂无投保单，去在线投保').length,
    ).toBeGreaterThan(0);
  });

  it('service organisation staff: their orders by state and per day, hazards and complaints', async () => {
    signInAs(['service']);
    usePermissionStore.getState().setMenus([...MENUS, RISK_MENU]);
    const days = periods(addDays(today, -29), 30);
    api = mockApi({
      'GET api/dashboard': {
        data: serviceAnswer({
          orders: [
            { status: 'DISPATCHED', label: '已派单', count: 2 },
            { status: 'CONFIRMED', label: '整改跟踪中', count: 1 },
            { status: 'CLOSED', label: '已完成', count: 3 },
          ],
          ordersTotal: 6,
          dispatched: days.map((period, i) => ({ period, orders: i === 29 ? 2 : i === 26 ? 1 : 0 })),
          hazards: { overdue: 1, upcoming: 2 },
          complaints: { open: 2, overdue: 1 },
        }),
      },
    });
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    const section = within(await screen.findByRole('region', { name: '风控服务' }));
    expect(screen.queryByRole('region', { name: '经营概况' })).toBeNull();
    expect(section.getByText('服务机构：镇江安全生产服务中心')).toBeInTheDocument();
    const figure = (label: string) => section.getByText(label).nextSibling;
    expect(figure('服务单总数')).toHaveTextContent('6');
    expect(figure('所选期间派单')).toHaveTextContent('3');
    expect(figure('隐患整改已逾期')).toHaveTextContent('1');
    expect(figure('隐患待整改（未到期）')).toHaveTextContent('2');
    expect(figure('投诉待答复')).toHaveTextContent('2');
    expect(section.getByText('其中 1 件已超过答复期限')).toBeInTheDocument();
    expect(section.getByRole('link', { name: '去跟踪整改' })).toHaveAttribute(
      'href',
      '/piibs/riskControl/prevention/serviceList?status=CONFIRMED',
    );

    expect(chartOf('本机构服务单（按状态）')).toHaveAccessibleName(
      '本机构服务单（按状态），柱状图：件数：已派单 2，整改跟踪中 1，已完成 3',
    );
    const last = days.at(-1)!.slice(5);
    expect(chartOf('派单趋势')).toHaveAccessibleName(
      `派单趋势，折线图，${days[0]!.slice(5)} 至 ${last} 共 30 项：件数合计 3，最高 2（${last}）`,
    );
    // The table fallback holds the same figures as the chart.
    const card = screen.getByRole('region', { name: '本机构服务单（按状态）' });
    await userEvent.click(within(card).getByText('表格'));
    const cells = within(within(card).getByRole('table'))
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(cells).toEqual([
      ['已派单', '2'],
      ['整改跟踪中', '1'],
      ['已完成', '3'],
    ]);
    expect(within(card).getByRole('button', { name: '导出本机构服务单（按状态）' })).toBeInTheDocument();
  });

  it('service organisation staff without orders: what to do next, no empty charts', async () => {
    signInAs(['service']);
    usePermissionStore.getState().setMenus([...MENUS, RISK_MENU]);
    api = mockApi({
      'GET api/dashboard': {
        data: serviceAnswer({
          orders: [],
          ordersTotal: 0,
          dispatched: periods(addDays(today, -29), 30).map((period) => ({ period, orders: 0 })),
          hazards: { overdue: 0, upcoming: 0 },
          complaints: { open: 0, overdue: 0 },
        }),
      },
    });
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    const section = within(await screen.findByRole('region', { name: '风控服务' }));
    expect(section.getByText('服务单总数').nextSibling).toHaveTextContent('0');
    const next = section.getAllByText(
      (_, el) =>
        el?.textContent ===
        '本机构暂无服务单。保险公司派单后会显示在这里，请先完善本机构的服务人员信息，去服务机构',
    );
    expect(next.length).toBeGreaterThan(0);
    expect(section.getAllByRole('link', { name: '去服务机构' })[0]).toHaveAttribute(
      'href',
      '/piibs/riskControl/prevention/expert',
    );
    expect(section.queryByRole('link', { name: '去跟踪整改' })).toBeNull();
    await settle();
    expect(chartsIn(screen.getByRole('region', { name: '风控服务' }))).toHaveLength(0);
  });

  it('a failure is shown on the page with a retry', async () => {
    signInAs(['admin']);
    let fail = true;
    api = mockApi({
      'GET api/dashboard': () =>
        fail
          ? { status: 500, data: { status: 500, message: '服务器内部错误，请稍后重试' } }
          : { data: staffAnswer(addDays(today, -29), today) },
    });
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    expect(await screen.findByText('服务器内部错误，请稍后重试')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: /重\s?试/ }));
    expect(await screen.findByRole('region', { name: '审核工作' })).toBeInTheDocument();
  });

  it('without a session token nothing is asked (no 401 dialog)', async () => {
    localStorage.clear();
    signInAs(['admin']);
    api = mockApi({});
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    expect(screen.getByRole('heading', { name: '欢迎使用财产保险互联网出单系统' })).toBeInTheDocument();
    await settle();
    expect(api.calls).toHaveLength(0);
  });

  it('a user without sections sees only the welcome and the shortcuts', async () => {
    signInAs(['service']);
    api = mockApi({ 'GET api/dashboard': { data: answerOf({}) } });
    renderWithProviders(<DashboardPage />, '/piibs/dashboard');
    await waitFor(() => expect(dashboardCalls()).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('统计期间')).toBeNull());
    expect(screen.getByRole('heading', { name: '欢迎使用财产保险互联网出单系统' })).toBeInTheDocument();
  });
});
