import { ROLE_CODES } from '@piibs/shared/auth';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { applicationDetail } from '@/features/policy/test-data.ts';
import { dictAnswers, type MockApi, mockApi } from '@/test/mock-api.ts';
import ApplicationViewPage from './ApplicationViewPage.tsx';

const PATTERN = '/piibs/insured/viewInsurance/:id/:policyholderType';
let api: MockApi;

beforeEach(() => signInAs([ROLE_CODES.enterprise], ['application:list', 'application:edit']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const routes = (requestedDocTypes: string[]) => ({
  'GET api/applications/12': {
    data: applicationDetail({
      status: 'PENDING_REVIEW',
      statusLabel: '待审核',
      actions: ['view'],
      paymentOrder: null,
      requestedDocTypes,
      customerDocTypes: ['BUSINESS_LICENSE'],
    }),
  },
  'GET api/applications/12/events': { data: [] },
  'GET api/dictDetail': dictAnswers({
    document_type: [
      ['BUSINESS_LICENSE', '营业执照'],
      ['INSURED_LIST', '被保险人清单'],
      ['AUTHORIZATION', '授权委托书'],
    ],
  }),
  'GET api/materials': {
    data: {
      content: [],
      totalElements: 0,
      editable: false,
      readOnlyReason: '投保单当前状态为「待审核」，不能修改影像资料',
      editableDocTypes: requestedDocTypes,
    },
  },
});

describe('查看投保单 while under review', { timeout: 30_000 }, () => {
  it('the underwriter asked for documents: named, and uploadable in the same screen', async () => {
    api = mockApi(routes(['AUTHORIZATION']));
    renderRoute(<ApplicationViewPage />, PATTERN, '/piibs/insured/viewInsurance/12/1');
    expect(
      await screen.findByText('核保要求补充资料：授权委托书，上传后由核保人员继续审核'),
    ).toBeInTheDocument();
    const asked = await screen.findByRole('region', { name: '授权委托书' });
    expect(within(asked).getByRole('heading')).toHaveTextContent('授权委托书（核保要求补充）');
    expect(within(asked).getByText('点击或将文件拖拽到此处上传')).toBeInTheDocument();
    expect(document.querySelectorAll('input[type=file]')).toHaveLength(1);
  });

  it('nothing asked for: no materials section on the view', async () => {
    api = mockApi(routes([]));
    renderRoute(<ApplicationViewPage />, PATTERN, '/piibs/insured/viewInsurance/12/1');
    expect(await screen.findByText('投保单 AZX2026000012')).toBeInTheDocument();
    expect(screen.queryByText(/核保要求补充资料/)).toBeNull();
    expect(screen.queryByRole('region', { name: '授权委托书' })).toBeNull();
    expect(screen.queryByTestId('application-insured-persons')).toBeNull();
  });

  it('shows its 从业人员名单 read-only, numbers masked', async () => {
    api = mockApi({
      ...routes([]),
      'GET api/applications/12/insuredPersons': {
        data: {
          required: true,
          count: 2,
          persons: [
            { sort: 1, name: '示例员工甲', idNumberMasked: '3211**********1016' },
            { sort: 2, name: '示例员工乙', idNumberMasked: '3211**********2028' },
          ],
        },
      },
    });
    renderRoute(<ApplicationViewPage />, PATTERN, '/piibs/insured/viewInsurance/12/1');
    const card = await screen.findByTestId('application-insured-persons');
    expect(card).toHaveTextContent('从业人员名单（共 2 人）');
    expect(within(card).getByText('示例员工乙')).toBeInTheDocument();
    expect(within(card).getByText('3211**********2028')).toBeInTheDocument();
  });
});

describe('查看投保单 once issued', { timeout: 30_000 }, () => {
  it('links to its policy', async () => {
    const r = routes([]);
    api = mockApi({
      ...r,
      'GET api/applications/12': {
        data: applicationDetail({
          status: 'ISSUED',
          statusLabel: '已出单',
          actions: ['view'],
          requestedDocTypes: [],
          customerDocTypes: [],
          policy: { id: 9, number: 'PAZX202600000009' },
        }),
      },
    });
    const { router } = renderRoute(<ApplicationViewPage />, PATTERN, '/piibs/insured/viewInsurance/12/1');
    (await screen.findByRole('button', { name: '查看保单 PAZX202600000009' })).click();
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/piibs/projectManage/policyInsuranceView/9'),
    );
  });
});
