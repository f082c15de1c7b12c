import type { ApplicationDetail } from '@piibs/shared/application';
import { ROLE_CODES } from '@piibs/shared/auth';
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import type { MaterialRow } from '@piibs/shared/material';
import { yuan } from '@piibs/shared/money';
import type { AvailableProduct } from '@piibs/shared/product';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { customerRow, page } from '@/features/customer/test-data.ts';
import { applicationDetail } from '@/features/policy/test-data.ts';
import { dropEarly, EARLY_WIZARD_URLS, requestEarly } from '@/lib/early-requests.ts';
import { dictAnswers, type MockAnswer, type MockApi, mockApi } from '@/test/mock-api.ts';
import { onPhone } from '@/test/phone.ts';
import type { FlowName } from '../flows.ts';
import { ApplicationWizard } from './ApplicationWizard.tsx';

const ROUTES: [FlowName, string][] = [
  ['insured', 'stepOne'],
  ['insured', 'stepSecond'],
  ['insured', 'stepThird'],
  ['insured', 'stepForth'],
  ['epinsure', 'stepOne'],
  ['epinsure', 'stepSecond'],
];

/** The wizard under its real route patterns (`<base>/<step>/:id/:policyholderType`). */
function renderAt(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      ...ROUTES.map(([flow, step]) => ({
        path: `/piibs/${flow}/${step}/:id/:policyholderType`,
        element: <ApplicationWizard key={`${flow}/${step}`} flow={flow} step={step} />,
      })),
      { path: '*', element: <div>其他页面</div> },
    ],
    { initialEntries: [url] },
  );
  render(
    <AntApp message={{ duration: 0 }}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
  return () => router.state.location.pathname;
}

const draft = (over: Partial<ApplicationDetail>) =>
  applicationDetail({
    id: 5,
    status: 'DRAFT',
    statusLabel: '草稿',
    actions: ['continue', 'view', 'cancel'],
    paymentOrder: null,
    ...over,
  });

describe('the policyholder type (1 enterprise, 2 individual)', { timeout: 40_000 }, () => {
  let api: MockApi;
  afterEach(() => {
    api?.restore();
    resetKitState();
  });

  it('a new application offers 企业 / 个人 on its first step; the choice is the URL', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    api = mockApi({ 'GET api/products/available': { data: [] }, 'GET api/customers': page([]) });
    const path = renderAt('/piibs/insured/stepOne/0/1');
    const person = await screen.findByRole('radio', { name: '个人', hidden: false });
    expect(screen.getByRole('radio', { name: '企业' })).toBeChecked();
    expect(screen.getByText('投保人（企业）')).toBeInTheDocument();

    fireEvent.click(person);
    await waitFor(() => expect(path()).toBe('/piibs/insured/stepOne/0/2'));
    expect(await screen.findByText('投保人（个人）')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '个人' })).toBeChecked();

    fireEvent.click(screen.getByRole('radio', { name: '企业' }));
    await waitFor(() => expect(path()).toBe('/piibs/insured/stepOne/0/1'));
    expect(await screen.findByText('投保人（企业）')).toBeInTheDocument();
  });

  it("所属行业 holds its place from the first paint: 选择投保人后显示, then the enterprise's own applicant's industry (nothing below moves)", async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    let answer: (value: MockAnswer) => void = () => {};
    const customers = new Promise<MockAnswer>((resolve) => {
      answer = resolve;
    });
    api = mockApi({ 'GET api/products/available': { data: [] }, 'GET api/customers': () => customers });
    renderAt('/piibs/insured/stepOne/0/1');
    expect(await screen.findByText('选择投保人后显示')).toBeInTheDocument();
    expect(screen.getByText('所属行业')).toBeInTheDocument();
    answer(page([customerRow()]));
    expect(await screen.findByText(/制造业\s*\/\s*通用设备制造业/)).toBeInTheDocument();
    expect(screen.queryByText('选择投保人后显示')).toBeNull();
  });

  it('a new application asks for the customers beside the products, not once they have answered', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    api = mockApi({
      'GET api/products/available': () => new Promise<MockAnswer>(() => {}),
      'GET api/customers': page([]),
    });
    renderAt('/piibs/insured/stepOne/0/1');
    await waitFor(() => expect(api.callsTo('GET api/customers')).toHaveLength(1));
    expect(api.callsTo('GET api/products/available')).toHaveLength(1);
  });

  it("a tab opened on a new application's first step shows the applicant asked with its first requests, without asking again", async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    api = mockApi({ 'GET api/products/available': { data: [] }, 'GET api/customers': page([]) });
    const early: Record<string, unknown> = {
      [`/${EARLY_WIZARD_URLS.products}`]: [],
      [`/${EARLY_WIZARD_URLS.customers}`]: page([customerRow()]).data,
    };
    vi.stubGlobal('fetch', async (url: string) => Response.json(early[url]));
    try {
      requestEarly(Object.values(EARLY_WIZARD_URLS));
      renderAt('/piibs/insured/stepOne/0/1');
      // The enterprise's one customer is taken as the applicant: its industry shows.
      expect(await screen.findByText(/制造业\s*\/\s*通用设备制造业/)).toBeInTheDocument();
      expect(api.callsTo('GET api/products/available')).toEqual([]);
      expect(api.callsTo('GET api/customers')).toEqual([]);
    } finally {
      dropEarly();
      vi.unstubAllGlobals();
    }
  });

  it('project insurance is for an enterprise: no choice, an individual URL goes back to 1', async () => {
    signInAs(['contractor'], ['application:add', 'application:edit']);
    api = mockApi({ 'GET api/products/available': { data: [] }, 'GET api/customers': page([]) });
    const path = renderAt('/piibs/epinsure/stepOne/0/2');
    await waitFor(() => expect(path()).toBe('/piibs/epinsure/stepOne/0/1'));
    expect(await screen.findByText('投保人（企业）')).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: '个人' })).toBeNull();
  });

  it("an existing draft takes its own type, not the URL's: the individual's name and identity card, no credit code", async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    const app = draft({
      policyholderType: 2,
      insuredName: '王小明',
      insuredUscc: null,
      insuredIdNumber: null,
    });
    api = mockApi({
      'GET api/applications/5': { data: app },
      'GET api/products/available': { data: [] },
      'POST api/applications/5/draft': (config) => ({
        data: { ...app, ...JSON.parse(String(config.data)), version: app.version + 1 },
      }),
    });
    const path = renderAt('/piibs/insured/stepSecond/5/1');
    const idNumber = await screen.findByRole('textbox', { name: '被保险人身份证号' });
    expect(path()).toBe('/piibs/insured/stepSecond/5/2');
    expect(screen.getByRole('textbox', { name: '被保险人姓名' })).toHaveValue('王小明');
    expect(screen.queryByRole('textbox', { name: '被保险人统一社会信用代码' })).toBeNull();
    expect(screen.queryByText('被保险人统一社会信用代码')).toBeNull();

    // the shared identity card check, at the field
    fireEvent.change(idNumber, { target: { value: '110105194912310021' } });
    fireEvent.click(screen.getByRole('button', { name: '下一步' }));
    expect(await screen.findByText('请输入正确的18位居民身份证号码')).toBeInTheDocument();
    expect(api.callsTo('POST api/applications/5/draft')).toHaveLength(0);

    fireEvent.change(idNumber, { target: { value: '11010519491231002x' } });
    fireEvent.click(screen.getByRole('button', { name: '下一步' }));
    await waitFor(() => expect(api.callsTo('POST api/applications/5/draft')).toHaveLength(1));
    const sent = JSON.parse(String(api.callsTo('POST api/applications/5/draft')[0]!.data));
    expect(sent).toMatchObject({ insuredName: '王小明', insuredIdNumber: '11010519491231002X', version: 4 });
    expect(sent).not.toHaveProperty('insuredUscc');
    await waitFor(() => expect(path()).toBe('/piibs/insured/stepThird/5/2'));
  });

  it('an enterprise draft asks for the credit code and no identity card', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    api = mockApi({
      'GET api/applications/5': { data: draft({}) },
      'GET api/products/available': { data: [] },
    });
    const path = renderAt('/piibs/insured/stepSecond/5/2');
    expect(await screen.findByRole('textbox', { name: '被保险人统一社会信用代码' })).toHaveValue(
      '91440300708461136T',
    );
    expect(path()).toBe('/piibs/insured/stepSecond/5/1');
    expect(screen.getByText('被保险人名称')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: '被保险人身份证号' })).toBeNull();
  });

  it('the project step shows the shared project fields with the draft as saved', async () => {
    signInAs(['contractor'], ['application:add', 'application:edit']);
    const project = draft({
      channel: 'project',
      productClass: 'construction',
      projectName: '镇江测试工程',
      projectAddress: '镇江市京口区',
      projectCostFen: 5_000_000_000,
      contractor: '镇江示范建设有限公司',
      highRisk: true,
    });
    api = mockApi({
      'GET api/applications/5': { data: project },
      'GET api/products/available': { data: [] },
    });
    renderAt('/piibs/epinsure/stepSecond/5/1');
    expect(await screen.findByRole('textbox', { name: '工程名称' })).toHaveValue('镇江测试工程');
    expect(screen.getByRole('textbox', { name: '工程地址' })).toHaveValue('镇江市京口区');
    expect(screen.getByRole('spinbutton', { name: '工程造价' })).toHaveValue('50000000.00');
    expect(screen.getByRole('textbox', { name: '施工单位' })).toHaveValue('镇江示范建设有限公司');
    expect(screen.getByRole('switch', { name: '高风险工程' })).toBeChecked();
  });

  it('a refused save shows each message at its field, the cost typed in yuan too; others above the form', async () => {
    signInAs(['contractor'], ['application:add', 'application:edit']);
    const project = draft({ channel: 'project', productClass: 'construction', projectName: '镇江测试工程' });
    let errors = [
      { field: 'projectCostFen', message: '超出费率表的最高档次（10亿元）' },
      { field: 'projectName', message: '不能超过 100 个字符' },
    ];
    api = mockApi({
      'GET api/applications/5': { data: project },
      'GET api/products/available': { data: [] },
      'POST api/applications/5/draft': () => ({
        status: 400,
        data: { status: 400, message: `工程造价：${errors[0]!.message}`, errors },
      }),
    });
    renderAt('/piibs/epinsure/stepSecond/5/1');
    fireEvent.change(await screen.findByRole('spinbutton', { name: '工程造价' }), {
      target: { value: '2000000000' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: '工程地址' }), { target: { value: '镇江市' } });
    fireEvent.change(screen.getByRole('textbox', { name: '施工单位' }), { target: { value: '镇江建设' } });
    fireEvent.click(screen.getByRole('button', { name: '下一步' }));
    const under = (name: string) =>
      screen.getByRole(name === '工程造价' ? 'spinbutton' : 'textbox', { name }).closest('.ant-form-item');
    await waitFor(() => expect(under('工程造价')).toHaveTextContent('超出费率表的最高档次（10亿元）'));
    expect(under('工程名称')).toHaveTextContent('不能超过 100 个字符');
    expect(screen.queryByRole('alert')).toBeNull();

    errors = [{ field: 'version', message: '不能为空' }];
    fireEvent.click(screen.getByRole('button', { name: '下一步' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('工程造价：不能为空');
  });
});

describe('the co-insurance step (insured/stepThird)', { timeout: 40_000 }, () => {
  let api: MockApi;
  afterEach(() => {
    api?.restore();
    resetKitState();
  });

  /** A draft of a product that allows co-insurance, priced at 24,000.00 yuan (prevention fee 3,600.00). */
  const coDraft = (over: Partial<ApplicationDetail> = {}) =>
    draft({
      allowsCoinsurance: true,
      quote: { premiumFen: 2_400_000, preventionFeeFen: 360_000 } as ApplicationDetail['quote'],
      ...over,
    });
  const answers = (app: ApplicationDetail) => ({
    'GET api/applications/5': { data: app },
    'GET api/products/available': { data: [] },
    'GET api/dictDetail': dictAnswers({
      coinsurer: [
        ['PICC', '中国人民财产保险股份有限公司'],
        ['PAIC', '中国平安财产保险股份有限公司'],
      ],
    }),
    'POST api/applications/5/coinsurers': { data: app },
  });

  it("starts with the issuer's row, the lead and fixed; co-insurers are added to it and the split includes it", async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    api = mockApi(answers(coDraft()));
    renderAt('/piibs/insured/stepThird/5/1');
    fireEvent.click(await screen.findByRole('switch', { name: '是否共保/联保' }));

    const issuer = await screen.findByRole('textbox', { name: '共保公司1' });
    expect(issuer).toHaveValue('示例财产保险股份有限公司（本公司）');
    expect(issuer).toHaveAttribute('readonly');
    expect(screen.getByRole('checkbox', { name: '主承保1' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '主承保1' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: '主承保2' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: '主承保2' })).toBeDisabled();
    expect(screen.getByRole('button', { name: '删除共保公司1' })).toBeDisabled();

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: '共保公司2' }));
    await user.click(await screen.findByTitle('中国人民财产保险股份有限公司'));
    await user.type(screen.getByRole('textbox', { name: '共保份额1' }), '60');
    await user.type(screen.getByRole('textbox', { name: '共保份额2' }), '40');
    expect(screen.getByTestId('share-total')).toHaveTextContent('份额合计：100%');
    // the issuer's part is in the split; it collects as the lead
    expect(await screen.findByTestId('collection-notice')).toHaveTextContent(
      '由主承保人 示例财产保险股份有限公司 代收全部保费 ¥24,000.00',
    );
    const mine = screen.getByRole('cell', { name: '示例财产保险股份有限公司' }).closest('tr')!;
    expect(within(mine).getByText('¥14,400.00')).toBeInTheDocument();
    expect(within(mine).getByText('¥2,160.00')).toBeInTheDocument();
    const picc = screen.getByRole('cell', { name: '中国人民财产保险股份有限公司' }).closest('tr')!;
    expect(within(picc).getByText('¥9,600.00')).toBeInTheDocument();

    // a third insurer can be added and removed; the issuer's row stays
    await user.click(screen.getByRole('button', { name: /添加共保公司/ }));
    await user.click(screen.getByRole('button', { name: '删除共保公司3' }));
    expect(screen.queryByRole('combobox', { name: '共保公司3' })).toBeNull();

    await user.click(screen.getByRole('button', { name: '下一步' }));
    await waitFor(() => expect(api.callsTo('POST api/applications/5/coinsurers')).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo('POST api/applications/5/coinsurers')[0]!.data))).toEqual({
      version: 4,
      shares: [
        { insurerCode: ISSUER_CODE, lead: true, share: '60' },
        { insurerCode: 'PICC', lead: false, share: '40' },
      ],
    });
  });

  it('a table saved without the issuer gets its row; another insurer may lead where the product allows it', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    const row = (insurerCode: string, lead: boolean, shareText: string) => ({
      insurerCode,
      insurerName: null,
      lead,
      share: Number(shareText) * 1_000_000,
      shareText,
      premiumFen: 0,
      preventionFeeFen: 0,
    });
    api = mockApi(
      answers(
        coDraft({
          issuerLeads: false,
          coinsurers: [row('PICC', true, '60'), row('PAIC', false, '40')],
        }),
      ),
    );
    renderAt('/piibs/insured/stepThird/5/1');
    expect(await screen.findByRole('textbox', { name: '共保公司1' })).toHaveValue(
      '示例财产保险股份有限公司（本公司）',
    );
    // PICC keeps the lead; the boxes are free; the issuer's share is to be typed
    expect(screen.getByRole('checkbox', { name: '主承保1' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: '主承保2' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '主承保1' })).toBeEnabled();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '下一步' }));
    expect(await screen.findByText('请输入共保份额')).toBeInTheDocument();
    await user.clear(screen.getByRole('textbox', { name: '共保份额2' }));
    await user.type(screen.getByRole('textbox', { name: '共保份额2' }), '50');
    await user.type(screen.getByRole('textbox', { name: '共保份额1' }), '10');
    await user.click(screen.getByRole('button', { name: '下一步' }));
    await waitFor(() => expect(api.callsTo('POST api/applications/5/coinsurers')).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo('POST api/applications/5/coinsurers')[0]!.data)).shares).toEqual([
      { insurerCode: ISSUER_CODE, lead: false, share: '10' },
      { insurerCode: 'PICC', lead: true, share: '50' },
      { insurerCode: 'PAIC', lead: false, share: '40' },
    ]);
  });
});

describe('填写投保信息 (stepOne): the optional covers', { timeout: 40_000 }, () => {
  let api: MockApi;
  afterEach(() => {
    api?.restore();
    resetKitState();
  });
  /** Work safety with third-party property (每次事故 50万, 累计 100万) to add; rated 0.5‰ and 0.2‰. */
  const product = {
    id: 1,
    code: 'AZX_GM_2025',
    name: '安全生产责任保险（工贸行业）',
    productClass: 'work_safety',
    allowsCoinsurance: false,
    preventionRatioMin: 15_000_000,
    preventionRatioMax: 21_000_000,
    coverages: [
      {
        id: 1,
        type: 'EMPLOYEE_DEATH_DISABILITY',
        name: '从业人员伤亡（死亡/伤残）',
        perPersonLimitFen: yuan(400_000),
        perAccidentLimitFen: null,
        aggregateLimitFen: null,
        deductibleFen: 0,
        mandatory: true,
        sort: 1,
      },
      {
        id: 2,
        type: 'THIRD_PARTY_PROPERTY',
        name: '第三者财产损失',
        perPersonLimitFen: null,
        perAccidentLimitFen: yuan(500_000),
        aggregateLimitFen: yuan(1_000_000),
        deductibleFen: yuan(1_000),
        mandatory: false,
        sort: 2,
      },
    ],
    rating: {
      rateTableId: 3,
      versionNo: 1,
      effectiveDate: '2026-01-01',
      limitTiersFen: [],
      factors: [],
      highRiskLoading: null,
      rows: [
        {
          coverageType: 'EMPLOYEE_DEATH_DISABILITY',
          industry: null,
          limitTierFen: null,
          costBandUpToFen: null,
          rate: 5_000,
        },
        {
          coverageType: 'THIRD_PARTY_PROPERTY',
          industry: null,
          limitTierFen: null,
          costBandUpToFen: null,
          rate: 2_000,
        },
      ],
    },
  } as unknown as AvailableProduct;

  it('labels a cover with the limits the quote rates: 累计限额 100万元 in both, from the product', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    api = mockApi({
      'GET api/applications/5': { data: draft({ coverages: ['THIRD_PARTY_PROPERTY'] }) },
      'GET api/products/available': { data: [product] },
    });
    renderAt('/piibs/insured/stepOne/5/1');
    const box = await screen.findByRole('checkbox', {
      name: '第三者财产损失（每次事故限额 50万元，累计限额 100万元）',
    });
    expect(box).toBeChecked();
    // 120 × 40万 × 0.5‰ = 24,000 + 100万 × 0.2‰ = 200 yuan.
    const quote = screen.getByTestId('live-quote');
    expect(await within(quote).findByText('第三者财产损失 累计限额 100万元 × 0.2‰')).toBeInTheDocument();
    expect(within(quote).getByTestId('premium')).toHaveTextContent('¥24,200.00');
  });
});

describe('the documents, on the last step', { timeout: 40_000 }, () => {
  let api: MockApi;
  afterEach(() => {
    api?.restore();
    resetKitState();
  });

  it('a returned application asking for a document: highlighted, uploaded in the same screen, then 提交审核', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    // Its licence is on the customer already; the underwriter asked for the signed application form.
    const app = draft({
      status: 'RETURNED',
      statusLabel: '已退回',
      reviewOpinion: '请补充加盖公章的投保单',
      requestedDocTypes: ['SIGNED_APPLICATION'],
      customerDocTypes: ['BUSINESS_LICENSE'],
    });
    let stored: MaterialRow[] = [];
    api = mockApi({
      'GET api/applications/5': { data: app },
      'GET api/products/available': { data: [] },
      'GET api/dictDetail': dictAnswers({
        document_type: [
          ['BUSINESS_LICENSE', '营业执照'],
          ['INSURED_LIST', '被保险人清单'],
          ['SIGNED_APPLICATION', '签章投保单'],
          ['OTHER', '其他'],
        ],
      }),
      'GET api/materials': () => ({
        data: {
          content: stored,
          totalElements: stored.length,
          editable: true,
          readOnlyReason: null,
          editableDocTypes: [],
        },
      }),
      'POST api/materials': (config) => {
        const form = config.data as FormData;
        const file = form.get('file') as File;
        const created: MaterialRow = {
          id: 31,
          businessType: 'application',
          businessId: 5,
          docType: String(form.get('docType')),
          docTypeName: '签章投保单',
          originalName: file.name,
          mime: 'application/pdf',
          sizeBytes: file.size,
          sha256: 'b'.repeat(64),
          uploadedBy: 1,
          uploaderName: '企业用户',
          createdAt: '2026-11-21T08:00:00.000Z',
          fileUrl: '/api/materials/31/file',
          thumbnailUrl: null,
        };
        stored = [created];
        return { data: created };
      },
      'POST api/applications/5/submit': {
        data: { ...app, status: 'PENDING_REVIEW', statusLabel: '待审核', version: app.version + 1 },
      },
    });
    const path = renderAt('/piibs/insured/stepForth/5/1');
    expect(
      await screen.findByText('需补充影像资料：签章投保单（在「确认保费信息」一步上传）'),
    ).toBeInTheDocument();
    const asked = await screen.findByRole('region', { name: '签章投保单' });
    expect(within(asked).getByRole('heading')).toHaveTextContent('签章投保单（核保要求补充）');
    expect(screen.getByRole('region', { name: '被保险人清单' })).toHaveTextContent(
      '被保险人清单（核保通过前必备）',
    );
    // The first sections are the needed ones, in the order they are needed.
    const headings = screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));
    expect(headings.slice(0, 3)).toEqual(['签章投保单', '营业执照', '被保险人清单']);
    expect(await screen.findByText('提交审核前请上传：签章投保单')).toBeInTheDocument();

    // Submitting without it: refused here with the server's words, nothing sent.
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '提交审核' }));
    expect(await screen.findByText('影像资料：请上传 签章投保单')).toBeInTheDocument();
    expect(api.callsTo('POST api/applications/5/submit')).toHaveLength(0);

    await user.upload(
      asked.querySelector('input[type=file]') as HTMLInputElement,
      new File(['%PDF-1.7'], '签章投保单.pdf', { type: 'application/pdf' }),
    );
    expect(await within(asked).findByText('签章投保单.pdf')).toBeInTheDocument();
    expect(
      Object.fromEntries((api.callsTo('POST api/materials')[0]!.data as FormData).entries()),
    ).toMatchObject({
      businessType: 'application',
      businessId: '5',
      docType: 'SIGNED_APPLICATION',
    });
    expect(await screen.findByText('核保通过前还需：被保险人清单，可现在一并上传')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '提交审核' }));
    await waitFor(() => expect(api.callsTo('POST api/applications/5/submit')).toHaveLength(1));
    await waitFor(() => expect(path()).toBe('/piibs/insured/stepSuccess/5/1'));
  });
});

describe('从业人员名单 (a product that asks for the named list)', { timeout: 90_000 }, () => {
  let api: MockApi;
  afterEach(() => {
    api?.restore();
    resetKitState();
    vi.restoreAllMocks();
  });
  const named = {
    id: 1,
    code: 'AZX_SM_2025',
    name: '安全生产责任保险（实名制）',
    productClass: 'work_safety',
    allowsCoinsurance: true,
    namedInsuredRequired: true,
    preventionRatioMin: 15_000_000,
    preventionRatioMax: 21_000_000,
    coverages: [],
    rating: null,
  } as unknown as AvailableProduct;
  const saved = {
    required: true,
    count: 2,
    persons: [
      { sort: 1, name: '测试甲', idNumberMasked: '3201**********1234' },
      { sort: 2, name: '测试乙', idNumberMasked: '3201**********5678' },
    ],
  };
  const answers = (app: ApplicationDetail) => ({
    'GET api/applications/5': { data: app },
    'GET api/applications/5/insuredPersons': { data: saved },
    'GET api/products/available': { data: [named] },
    'POST api/applications/5/draft': (config: { data?: unknown }) => ({
      data: { ...app, ...JSON.parse(String(config.data)), version: app.version + 1 },
    }),
  });

  it('shows the saved people masked; a typed row is checked by the shared rule and blocks 下一步 until right; the list is saved whole with the draft', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    const app = draft({ headcount: 2 });
    api = mockApi({
      ...answers(app),
      'PUT api/applications/5/insuredPersons': { data: { ...saved, count: 2 } },
    });
    const path = renderAt('/piibs/insured/stepSecond/5/1');
    const section = await screen.findByTestId('named-insured');
    expect(await within(section).findByText('3201**********1234')).toBeInTheDocument();
    expect(within(section).getByRole('heading', { name: /从业人员名单（共 2 人/ })).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(section).getByRole('button', { name: '删除第 2 行（测试乙）' }));
    await user.click(within(section).getByRole('button', { name: '添加人员' }));
    const name = within(section).getByRole('textbox', { name: '第 2 行姓名' });
    const id = within(section).getByRole('textbox', { name: '第 2 行身份证号码' });
    fireEvent.change(name, { target: { value: '测试丙' } });
    fireEvent.change(id, { target: { value: '110105194912310022' } });
    fireEvent.blur(id);
    expect(
      await within(section).findByText('身份证号码：请输入正确的18位居民身份证号码'),
    ).toBeInTheDocument();
    expect(id).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: '下一步' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('从业人员名单有错误');
    expect(api.callsTo('PUT api/applications/5/insuredPersons')).toHaveLength(0);

    fireEvent.change(id, { target: { value: '11010519491231002x' } });
    expect(within(section).queryByText(/身份证号码：/)).toBeNull();
    await user.click(screen.getByRole('button', { name: '下一步' }));
    await waitFor(() => expect(api.callsTo('PUT api/applications/5/insuredPersons')).toHaveLength(1));
    // The draft saved first (version 4 → 5), then the list against that version: the kept person by 序号.
    expect(JSON.parse(String(api.callsTo('PUT api/applications/5/insuredPersons')[0]!.data))).toEqual({
      version: 5,
      persons: [{ sort: 1 }, { name: '测试丙', idNumber: '11010519491231002x' }],
    });
    await waitFor(() => expect(path()).toBe('/piibs/insured/stepThird/5/1'));
  });

  it('on a phone the list is a card per person, its inputs and 删除 in the card', async () => {
    onPhone();
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    api = mockApi(answers(draft({ headcount: 2 })));
    renderAt('/piibs/insured/stepSecond/5/1');
    const section = await screen.findByTestId('named-insured');
    const cards = () =>
      within(within(section).getByRole('list', { name: '从业人员列表' })).getAllByRole('listitem');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(within(section).queryByRole('table')).toBeNull();
    expect(within(cards()[0]!).getByText('3201**********1234')).toBeInTheDocument();

    fireEvent.click(within(section).getByRole('button', { name: '添加人员' }));
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(within(cards()[2]!).getByRole('textbox', { name: '第 3 行姓名' })).toBeInTheDocument();
    fireEvent.click(within(cards()[1]!).getByRole('button', { name: '删除第 2 行（测试乙）' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
  });

  it('the server refusing a row puts its words on that row', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    api = mockApi({
      ...answers(draft({ headcount: 2 })),
      'PUT api/applications/5/insuredPersons': {
        status: 400,
        data: {
          status: 400,
          message: '从业人员名单有 1 处错误，未导入：第 3 行：身份证号码与第 1 行重复',
          errors: [{ field: 'persons', message: '第 3 行：身份证号码与第 1 行重复' }],
        },
      },
    });
    renderAt('/piibs/insured/stepSecond/5/1');
    const section = await screen.findByTestId('named-insured');
    await within(section).findByText('3201**********1234');
    const user = userEvent.setup();
    await user.click(within(section).getByRole('button', { name: '添加人员' }));
    fireEvent.change(within(section).getByRole('textbox', { name: '第 3 行姓名' }), {
      target: { value: '测试丙' },
    });
    fireEvent.change(within(section).getByRole('textbox', { name: '第 3 行身份证号码' }), {
      target: { value: '11010519491231002X' },
    });
    await user.click(screen.getByRole('button', { name: '下一步' }));
    const row = (await within(section).findByText('身份证号码与第 1 行重复')).closest('tr')!;
    expect(within(row).getByRole('textbox', { name: '第 3 行身份证号码' })).toHaveAttribute(
      'aria-describedby',
    );
  });

  it('an .xlsx import with bad rows names each and changes nothing; a good one replaces the list', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    let refuse = true;
    api = mockApi({
      ...answers(draft({ headcount: 2 })),
      'POST api/applications/5/insuredPersons/import': () =>
        refuse
          ? {
              status: 400,
              data: {
                status: 400,
                message: '从业人员名单有 2 处错误，未导入：…',
                errors: [
                  { field: 'persons', message: '第 3 行：姓名：不能为空' },
                  { field: 'persons', message: '第 5 行：身份证号码：请输入正确的18位居民身份证号码' },
                ],
              },
            }
          : {
              data: {
                required: true,
                count: 3,
                persons: [
                  ...saved.persons,
                  { sort: 3, name: '测试丁', idNumberMasked: '1101**********002X' },
                ],
              },
            },
    });
    renderAt('/piibs/insured/stepSecond/5/1');
    const section = await screen.findByTestId('named-insured');
    await within(section).findByText('3201**********1234');
    const input = () => section.querySelector('input[type=file]') as HTMLInputElement;
    const user = userEvent.setup();
    const file = new File(['xlsx'], '名单.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    await user.upload(input(), file);
    const refused = await within(section).findByRole('alert');
    expect(refused).toHaveTextContent('导入未成功，名单未作任何修改');
    expect(refused).toHaveTextContent('第 3 行：姓名：不能为空');
    expect(refused).toHaveTextContent('第 5 行：身份证号码：请输入正确的18位居民身份证号码');
    expect(within(section).getByRole('heading', { name: /共 2 人/ })).toBeInTheDocument();
    const sent = api.callsTo('POST api/applications/5/insuredPersons/import')[0]!.data as FormData;
    expect(sent.get('version')).toBe('4');

    refuse = false;
    await user.upload(input(), file);
    expect(await within(section).findByText('已导入 3 人')).toBeInTheDocument();
    expect(within(section).getByText('1101**********002X')).toBeInTheDocument();
    expect(within(section).queryByText('导入未成功，名单未作任何修改')).toBeNull();
  });

  it('填写投保信息: the headcount follows the saved list and cannot be typed', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add', 'application:edit']);
    api = mockApi(answers(draft({ headcount: 2 })));
    renderAt('/piibs/insured/stepOne/5/1');
    expect(
      await screen.findByText('按从业人员名单计（2 人）；在「保单基本信息」一步增减人员'),
    ).toBeInTheDocument();
    expect(screen.getByRole('spinbutton', { name: '参保人数' })).toBeDisabled();
  });
});
