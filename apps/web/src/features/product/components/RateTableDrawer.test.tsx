import { formatTime } from '@piibs/shared/constants';
import type { ProductRow, RateTableDetail, RateTableRow } from '@piibs/shared/product';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { dictAnswer } from '@/features/customer/test-data.ts';
import type { SentRequest } from '@/lib/http.ts';
import { type MockAnswer, type MockApi, mockApi } from '@/test/mock-api.ts';
import { ProductDetail } from './ProductDetail.tsx';

let api: MockApi;

beforeEach(() => signInAs(['admin']));
afterEach(() => {
  // Unmount first: signing out under an open editor would turn it read-only and fetch with the real client.
  cleanup();
  api?.restore();
  resetKitState();
});

const PRODUCT: ProductRow = {
  id: 1,
  code: 'ZJ-AZX',
  name: '镇江安全生产责任保险',
  productClass: 'work_safety',
  clauseVersion: '2025版',
  region: '321100',
  regionName: '镇江市',
  validFrom: '2026-01-01',
  validTo: '2030-12-31',
  allowsCoinsurance: true,
  namedInsuredRequired: false,
  issuerLeads: true,
  minPremiumFen: 0,
  minProjectCostFen: null,
  requiredMaterials: [],
  preventionRatioMin: 15_000_000,
  preventionRatioMax: 21_000_000,
  commissionCap: 5_000_000,
  enabled: true,
  description: null,
  coverages: [],
  activeRateTable: { id: 3, versionNo: 1, effectiveDate: '2026-01-01' },
  version: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const ACCIDENT = {
  code: 'ACCIDENT_HISTORY',
  label: '近三年生产安全事故记录',
  min: 9_000,
  max: 13_000,
  defaultOption: 'NONE',
  options: [
    { value: 'NONE', label: '无生产安全事故', multiplier: 9_000 },
    { value: 'ONE', label: '发生一般事故 1 起', multiplier: 11_000 },
  ],
};
const AWARD = {
  code: 'SAFETY_AWARD',
  label: '安全生产标准化',
  min: 8_500,
  max: 10_000,
  defaultOption: 'NO',
  options: [{ value: 'NO', label: '无', multiplier: 10_000 }],
};

function table(overrides: Partial<RateTableDetail> = {}): RateTableDetail {
  return {
    id: 3,
    productId: 1,
    versionNo: 1,
    effectiveDate: '2026-01-01',
    status: 'active',
    shortPeriodRule: 'SHORT_RATE_TABLE',
    shortRateTable: null,
    highRiskLoading: null,
    factors: [ACCIDENT, AWARD],
    note: '初始费率表',
    rowCount: 3,
    activatedAt: '2026-01-01T02:00:00.000Z',
    activatedBy: '系统管理员',
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    rows: [
      {
        id: 11,
        coverageType: 'EMPLOYEE_DEATH_DISABILITY',
        industry: 'C',
        limitTierFen: 40_000_000,
        costBandUpToFen: null,
        rate: 4_000,
      },
      {
        id: 12,
        coverageType: 'EMPLOYEE_DEATH_DISABILITY',
        industry: null,
        limitTierFen: null,
        costBandUpToFen: null,
        rate: 5_000,
      },
      {
        id: 13,
        coverageType: 'RESCUE',
        industry: null,
        limitTierFen: null,
        costBandUpToFen: null,
        rate: 1_000,
      },
    ],
    ...overrides,
  };
}

const listRow = ({ rows: _, ...t }: RateTableDetail): RateTableRow => t;
const sent = (config: SentRequest | undefined) => JSON.parse(String(config?.data));
const today = () => formatTime(Date.now(), '{y}-{m}-{d}');

function render(tables: RateTableDetail[], extra: Record<string, MockAnswer | (() => MockAnswer)> = {}) {
  api = mockApi({
    'GET api/dictDetail': dictAnswer,
    'GET api/products/1/rateTables': { data: tables.map(listRow) },
    ...Object.fromEntries(tables.map((t) => [`GET api/rateTables/${t.id}`, { data: t }])),
    ...extra,
  });
  renderWithProviders(<ProductDetail product={PRODUCT} onClose={() => {}} />, '/piibs/product/risk');
}

/** The rate-table drawer (the product's detail drawer is open under it). */
async function editor(title: string) {
  const heading = await screen.findByText(title);
  return heading.closest('[role="dialog"]') as HTMLElement;
}

describe('rate-table versions', { timeout: 60_000 }, () => {
  it('creates a draft from the active version: its rows and factors copied, a rate edited, sent in 10⁻⁷', async () => {
    const draft = table({ id: 4, versionNo: 2, status: 'draft', effectiveDate: today(), version: 0 });
    render([table()], { 'POST api/products/1/rateTables': { data: draft } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /新建版本/ }));
    const drawer = await editor('新建费率表版本（复制自 V1）');

    const rate = await within(drawer).findByLabelText('第 1 行费率');
    expect(rate).toHaveValue('0.4');
    expect(within(drawer).getByLabelText('第 1 行限额档次')).toHaveValue('400000');
    expect(within(drawer).getByLabelText('浮动因子 1系数上限')).toHaveValue('1.3');
    await user.clear(rate);
    await user.type(rate, '0.38');
    await user.click(within(drawer).getByRole('button', { name: '保存为草稿' }));

    await waitFor(() => expect(api.callsTo('POST api/products/1/rateTables')).toHaveLength(1));
    expect(sent(api.callsTo('POST api/products/1/rateTables')[0])).toEqual({
      effectiveDate: today(),
      highRiskLoading: null,
      note: null,
      // The version copied keeps the short-period rule (the standard short-rate table).
      shortPeriodRule: 'SHORT_RATE_TABLE',
      shortRateTable: null,
      rows: [
        {
          coverageType: 'EMPLOYEE_DEATH_DISABILITY',
          industry: 'C',
          limitTierFen: 40_000_000,
          costBandUpToFen: null,
          rate: 3_800,
        },
        {
          coverageType: 'EMPLOYEE_DEATH_DISABILITY',
          industry: null,
          limitTierFen: null,
          costBandUpToFen: null,
          rate: 5_000,
        },
        { coverageType: 'RESCUE', industry: null, limitTierFen: null, costBandUpToFen: null, rate: 1_000 },
      ],
      factors: [ACCIDENT, AWARD],
    });
    expect(await screen.findByText('已新建费率表 V2（草稿）')).toBeInTheDocument();
  });

  it('refuses with the shared rules at the field, and sends nothing', async () => {
    render([table()], { 'POST api/products/1/rateTables': { data: table({ id: 4 }) } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /新建版本/ }));
    const drawer = await editor('新建费率表版本（复制自 V1）');
    const save = within(drawer).getByRole('button', { name: '保存为草稿' });

    // A rate over 100% (1000‰): the shared rate schema's message.
    const rate = await within(drawer).findByLabelText('第 2 行费率');
    await user.clear(rate);
    await user.type(rate, '1000.5');
    await user.click(save);
    expect(await within(drawer).findByText('不能超过 100%')).toBeInTheDocument();

    // Rows against the product class (rateRowsProblem): a limit tier on a coverage rated on its limit.
    await user.clear(rate);
    await user.type(rate, '0.5');
    await user.type(within(drawer).getByLabelText('第 3 行限额档次'), '500000');
    await user.click(save);
    expect(await within(drawer).findByText('第 3 行只有从业人员伤亡责任按限额分档')).toBeInTheDocument();
    await user.clear(within(drawer).getByLabelText('第 3 行限额档次'));

    // A factor (factorDefProblem): safety awards only lower the premium.
    const max = within(drawer).getByLabelText('浮动因子 2系数上限');
    await user.clear(max);
    await user.type(max, '1.1');
    await user.click(save);
    expect(
      await within(drawer).findByText('浮动因子「安全生产标准化」只能下浮（系数上限不得大于 1）'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST api/products/1/rateTables')).toHaveLength(0);
  });

  it('edits a draft with its version; a 409 reloads it, a 400 is shown at the row it names', async () => {
    const draft = table({ id: 4, versionNo: 2, status: 'draft', effectiveDate: '2027-01-01', version: 0 });
    const newer = {
      ...draft,
      version: 1,
      rows: draft.rows.map((r) => (r.id === 13 ? { ...r, rate: 1_200 } : r)),
    };
    let detail = draft;
    const answers: MockAnswer[] = [
      { status: 409, data: { status: 409, message: '数据已被他人修改，请刷新后重试' } },
      {
        status: 400,
        data: {
          status: 400,
          message: '费率明细：第 1 行限额档次不得低于 40万元',
          errors: [{ field: 'rows.0.limitTierFen', message: '第 1 行限额档次不得低于 40万元' }],
        },
      },
    ];
    render([draft, table()], {
      'GET api/rateTables/4': () => ({ data: detail }),
      'POST api/rateTables/4/update': () => {
        detail = newer;
        return answers.shift()!;
      },
    });
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('button', { name: /编\s*辑/ }))[0]!);
    const drawer = await editor('费率表 V2（草稿）');
    const date = within(drawer).getByLabelText('生效日期');
    expect(date).toHaveValue('2027-01-01');
    await user.click(within(drawer).getByRole('button', { name: /保\s*存/ }));

    expect(await within(drawer).findByRole('alert')).toHaveTextContent(
      '数据已被他人修改，请刷新后重试（已载入最新数据，请核对后重新提交）',
    );
    expect(sent(api.callsTo('POST api/rateTables/4/update')[0])).toMatchObject({ version: 0 });
    expect(within(drawer).getByLabelText('第 3 行费率')).toHaveValue('0.12');

    await user.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    expect(await within(drawer).findByText('第 1 行限额档次不得低于 40万元')).toBeInTheDocument();
    const second = sent(api.callsTo('POST api/rateTables/4/update')[1]);
    expect(second).toMatchObject({ version: 1, effectiveDate: '2027-01-01' });
    expect(second.rows[2].rate).toBe(1_200);
  });

  it('closing an editor with changes asks first; 继续编辑 keeps them, 放弃修改 closes; untouched it just closes', async () => {
    render([table()]);
    const user = userEvent.setup();
    const open = async () => {
      await user.click(await screen.findByRole('button', { name: /新建版本/ }));
      return editor('新建费率表版本（复制自 V1）');
    };
    let drawer = await open();
    await user.click(within(drawer).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByText('新建费率表版本（复制自 V1）')).toBeNull());

    drawer = await open();
    const rate = await within(drawer).findByLabelText('第 1 行费率');
    await user.clear(rate);
    await user.type(rate, '0.38');
    await user.click(within(drawer).getByRole('button', { name: /取\s*消/ }));
    await user.click(await screen.findByRole('button', { name: '继续编辑' }));
    expect(within(drawer).getByLabelText('第 1 行费率')).toHaveValue('0.38');

    await user.click(within(drawer).getByRole('button', { name: /取\s*消/ }));
    // The first confirmation may still be in the document, closing: the newest is the last.
    await user.click((await screen.findAllByRole('button', { name: '放弃修改' })).at(-1)!);
    await waitFor(() => expect(screen.queryByText('新建费率表版本（复制自 V1）')).toBeNull());
    expect(api.callsTo('POST api/products/1/rateTables')).toHaveLength(0);
  });

  it('shows an active version read-only, with its rows and factors; 复制为新版本 starts a draft from it', async () => {
    render([table()]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /查\s*看/ }));
    const drawer = await editor('费率表 V1（生效）');

    expect(await within(drawer).findByText('0.4‰')).toBeInTheDocument();
    expect(await within(drawer).findByText('C 制造业')).toBeInTheDocument();
    expect(within(drawer).getByText('40万元/人')).toBeInTheDocument();
    expect(within(drawer).getByText('事故应急救援费用')).toBeInTheDocument();
    expect(within(drawer).getByText('近三年生产安全事故记录（ACCIDENT_HISTORY）')).toBeInTheDocument();
    expect(within(drawer).getByText('×1.1')).toBeInTheDocument();
    expect(
      within(drawer).getByText('生效的版本不可修改；如需调整费率，请「复制为新版本」。'),
    ).toBeInTheDocument();
    expect(within(drawer).queryAllByRole('textbox')).toHaveLength(0);
    expect(within(drawer).queryByRole('button', { name: /保\s*存/ })).toBeNull();

    await user.click(within(drawer).getByRole('button', { name: '复制为新版本' }));
    const copy = await editor('新建费率表版本（复制自 V1）');
    expect(await within(copy).findByLabelText('第 1 行费率')).toHaveValue('0.4');
  });

  it('shows why a draft cannot be activated yet (its effective date)', async () => {
    const draft = table({ id: 4, versionNo: 2, status: 'draft', effectiveDate: '2099-01-01', version: 0 });
    render([draft, table()], {
      'POST api/rateTables/4/activate': {
        status: 400,
        data: { status: 400, message: '生效日期：2099-01-01 未到，当天或之后才能生效（今天是 2026-11-23）' },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /激\s*活/ }));
    await user.click(await screen.findByRole('button', { name: /确\s*定/ }));
    expect(
      await screen.findByText('生效日期：2099-01-01 未到，当天或之后才能生效（今天是 2026-11-23）'),
    ).toBeInTheDocument();
    expect(sent(api.callsTo('POST api/rateTables/4/activate')[0])).toEqual({ version: 0 });
  });
});
