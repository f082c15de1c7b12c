import { ROLE_CODES } from '@piibs/shared/auth';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { endorsementRow } from '@/features/project/test-data.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { policyDetail, projectPolicyDetail } from '../test-data.ts';
import PolicyInsuranceView from './PolicyInsuranceView.tsx';

const PATTERN = '/piibs/projectManage/policyInsuranceView/:id';
const render = (id = 9) =>
  renderRoute(<PolicyInsuranceView />, PATTERN, `/piibs/projectManage/policyInsuranceView/${id}`);

let api: MockApi;
beforeEach(() => signInAs([ROLE_CODES.enterprise], ['application:list']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('保单详情 (projectManage/policyInsuranceView/:id)', { timeout: 30_000 }, () => {
  it('shows the policy, its coverages and co-insurers, the e-policy and verification, payments, materials and history', async () => {
    api = mockApi({
      'GET api/policies/9': { data: policyDetail() },
      'GET api/dictDetail': { data: { content: [], totalElements: 0 } },
      'GET api/materials': {
        data: { content: [], totalElements: 0, editable: false, readOnlyReason: null, editableDocTypes: [] },
      },
    });
    render();
    expect(await screen.findByTestId('policy-number')).toHaveTextContent('PAZX202600000009');
    expect(screen.getAllByText('未生效').length).toBeGreaterThan(0);
    expect(screen.getByText('自 2026-12-01 零时起至 2027-11-30 二十四时止')).toBeInTheDocument();
    expect(screen.getByTestId('policy-premium')).toHaveTextContent('¥24,000.00');
    expect(screen.getByTestId('policy-prevention-fee')).toHaveTextContent('¥3,600.00');
    expect(screen.getByText('事故预防费用（15%）')).toBeInTheDocument();

    // The covers as the e-policy prints them: limits labelled, the deductible, each one's premium.
    const covers = screen.getByTestId('policy-covers');
    expect(
      within(covers)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['保险责任', '每人限额', '每次事故限额', '累计限额', '免赔额', '保费']);
    const cells = (name: string) =>
      within(rowOf(name))
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells('从业人员伤亡（死亡/伤残）')).toEqual([
      '从业人员伤亡（死亡/伤残）',
      '¥400,000.00',
      '—',
      '—',
      '无',
      '¥20,000.00',
    ]);
    expect(cells('第三者人身伤亡')).toEqual([
      '第三者人身伤亡',
      '—',
      '¥1,000,000.00',
      '¥5,000,000.00',
      '¥500.00',
      '¥4,000.00',
    ]);

    // Co-insurers: the issuing insurer leads and collects; shares and parts.
    expect(screen.getByTestId('collection-notice')).toHaveTextContent(
      '本保单为共保保单，由主承保人 示例财产保险股份有限公司 代收全部保费 ¥24,000.00，并按份额与共保人结算',
    );
    const lead = rowOf('示例财产保险股份有限公司');
    expect(within(lead).getByText('主承保')).toBeInTheDocument();
    expect(within(lead).getByText('60%')).toBeInTheDocument();
    expect(within(lead).getByText('¥14,400.00')).toBeInTheDocument();
    expect(within(lead).getByText('¥2,160.00')).toBeInTheDocument();
    const follower = rowOf('中国平安财产保险股份有限公司');
    expect(within(follower).getByText('从共保')).toBeInTheDocument();
    expect(within(follower).getByText('40%')).toBeInTheDocument();
    expect(within(follower).getByText('¥9,600.00')).toBeInTheDocument();

    // The e-policy, its hash, the verification code and the public link.
    expect(screen.getByTestId('policy-sha256')).toHaveTextContent('ab12'.repeat(16));
    expect(screen.getByTestId('policy-verification-code')).toHaveTextContent('K7M2Q9X4TB8R3N6P');
    expect(screen.getByRole('link', { name: /\/piibs\/verify\/K7M2Q9X4TB8R3N6P$/ })).toHaveAttribute(
      'href',
      '/piibs/verify/K7M2Q9X4TB8R3N6P',
    );
    expect(screen.getAllByRole('button', { name: /下载电子保单/ }).length).toBeGreaterThan(0);

    // Payments, history, and the application's materials read-only.
    expect(within(rowOf('SBX20261121000001')).getByText('支付通知')).toBeInTheDocument();
    expect(screen.getByText(/出具保单 → 已出单/)).toBeInTheDocument();
    expect(screen.getByText('说明：保单号 PAZX202600000009')).toBeInTheDocument();
    expect(await screen.findByText('影像资料')).toBeInTheDocument();
    await screen.findByText(/影像资料类型字典为空/);
    expect(api.callsTo('GET api/materials')[0]?.params).toMatchObject({
      businessType: 'application',
      businessId: 12,
    });
  });

  it('a project policy (premium by cost band) lists its covers with their limits and states the premium once', async () => {
    api = mockApi({
      'GET api/policies/9': { data: projectPolicyDetail() },
      'GET api/dictDetail': { data: { content: [], totalElements: 0 } },
      'GET api/materials': {
        data: { content: [], totalElements: 0, editable: false, readOnlyReason: null },
      },
    });
    render();
    const covers = await screen.findByTestId('policy-covers');
    expect(within(covers).queryByRole('columnheader', { name: '保费' })).toBeNull();
    expect(within(rowOf('事故应急救援费用')).getByText('¥1,000,000.00')).toBeInTheDocument();
    expect(within(rowOf('从业人员伤亡（死亡/伤残）')).getByText('¥500,000.00')).toBeInTheDocument();
    expect(within(covers).getByText('保费按整单计收，不按保险责任分列：合计 ¥30,500.00')).toBeInTheDocument();
    expect(covers).not.toHaveTextContent(/[×‰]/);
  });

  it('a policy without co-insurers says so', async () => {
    api = mockApi({
      'GET api/policies/9': { data: policyDetail({ coinsurers: [] }) },
      'GET api/dictDetail': { data: { content: [], totalElements: 0 } },
      'GET api/materials': {
        data: { content: [], totalElements: 0, editable: false, readOnlyReason: null, editableDocTypes: [] },
      },
    });
    render();
    expect(await screen.findByText('不共保（本公司独家承保）')).toBeInTheDocument();
    expect(screen.queryByTestId('collection-notice')).toBeNull();
  });

  it("an individual policyholder's policy labels the insured's number 被保险人身份证号", async () => {
    api = mockApi({
      'GET api/policies/9': {
        data: policyDetail({
          insuredName: '王小明',
          insuredUscc: null,
          insuredIdNumber: '11010519491231002X',
        }),
      },
      'GET api/dictDetail': { data: { content: [], totalElements: 0 } },
      'GET api/materials': {
        data: { content: [], totalElements: 0, editable: false, readOnlyReason: null, editableDocTypes: [] },
      },
    });
    render();
    expect(await screen.findByText('11010519491231002X')).toBeInTheDocument();
    expect(screen.getByText('被保险人身份证号')).toBeInTheDocument();
    expect(screen.queryByText('被保险人统一社会信用代码')).not.toBeInTheDocument();
  });

  it('lists the endorsements (批单) of a project policy: what changed, the difference, the PDF', async () => {
    api = mockApi({
      'GET api/policies/9': { data: policyDetail() },
      'GET api/dictDetail': { data: { content: [], totalElements: 0 } },
      'GET api/materials': {
        data: { content: [], totalElements: 0, editable: false, readOnlyReason: null, editableDocTypes: [] },
      },
      'GET api/policies/9/endorsements': {
        data: [
          endorsementRow(),
          endorsementRow({
            id: 8,
            number: 'EJZSG202600000008',
            declarationId: 44,
            declarationNumber: 'EC2026000044',
            changes: [{ field: 'highRisk', label: '危大工程', before: '是', after: '否' }],
            premiumBeforeFen: 3_965_000,
            premiumAfterFen: 3_050_000,
            premiumDiffFen: -915_000,
          }),
        ],
      },
    });
    render();
    const first = (await screen.findByText('EJZSG202600000007')).closest('tr')!;
    expect(within(first).getByText('工程造价：¥10,000,000.00 → ¥50,000,000.00')).toBeInTheDocument();
    expect(within(first).getByText('加收 ¥33,150.00')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'EC2026000043' })).toHaveAttribute(
      'href',
      '/piibs/projectManage/apply/43/true/2/2',
    );
    const second = rowOf('EJZSG202600000008');
    expect(within(second).getByText('退还 ¥9,150.00')).toBeInTheDocument();
    expect(within(second).getByText('下载批单')).toBeInTheDocument();
  });

  it('404: 保单不存在或无权查看', async () => {
    api = mockApi({ 'GET api/policies/77': { status: 404, data: { status: 404, message: '保单不存在' } } });
    render(77);
    expect(await screen.findByText('保单不存在或无权查看')).toBeInTheDocument();
  });

  it('shows the sales supplement to those who may read it, with a link to the 补录 page', async () => {
    signInAs(['agent'], ['application:list', 'sales:list']);
    api = mockApi({
      'GET api/policies/9': { data: policyDetail() },
      'GET api/dictDetail': { data: { content: [], totalElements: 0 } },
      'GET api/materials': {
        data: { content: [], totalElements: 0, editable: false, readOnlyReason: null, editableDocTypes: [] },
      },
      'GET api/policies/9/sales': {
        data: {
          supplement: {
            salespersonName: '王晓明',
            salespersonNo: 'S0012',
            agentName: '镇江代理',
            commissionRateText: '3',
            businessSource: 'AGENCY',
            businessSourceLabel: '代理业务',
            updatedBy: 'agent',
            variant: 'STANDARD',
          },
        },
      },
    });
    render();
    expect(await screen.findByText('王晓明（S0012）')).toBeInTheDocument();
    expect(screen.getByText('3%')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '查看补录' })).toBeInTheDocument();
  });
});
