import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { projectPolicyDetail } from '@/features/policy/test-data.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import {
  annualOrderDetail,
  approvedProject,
  changeDetail,
  constructionProduct,
  declarationDetail,
  endorsementRow,
} from '../test-data.ts';
import Apply from './Apply.tsx';

const PATTERN = '/piibs/projectManage/apply/:id/:detail/:type/:status';
let api: MockApi;

beforeEach(() => signInAs(['contractor'], ['project_order:list', 'project_order:apply']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const bodyOf = (key: string) => JSON.parse(String(api.callsTo(key).at(-1)?.data));

describe('二次下单申请 (projectManage/apply/:id/:detail/:type/:status)', { timeout: 40_000 }, () => {
  it('declares a project: live premium by cost band, cost sent in fen, a server 400 shown at its field', async () => {
    let posts = 0;
    api = mockApi({
      'GET api/project-orders/5': { data: annualOrderDetail() },
      'GET api/products/available': { data: [constructionProduct] },
      'POST api/project-orders/5/declarations': () => {
        posts += 1;
        return posts === 1
          ? {
              status: 400,
              data: {
                status: 400,
                message: '工程造价：金额过大',
                errors: [{ field: 'projectCostFen', message: '金额过大' }],
              },
            }
          : {
              data: declarationDetail({
                status: 'DRAFT',
                statusLabel: '草稿',
                reservedFen: 0,
                actions: ['edit', 'submit', 'cancel'],
              }),
            };
      },
      'GET api/project-declarations/42': {
        data: declarationDetail({
          status: 'DRAFT',
          statusLabel: '草稿',
          reservedFen: 0,
          actions: ['edit', 'submit', 'cancel'],
        }),
      },
    });
    const { router } = renderRoute(<Apply />, PATTERN, '/piibs/projectManage/apply/0/false/1/0?orderId=5');
    expect(await screen.findByTestId('quota-remaining')).toHaveTextContent('¥453,850.00');
    expect(screen.getByTestId('quota-consumed')).toHaveTextContent('¥46,150.00');

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('工程名称'), '学府路小学改扩建工程');
    await user.type(screen.getByLabelText('工程地址'), '江苏省镇江市京口区学府路 120 号');
    await user.type(screen.getByLabelText('工程造价'), '10000000');
    // 10,000,000 yuan, all in the first band at 0.65‰.
    await waitFor(() => expect(screen.getByTestId('premium')).toHaveTextContent('¥6,500.00'));
    await user.click(screen.getByLabelText('危大工程'));
    await waitFor(() => expect(screen.getByTestId('premium')).toHaveTextContent('¥8,450.00'));
    await user.click(screen.getByLabelText('危大工程'));

    await user.click(screen.getByRole('button', { name: '保存草稿' }));
    // The server's refusal sits under the field it names.
    expect(await screen.findByText('金额过大')).toHaveClass('ant-form-item-explain-error');
    expect(bodyOf('POST api/project-orders/5/declarations')).toMatchObject({
      kind: 1,
      projectName: '学府路小学改扩建工程',
      projectAddress: '江苏省镇江市京口区学府路 120 号',
      projectCostFen: 1_000_000_000,
      highRisk: false,
      headcount: null,
    });
    const sent = bodyOf('POST api/project-orders/5/declarations');
    expect(Number.isInteger(sent.projectCostFen)).toBe(true);
    expect(sent.startDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sent.endDate > sent.startDate).toBe(true);

    await user.click(screen.getByRole('button', { name: '保存草稿' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/piibs/projectManage/apply/42/false/1/0'),
    );
    // The draft's own page (保存, not the new form's 保存草稿), which also offers 提交审核.
    expect(await screen.findByRole('button', { name: /^保\s*存$/ }, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '提交审核' })).toBeInTheDocument();
  });

  it('a returned declaration shows the opinion; a quota refusal on resubmit is shown on the page', async () => {
    const returned = declarationDetail({
      status: 'RETURNED',
      statusLabel: '已退回',
      reviewOpinion: '请补充施工合同首页',
      actions: ['edit', 'submit', 'cancel'],
    });
    api = mockApi({
      'GET api/project-declarations/42': { data: returned },
      'GET api/products/available': { data: [constructionProduct] },
      'POST api/project-declarations/42/draft': { data: { ...returned, version: 3 } },
      'POST api/project-declarations/42/submit': {
        status: 409,
        data: { status: 409, message: '年度订单剩余额度不足：剩余 ¥100.00，本次申报需占用 ¥6,500.00' },
      },
    });
    renderRoute(<Apply />, PATTERN, '/piibs/projectManage/apply/42/false/1/0');
    expect(await screen.findByText('审核意见：请补充施工合同首页')).toBeInTheDocument();
    expect(screen.getByLabelText('工程造价')).toHaveValue('10000000.00');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '重新提交' }));
    expect(await screen.findByText(/^年度订单剩余额度不足/)).toBeInTheDocument();
    expect(bodyOf('POST api/project-declarations/42/draft')).toMatchObject({
      projectCostFen: 1_000_000_000,
      version: 2,
    });
    expect(bodyOf('POST api/project-declarations/42/submit')).toEqual({ version: 3 });
  });

  it('read-only: the facts, the review progress and the issued policy by the status view', async () => {
    api = mockApi({
      'GET api/project-declarations/42': {
        data: declarationDetail({
          status: 'APPROVED',
          statusLabel: '审核通过',
          policyId: 31,
          policyNumber: 'PJZSG202600000031',
          openTaskId: null,
        }),
      },
    });
    renderRoute(<Apply />, PATTERN, '/piibs/projectManage/apply/42/true/1/2');
    expect(await screen.findByTestId('project-policy')).toHaveTextContent('PJZSG202600000031');
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: '申报信息' }));
    expect(await screen.findByTestId('declaration-premium')).toHaveTextContent('¥6,500.00');
    expect(screen.queryByRole('button', { name: '提交审核' })).toBeNull();
  });

  it("an issued project shows its policy's covers and offers 申请批改 under it, with its endorsements", async () => {
    api = mockApi({
      'GET api/project-declarations/41': {
        data: approvedProject({ endorsements: [endorsementRow({ declarationNumber: 'EC2026000040' })] }),
      },
      'GET api/policies/31': { data: projectPolicyDetail() },
    });
    const { router } = renderRoute(<Apply />, PATTERN, '/piibs/projectManage/apply/41/true/1/2');
    expect(await screen.findByTestId('project-policy')).toHaveTextContent('PJZSG202600000031');
    // The policy's covers with their limits, the premium (by cost band) stated once.
    const covers = await screen.findByTestId('policy-covers');
    const rescue = within(covers).getByText('事故应急救援费用').closest('tr')!;
    expect(
      within(rescue)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['事故应急救援费用', '—', '¥500,000.00', '¥1,000,000.00', '无']);
    expect(within(covers).getByText('保费按整单计收，不按保险责任分列：合计 ¥30,500.00')).toBeInTheDocument();
    const row = screen.getByText('EJZSG202600000007').closest('tr')!;
    expect(within(row).getByText('工程造价：¥10,000,000.00 → ¥50,000,000.00')).toBeInTheDocument();
    expect(within(row).getByText('加收 ¥33,150.00')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByText('申请批改').closest('button')!);
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        '/piibs/projectManage/apply/0/false/2/0?baseId=41',
      ),
    );
  });

  it('a change (type 2) shows each original value beside its field and the premium difference live', async () => {
    api = mockApi({
      'GET api/project-declarations/41': { data: approvedProject() },
      'GET api/products/available': { data: [constructionProduct] },
      'POST api/project-declarations/41/changes': { data: changeDetail() },
      'GET api/project-declarations/43': { data: changeDetail() },
    });
    const { router } = renderRoute(<Apply />, PATTERN, '/piibs/projectManage/apply/0/false/2/0?baseId=41');
    // The project's name and start stay; each field that may change shows its value before the change.
    expect(await screen.findByLabelText('工程名称')).toHaveValue('滨江花园二期住宅工程');
    expect(screen.getByLabelText('工程名称')).toBeDisabled();
    expect(screen.getByTestId('before-projectCostFen')).toHaveTextContent('批改前：¥10,000,000.00');
    expect(screen.getByTestId('before-projectAddress')).toHaveTextContent(
      '批改前：江苏省镇江市京口区学府路 120 号',
    );
    expect(screen.getByTestId('before-endDate')).toHaveTextContent('批改前：2027-02-28');
    expect(screen.getByTestId('before-highRisk')).toHaveTextContent('批改前：否');
    expect(screen.getByTestId('before-headcount')).toHaveTextContent('批改前：—');
    expect(screen.getByLabelText('工程造价')).toHaveValue('10000000.00');
    await waitFor(() => expect(screen.getByTestId('change-diff')).toHaveTextContent('保费不变'));

    const user = userEvent.setup();
    const cost = screen.getByLabelText('工程造价');
    await user.clear(cost);
    await user.type(cost, '12000000');
    // 12 million: 6,500 + 2,000,000 × 0.60‰ = 7,700 yuan, 1,200 more than the project's 6,500.
    await waitFor(() => expect(screen.getByTestId('change-premium')).toHaveTextContent('¥7,700.00'));
    expect(screen.getByTestId('change-diff')).toHaveTextContent('加收 ¥1,200.00');
    await user.clear(cost);
    await user.type(cost, '8000000');
    await waitFor(() => expect(screen.getByTestId('change-diff')).toHaveTextContent('退还 ¥1,300.00'));
    await user.clear(cost);
    await user.type(cost, '12000000');

    await user.click(screen.getByRole('button', { name: '保存草稿' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/piibs/projectManage/apply/43/false/2/0'),
    );
    // Only what a change may change, money in fen.
    expect(bodyOf('POST api/project-declarations/41/changes')).toEqual({
      projectAddress: '江苏省镇江市京口区学府路 120 号',
      projectCostFen: 1_200_000_000,
      endDate: '2027-02-28',
      highRisk: false,
      headcount: null,
    });
    // The change's own page (once it is loaded: the draft's page is still there for a moment): the same form,
    // its values, the originals beside them.
    await waitFor(() => expect(api.callsTo('GET api/project-declarations/43')).not.toHaveLength(0));
    expect(await screen.findByTestId('before-projectCostFen')).toHaveTextContent('¥10,000,000.00');
    expect(await screen.findByLabelText('工程造价')).toHaveValue('12000000.00');
    expect(screen.getByRole('button', { name: '提交审核' })).toBeInTheDocument();
  });

  it('a decided change: before → after, its review, and its endorsement under 批单', async () => {
    api = mockApi({
      'GET api/project-declarations/43': {
        data: changeDetail({
          status: 'APPROVED',
          statusLabel: '审核通过',
          actions: [],
          endorsement: endorsementRow({
            changes: [
              {
                field: 'projectCostFen',
                label: '工程造价',
                before: '¥10,000,000.00',
                after: '¥12,000,000.00',
              },
            ],
            premiumAfterFen: 770_000,
            premiumDiffFen: 120_000,
          }),
        }),
      },
    });
    renderRoute(<Apply />, PATTERN, '/piibs/projectManage/apply/43/true/2/0');
    const table = await screen.findByTestId('change-comparison');
    const cost = within(table).getByText('工程造价').closest('tr')!;
    expect(within(cost).getByText('¥10,000,000.00')).toBeInTheDocument();
    expect(within(cost).getByText('¥12,000,000.00')).toBeInTheDocument();
    expect(within(table).getByText('¥7,700.00（加收 ¥1,200.00）')).toBeInTheDocument();
    expect(screen.queryByLabelText('工程造价')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: '批单' }));
    expect(await screen.findByTestId('endorsement-number')).toHaveTextContent('EJZSG202600000007');
    // (By text: a role query over the three mounted tabs takes tens of seconds in jsdom.)
    expect(screen.getByText('下载批单').closest('button')).toBeInTheDocument();
  });

  it('type 2 without a project asks to start from one', async () => {
    api = mockApi({});
    renderRoute(<Apply />, PATTERN, '/piibs/projectManage/apply/0/false/2/0');
    expect(await screen.findByText('请从已出单项目的「申请批改」进入项目批改申报')).toBeInTheDocument();
  });
});
