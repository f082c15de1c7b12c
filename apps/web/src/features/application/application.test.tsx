import type { ApplicationRow } from '@piibs/shared/application';
import { ROLE_CODES } from '@piibs/shared/auth';
import { ISSUER_CODE, SHARE_MESSAGE } from '@piibs/shared/coinsurance';
import { yuan } from '@piibs/shared/money';
import type { AvailableProduct } from '@piibs/shared/product';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { page } from '@/features/customer/test-data.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { sharesProblem, typedShares } from './components/coinsurance-shares.ts';
import { livePrice } from './components/LiveQuote.tsx';
import { FLOWS, flowOf, stepsOf, viewPathOf } from './flows.ts';
import InsureList from './pages/InsureList.tsx';
import { draftFieldsOf, sharesOf, withIssuer } from './values.ts';

/** The seeded work-safety product as GET /api/products/available answers it (one rate row, one factor). */
const workSafety = {
  id: 1,
  code: 'AZX',
  name: '安全生产责任保险（工贸行业）',
  productClass: 'work_safety',
  allowsCoinsurance: true,
  preventionRatioMin: 15_000_000,
  preventionRatioMax: 21_000_000,
  coverages: [
    {
      id: 1,
      type: 'EMPLOYEE_DEATH_DISABILITY',
      name: '从业人员伤亡',
      perPersonLimitFen: yuan(400_000),
      perAccidentLimitFen: null,
      aggregateLimitFen: null,
      deductibleFen: 0,
      mandatory: true,
      sort: 0,
    },
  ],
  rating: {
    rateTableId: 3,
    versionNo: 2,
    effectiveDate: '2026-01-01',
    limitTiersFen: [yuan(400_000)],
    highRiskLoading: null,
    factors: [
      {
        code: 'ACCIDENT_HISTORY',
        label: '近三年事故记录',
        min: 9_000,
        max: 13_000,
        defaultOption: 'NONE',
        options: [
          { value: 'NONE', label: '无事故', multiplier: 10_000 },
          { value: 'ONE', label: '一次', multiplier: 12_000 },
        ],
      },
    ],
    // 0.5‰ per person: 400,000 yuan × 0.5‰ = 200 yuan a head.
    rows: [
      {
        coverageType: 'EMPLOYEE_DEATH_DISABILITY',
        industry: null,
        limitTierFen: null,
        costBandUpToFen: null,
        rate: 5_000,
      },
    ],
  },
} as unknown as AvailableProduct;

const customer = { industrySection: 'C', industryDivision: '34', headcount: 100 };

describe('the live premium (shared rating code on the active rate table)', () => {
  it('prices headcount × limit × rate, the factor and the prevention fee, as the server would', () => {
    const { quote } = livePrice(workSafety, customer, {
      headcount: 120,
      perPersonLimitFen: yuan(400_000),
      preventionRatio: '20',
    });
    expect(quote?.premium.premiumFen).toBe(120 * 20_000);
    expect(quote?.preventionFeeFen).toBe(480_000);
    const withAccident = livePrice(workSafety, customer, {
      headcount: 120,
      perPersonLimitFen: yuan(400_000),
      factors: { ACCIDENT_HISTORY: 'ONE' },
    });
    expect(withAccident.quote?.premium.premiumFen).toBe(2_880_000);
  });

  it('prices the chosen period: one month at 10% of the year, the factor on its own line', () => {
    const base = { headcount: 120, perPersonLimitFen: yuan(400_000), preventionRatio: '20' };
    const month = livePrice(workSafety, customer, {
      ...base,
      startDate: '2026-12-01',
      endDate: '2026-12-31',
    });
    expect(month.quote?.premium.premiumFen).toBe(240_000);
    expect(month.quote?.preventionFeeFen).toBe(48_000);
    expect(month.quote?.premium.lines.at(-1)?.label).toBe('短期费率 1 个月 10%（年保费 ¥24,000.00）');
  });

  it('names the missing input instead of a figure', () => {
    expect(livePrice(workSafety, customer, { perPersonLimitFen: yuan(400_000) }).problem).toBe(
      '参保人数：不能为空',
    );
    expect(livePrice(undefined, customer, {})).toEqual({ quote: null, problem: null });
  });
});

describe('co-insurance as typed', () => {
  const I = ISSUER_CODE;
  const typed = (shares: [string, boolean, string][]) => ({
    coinsured: true,
    shares: shares.map(([insurerCode, lead, share]) => ({ insurerCode, lead, share })),
  });

  it('shows the current total when the shares do not make 100', () => {
    expect(
      sharesProblem(
        typed([
          [I, true, '60'],
          ['PAIC', false, '30'],
        ]),
        true,
      ),
    ).toBe('共保份额合计须为100%，当前合计为 90%');
    expect(
      sharesProblem(
        typed([
          [I, true, '66.666667'],
          ['PAIC', false, '33.333333'],
        ]),
        true,
      ),
    ).toBeNull();
  });

  it('wants the issuer in the table, leading where the product says so', () => {
    const picc = typed([
      ['PICC', true, '60'],
      ['PAIC', false, '40'],
    ]);
    expect(sharesProblem(picc, true)).toBe('共保信息：本公司须为共保人之一');
    expect(sharesProblem(picc, false)).toBe('共保信息：本公司须为共保人之一');
    const piccLeads = typed([
      [I, false, '40'],
      ['PICC', true, '60'],
    ]);
    expect(sharesProblem(piccLeads, true)).toBe('共保信息：本公司须为主承保公司');
    expect(sharesProblem(piccLeads, false)).toBeNull();
  });

  it('wants one lead, two insurers, valid percentages (the spec message)', () => {
    expect(
      sharesProblem(
        typed([
          [I, false, '50'],
          ['PAIC', false, '50'],
        ]),
        true,
      ),
    ).toBe('共保信息：须有且只有一家主承保公司');
    expect(sharesProblem(typed([[I, true, '100']]), true)).toBe('共保信息：共保/联保至少需要两家保险公司');
    expect(
      sharesProblem(
        typed([
          [I, true, '50.1234567'],
          ['PAIC', false, '49'],
        ]),
        true,
      ),
    ).toContain(SHARE_MESSAGE);
    expect(sharesProblem({ coinsured: false, shares: [] }, true)).toBeNull();
    expect(
      typedShares(
        typed([
          [I, true, '0'],
          ['PAIC', false, '100'],
        ]),
      ),
    ).toBeNull();
  });

  it("puts the issuer's row into a table saved without it, as the lead where the product wants it", () => {
    const old = [
      { insurerCode: 'PICC', lead: true, share: '60' },
      { insurerCode: 'PAIC', lead: false, share: '40' },
    ];
    expect(withIssuer(old, true)).toEqual([
      { insurerCode: I, lead: true, share: '' },
      { insurerCode: 'PICC', lead: false, share: '60' },
      { insurerCode: 'PAIC', lead: false, share: '40' },
    ]);
    // another insurer may keep the lead where the product allows it
    expect(withIssuer(old, false)[0]).toEqual({ insurerCode: I, lead: false, share: '' });
    // a table kept from when another insurer could lead: the issuer leads once the product says so
    const mine = [{ insurerCode: I, lead: false, share: '40' }, old[0]!];
    expect(withIssuer(mine, false)).toBe(mine);
    expect(withIssuer(mine, true)).toEqual([
      { insurerCode: I, lead: true, share: '40' },
      { insurerCode: 'PICC', lead: false, share: '60' },
    ]);
  });

  it('sends nothing when not co-insured', () => {
    expect(sharesOf({ coinsured: false, shares: [{ insurerCode: I, lead: true, share: '100' }] })).toEqual(
      [],
    );
  });
});

describe('draft fields by step', () => {
  it('sends money in fen and ratios in micro-percent, only the step’s own fields', () => {
    const values = {
      headcount: 10,
      perPersonLimitFen: yuan(400_000),
      preventionRatio: '15.5',
      projectCostYuan: '30000000.50',
      projectName: '  新厂房 ',
      contactPhone: '0511-85551234',
    };
    expect(draftFieldsOf(values, ['insurance'])).toMatchObject({
      headcount: 10,
      preventionRatio: 15_500_000,
      guaranteeAmountFen: null,
    });
    expect(draftFieldsOf(values, ['insurance'])).not.toHaveProperty('contactPhone');
    expect(draftFieldsOf(values, ['project'])).toMatchObject({
      projectCostFen: 3_000_000_050,
      projectName: '新厂房',
    });
    expect(draftFieldsOf(values, ['policy'])).toMatchObject({
      contactPhone: '0511-85551234',
      insuredName: null,
    });
    // the insured's code by policyholder type: a credit code (1) or an identity card number (2)
    const insured = { insuredUscc: '91321100MA1XXXXXX4', insuredIdNumber: '11010519491231002X' };
    expect(draftFieldsOf(insured, ['policy'])).toMatchObject({ insuredUscc: insured.insuredUscc });
    expect(draftFieldsOf(insured, ['policy'])).not.toHaveProperty('insuredIdNumber');
    expect(draftFieldsOf(insured, ['policy'], 2)).toMatchObject({ insuredIdNumber: insured.insuredIdNumber });
    expect(draftFieldsOf(insured, ['policy'], 2)).not.toHaveProperty('insuredUscc');
  });
});

describe('the wizards (spec §2 routes)', () => {
  it('has the steps the routes name, co-insurance only where the product allows it', () => {
    expect(FLOWS.insured.steps.map((s) => s.path)).toEqual([
      'stepOne',
      'stepSecond',
      'stepThird',
      'stepForth',
      'stepSuccess',
    ]);
    expect(stepsOf(FLOWS.epinsure, false).map((s) => s.path)).toEqual([
      'stepOne',
      'stepSecond',
      'stepThird',
      'stepSuccess',
    ]);
    expect(stepsOf(FLOWS.epinsure, true).map((s) => s.path)).toContain('coinsureAndJoint');
    expect(FLOWS.agent.steps.map((s) => s.path)).toEqual(['stepOne', 'stepSecond', 'stepSuccess']);
  });

  it('continues an application in the wizard of its channel; agents view on their own route', () => {
    expect(flowOf({ channel: 'enterprise', productClass: 'work_safety' }).name).toBe('insured');
    expect(flowOf({ channel: 'agent', productClass: 'work_safety' }).name).toBe('agent');
    expect(flowOf({ channel: 'agent', productClass: 'construction' }).name).toBe('epinsure');
    expect(viewPathOf({ id: 5, policyholderType: 2 }, ['agent'])).toBe('/piibs/agent/viewInsurance/5/2');
    expect(viewPathOf({ id: 5, policyholderType: 1 }, [ROLE_CODES.enterprise])).toBe(
      '/piibs/insured/viewInsurance/5/1',
    );
  });
});

function row(over: Partial<ApplicationRow>): ApplicationRow {
  return {
    id: 1,
    number: 'AZX2026000001',
    productId: 1,
    productCode: 'AZX',
    productName: '安全生产责任保险（工贸行业）',
    productClass: 'work_safety',
    channel: 'enterprise',
    policyholderType: 1,
    customerId: 1,
    applicantName: '镇江示例安全科技有限公司',
    applicantUscc: '91321100MA1XXXXXX4',
    status: 'DRAFT',
    statusLabel: '草稿',
    startDate: '2026-12-01',
    endDate: '2027-11-30',
    premiumFen: 2_400_000,
    preventionFeeFen: 360_000,
    reviewOpinion: null,
    ownerId: 1,
    ownerName: 'enterprise',
    agentId: null,
    submittedAt: null,
    createdAt: '2026-11-20T08:00:00.000Z',
    updatedAt: '2026-11-20T08:00:00.000Z',
    version: 1,
    actions: ['continue', 'view', 'cancel'],
    ...over,
  };
}

describe('投保单列表', { timeout: 40_000 }, () => {
  let api: MockApi;
  afterEach(() => {
    api?.restore();
    resetKitState();
  });

  it('shows each application with its state and only the actions the server allows', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:list', 'application:add', 'application:edit']);
    api = mockApi({
      'GET api/applications': page([
        row({}),
        row({
          id: 2,
          number: 'AZX2026000002',
          status: 'PENDING_PAYMENT',
          actions: ['view', 'cancel', 'pay'],
        }),
        row({ id: 3, number: 'AZX2026000003', status: 'PENDING_REVIEW', actions: ['view'] }),
      ]),
    });
    renderWithProviders(<InsureList />, '/piibs/epinsure/insureList');
    const draft = (await screen.findByText('AZX2026000001')).closest('tr')!;
    expect(within(draft).getByText('草稿')).toBeInTheDocument();
    expect(within(draft).getByRole('button', { name: '继续填写' })).toBeInTheDocument();
    expect(within(draft).getByText('¥24,000.00')).toBeInTheDocument();
    const unpaid = screen.getByText('AZX2026000002').closest('tr')!;
    expect(within(unpaid).getByRole('button', { name: '去支付' })).toBeInTheDocument();
    const waiting = screen.getByText('AZX2026000003').closest('tr')!;
    expect(within(waiting).queryByRole('button', { name: '继续填写' })).toBeNull();
    expect(within(waiting).queryByRole('button', { name: /撤\s*销/ })).toBeNull();
    expect(api.callsTo('GET api/applications')[0]?.params).toMatchObject({ sort: 'updatedAt,desc' });
  });
});
