import { UNSUPPORTED_KIND } from '@piibs/shared/project-order';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { renderRoute } from '@/components/customer/test-render.tsx';
import { annualOrderDetail, constructionProduct, declarationDetail } from '@/components/project/test-data.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
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
          ? { status: 400, data: { status: 400, message: '工程造价：金额过大' } }
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
    expect(await screen.findByTestId('quota-remaining')).toHaveTextContent('453,850.00 元');
    expect(screen.getByTestId('quota-consumed')).toHaveTextContent('46,150.00 元');

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
    expect(await screen.findByText('金额过大')).toBeInTheDocument();
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
    expect(await screen.findByRole('button', { name: /^保\s*存$/ })).toBeInTheDocument();
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
        data: { status: 409, message: '年度订单剩余额度不足：剩余 100.00 元，本次申报需占用 6,500.00 元' },
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

  it('a change declaration (type 2) is shown as not supported', async () => {
    api = mockApi({});
    renderRoute(<Apply />, PATTERN, '/piibs/projectManage/apply/0/false/2/0?orderId=5');
    expect(await screen.findByText(UNSUPPORTED_KIND)).toBeInTheDocument();
  });
});
