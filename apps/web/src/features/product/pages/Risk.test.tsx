import type { ProductRow, RateTableRow } from '@piibs/shared/product';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { page } from '@/features/customer/test-data.ts';
import { dictAnswers, type MockApi, mockApi } from '@/test/mock-api.ts';
import Risk from './Risk.tsx';

let api: MockApi;
const dictAnswer = dictAnswers({
  region_zhenjiang: [['321100', '镇江市']],
  document_type: [
    ['BUSINESS_LICENSE', '营业执照'],
    ['INSURED_LIST', '被保险人清单'],
  ],
});

beforeEach(() => signInAs(['admin']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

function productRow(overrides: Partial<ProductRow> = {}): ProductRow {
  return {
    id: 1,
    code: 'ZJ-AZX',
    name: '镇江安全生产责任保险',
    productClass: 'work_safety',
    clauseVersion: '2025版',
    region: '321100',
    regionName: '镇江市',
    validFrom: '2026-01-01',
    validTo: '2026-12-31',
    allowsCoinsurance: true,
    namedInsuredRequired: false,
    issuerLeads: true,
    minPremiumFen: 0,
    minProjectCostFen: null,
    requiredMaterials: [],
    preventionRatioMin: 10_000_000,
    preventionRatioMax: 21_000_000,
    commissionCap: 5_000_000,
    enabled: true,
    description: null,
    coverages: [
      {
        id: 5,
        type: 'EMPLOYEE_DEATH_DISABILITY',
        name: '从业人员伤亡（死亡/伤残）',
        perPersonLimitFen: 40_000_000,
        perAccidentLimitFen: null,
        aggregateLimitFen: null,
        deductibleFen: 0,
        mandatory: true,
        sort: 0,
      },
    ],
    activeRateTable: { id: 3, versionNo: 1, effectiveDate: '2026-01-01' },
    version: 2,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function rateTable(overrides: Partial<RateTableRow> = {}): RateTableRow {
  return {
    id: 4,
    productId: 1,
    versionNo: 2,
    effectiveDate: '2027-01-01',
    status: 'draft',
    shortPeriodRule: 'SHORT_RATE_TABLE',
    shortRateTable: null,
    highRiskLoading: null,
    factors: [],
    note: null,
    rowCount: 40,
    activatedAt: null,
    activatedBy: null,
    version: 0,
    createdAt: '2026-06-01T00:00:00.000Z',
    updatedAt: '2026-06-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('险种与责任', { timeout: 40_000 }, () => {
  it('lists products; the detail shows coverages in yuan and rate tables, and activates a draft', async () => {
    api = mockApi({
      'GET api/products': page([productRow()]),
      'GET api/dictDetail': dictAnswer,
      'GET api/products/1/rateTables': {
        data: [rateTable(), rateTable({ id: 3, versionNo: 1, status: 'active', version: 1 })],
      },
      'POST api/rateTables/4/activate': { data: { ...rateTable({ status: 'active' }), rows: [] } },
    });
    renderWithProviders(<Risk />, '/piibs/product/risk');
    expect(await screen.findByText('ZJ-AZX')).toBeInTheDocument();
    expect(api.callsTo('GET api/products')[0]?.params).toEqual({ page: 0, size: 10, sort: 'code,asc' });
    // The region by its name, never its code.
    const row = screen.getByText('ZJ-AZX').closest('tr')!;
    expect(within(row).getByText('镇江市')).toBeInTheDocument();
    expect(within(row).queryByText('321100')).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /详\s*情/ }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('¥400,000.00')).toBeInTheDocument();
    expect(within(drawer).getByText('10% – 21%')).toBeInTheDocument();
    expect(within(drawer).getByText('镇江市')).toBeInTheDocument();
    expect(await within(drawer).findByText('草稿')).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: /激\s*活/ }));
    await user.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.callsTo('POST api/rateTables/4/activate')).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo('POST api/rateTables/4/activate')[0]?.data))).toEqual({
      version: 0,
    });
  });

  it('the form sends fen and micro-percent, and shows the server 400 at its field', async () => {
    let answer = {
      status: 400,
      data: {
        status: 400,
        message: '事故预防费用比例上限：不能超过 21%',
        errors: [{ field: 'preventionRatioMax', message: '不能超过 21%' }],
      },
    };
    api = mockApi({
      'GET api/products': page([productRow()]),
      'GET api/dictDetail': dictAnswer,
      'POST api/products/update': () => answer,
    });
    renderWithProviders(<Risk />, '/piibs/product/risk');
    await screen.findByText('ZJ-AZX');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /编\s*辑/ }));
    const drawer = await screen.findByRole('dialog');
    const max = within(drawer).getByLabelText('事故预防费用比例上限');
    expect(max).toHaveValue('21');
    await user.clear(max);
    await user.type(max, '25');
    await user.click(within(drawer).getByRole('button', { name: /确\s*定/ }));
    expect(await within(drawer).findByText('不能超过 21%')).toBeInTheDocument();
    const sent = JSON.parse(String(api.callsTo('POST api/products/update')[0]?.data));
    expect(sent).toMatchObject({
      id: 1,
      version: 2,
      preventionRatioMax: 25_000_000,
      commissionCap: 5_000_000,
    });
    expect(sent.coverages[0]).toMatchObject({
      type: 'EMPLOYEE_DEATH_DISABILITY',
      perPersonLimitFen: 40_000_000,
    });

    answer = {
      status: 400,
      data: {
        status: 400,
        message: '每人限额：安责险从业人员每人死亡/伤残限额不得低于 40万元（400000 元，应急〔2025〕27号）',
        errors: [
          {
            field: 'coverages.0.perPersonLimitFen',
            message: '安责险从业人员每人死亡/伤残限额不得低于 40万元（400000 元，应急〔2025〕27号）',
          },
        ],
      },
    };
    await user.clear(max);
    await user.type(max, '20');
    const perPerson = within(drawer).getByLabelText('每人限额');
    await user.clear(perPerson);
    await user.type(perPerson, '300000');
    await user.click(within(drawer).getByRole('button', { name: /确\s*定/ }));
    expect(
      await within(drawer).findByText(
        '安责险从业人员每人死亡/伤残限额不得低于 40万元（400000 元，应急〔2025〕27号）',
      ),
    ).toBeInTheDocument();
    expect(
      JSON.parse(String(api.callsTo('POST api/products/update')[1]?.data)).coverages[0].perPersonLimitFen,
    ).toBe(30_000_000);
  });

  it('states the minimum premium and the required documents by stage, and sends them in fen', async () => {
    api = mockApi({
      'GET api/products': page([
        productRow({
          minPremiumFen: 50_000,
          requiredMaterials: [{ docType: 'INSURED_LIST', stage: 'APPROVE' }],
        }),
      ]),
      'GET api/dictDetail': dictAnswer,
      'GET api/products/1/rateTables': { data: [] },
      'POST api/products/update': { data: productRow() },
    });
    renderWithProviders(<Risk />, '/piibs/product/risk');
    await screen.findByText('ZJ-AZX');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /详\s*情/ }));
    const detail = await screen.findByRole('dialog');
    expect(within(detail).getByText('¥500.00')).toBeInTheDocument();
    expect(await within(detail).findByText('核保通过前：被保险人清单')).toBeInTheDocument();
    expect(within(detail).getByText('是（本公司为主承保）')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: /编\s*辑/ }));
    const drawer = await screen.findByRole('dialog');
    const min = within(drawer).getByLabelText('最低保费');
    expect(min).toHaveValue('500.00');
    await user.clear(min);
    await user.type(min, '-5');
    await user.click(within(drawer).getByRole('button', { name: /确\s*定/ }));
    expect(await within(drawer).findByText('不能小于 0')).toBeInTheDocument();
    await user.clear(min);
    await user.type(min, '800');
    await user.click(within(drawer).getByRole('button', { name: /添加必备资料/ }));
    const types = within(drawer).getAllByLabelText('资料类型');
    await user.click(types[1]!);
    await user.click(await screen.findByTitle('营业执照'));
    await user.click(within(drawer).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.callsTo('POST api/products/update')).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo('POST api/products/update')[0]?.data))).toMatchObject({
      issuerLeads: true,
      minPremiumFen: 80_000,
      minProjectCostFen: null,
      requiredMaterials: [
        { docType: 'INSURED_LIST', stage: 'APPROVE' },
        { docType: 'BUSINESS_LICENSE', stage: 'SUBMIT' },
      ],
    });
  });
});
