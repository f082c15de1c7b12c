import { ROLE_CODES } from '@piibs/shared/auth';
import type { PolicyChangeView } from '@piibs/shared/policy-change';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { PolicyChanges } from './PolicyChanges.tsx';

const change = (over: Partial<PolicyChangeView> = {}): PolicyChangeView => ({
  id: 3,
  number: 'G202600000003',
  policyId: 9,
  policyNumber: 'PAZX202600000009',
  holderName: '镇江示范机械有限公司',
  productName: '安全生产责任保险',
  kind: 'ENDORSEMENT',
  kindLabel: '批改',
  status: 'DONE',
  statusLabel: '已生效',
  effectiveDate: '2026-12-20',
  changes: [{ field: 'headcount', label: '参保人数', before: '50 人', after: '55 人' }],
  premiumBeforeFen: 2_400_000,
  premiumDeltaFen: 205_479,
  premiumDeltaText: '补缴 ¥2,054.79',
  reasonLabel: null,
  persons: null,
  earnedFen: null,
  basis: null,
  reviewOpinion: null,
  endorsementNumber: 'EAZX202600000004',
  endorsementId: 4,
  refundedFen: 0,
  paid: true,
  payExpiresAt: null,
  version: 2,
  createdAt: '2026-12-19T02:00:00.000Z',
  ...over,
});

let api: MockApi;
afterEach(() => {
  api?.restore();
  resetKitState();
});

const render = () =>
  renderRoute(<PolicyChanges policyId={9} applicationId={5} headcount={55} open />, '/piibs/x', '/piibs/x');

describe('批改与退保 on the policy page', { timeout: 30_000 }, () => {
  it('shows the history in words and money, with the 批单 and the refund', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:list', 'application:edit']);
    api = mockApi({
      'GET api/policies/9/changes': {
        data: [
          change({
            id: 5,
            number: 'G202600000005',
            kind: 'CANCELLATION',
            kindLabel: '退保',
            reasonLabel: '企业注销',
            changes: [
              { field: 'status', label: '保单状态', before: '有效', after: '已退保（自 2027-01-10 起）' },
            ],
            premiumDeltaFen: -1_800_000,
            premiumDeltaText: '退还 ¥18,000.00',
            earnedFen: 805_479,
            basis: '短期费率 2 个月 20%',
            refundedFen: 1_800_000,
            endorsementNumber: 'EAZX202600000005',
            endorsementId: 5,
          }),
          change(),
        ],
      },
    });
    render();
    const cancel = (await screen.findByText('G202600000005')).closest('tr')!;
    expect(within(cancel).getByText('退保（企业注销）')).toBeInTheDocument();
    expect(within(cancel).getByText('已赚保费 ¥8,054.79（短期费率 2 个月 20%）')).toBeInTheDocument();
    expect(within(cancel).getByText('已退还 ¥18,000.00')).toBeInTheDocument();
    const endorse = screen.getByText('G202600000003').closest('tr')!;
    expect(within(endorse).getByText('参保人数：50 人 → 55 人')).toBeInTheDocument();
    expect(within(endorse).getByText('补缴 ¥2,054.79')).toBeInTheDocument();
    expect(within(endorse).getByRole('button', { name: '下载批单' })).toBeInTheDocument();
    // No open request: the holder may ask again.
    expect(screen.getByRole('button', { name: '申请退保' })).toBeInTheDocument();
  });

  it('shows the server refusal of an ordinary wish to cancel a work-safety policy in the dialog', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:list', 'application:edit']);
    const refusal =
      '退保原因：安全生产责任保险仅在企业关闭、破产、注销或停止生产经营时可以退保（按 2025 年国家规定，不接受其他原因的退保）';
    api = mockApi({
      'GET api/policies/9/changes': { data: [] },
      'GET api/materials': {
        data: {
          businessNumber: 'AZX1',
          content: [],
          totalElements: 0,
          editable: false,
          readOnlyReason: null,
          editableDocTypes: [],
        },
      },
      'POST api/policies/9/cancellations': { status: 400, data: { status: 400, message: refusal } },
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: '申请退保' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: '退保原因' }));
    fireEvent.click(await screen.findByText('投保人申请退保'));
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(api.callsTo('POST api/policies/9/cancellations')).toHaveLength(1);
  });

  it('an open request hides new requests; the underwriter opens it on its review page', async () => {
    signInAs([ROLE_CODES.admin], ['application:list', 'application:edit', 'application:review']);
    api = mockApi({
      'GET api/policies/9/changes': {
        data: [
          change({
            status: 'PENDING_REVIEW',
            statusLabel: '待核保',
            endorsementId: null,
            endorsementNumber: null,
            paid: false,
          }),
        ],
      },
    });
    const { router } = render();
    const row = (await screen.findByText('G202600000003')).closest('tr')!;
    expect(within(row).queryByRole('button', { name: /通\s*过/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '申请批改' })).not.toBeInTheDocument();
    fireEvent.click(within(row).getByRole('button', { name: /审\s*核/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/task/policyChange/3'));
  });

  it('an approved additional premium shows its deadline beside 补缴保费', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:list', 'application:edit']);
    api = mockApi({
      'GET api/policies/9/changes': {
        data: [
          change({
            status: 'PENDING_PAYMENT',
            statusLabel: '待补缴保费',
            endorsementId: null,
            endorsementNumber: null,
            paid: false,
            payExpiresAt: '2026-12-20T02:00:00.000Z',
          }),
        ],
      },
    });
    render();
    const row = (await screen.findByText('G202600000003')).closest('tr')!;
    expect(within(row).getByText('请于 2026-12-20 10:00:00 前补缴，逾期批改失效')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: /补缴保费 ¥2,054\.79/ })).toBeInTheDocument();
  });
  it('a policy with a 从业人员名单 changes its people: remove by name, add with the shared check; the history lists them', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:list', 'application:edit']);
    api = mockApi({
      'GET api/policies/9/changes': {
        data: [
          change({
            changes: [
              { field: 'headcount', label: '参保人数', before: '3 人', after: '3 人' },
              {
                field: 'persons',
                label: '从业人员名单',
                before: '3 人',
                after: '3 人（增加 1 人，减少 1 人）',
              },
            ],
            persons: {
              added: [{ name: '测试丁', idNumberMasked: '1101**********002X' }],
              removed: [{ name: '测试乙', idNumberMasked: '3201**********5678' }],
            },
          }),
        ],
      },
      'GET api/policies/9/insuredPersons': {
        data: {
          required: true,
          count: 2,
          persons: [
            { sort: 1, name: '测试甲', idNumberMasked: '3201**********1234', addedOn: null, removedOn: null },
            {
              sort: 2,
              name: '测试乙',
              idNumberMasked: '3201**********5678',
              addedOn: null,
              removedOn: '2026-12-20',
            },
            {
              sort: 3,
              name: '测试丁',
              idNumberMasked: '1101**********002X',
              addedOn: '2026-12-20',
              removedOn: null,
            },
          ],
        },
      },
      'POST api/policies/9/endorsements': {
        data: change({ status: 'PENDING_REVIEW', statusLabel: '待核保' }),
      },
    });
    render();
    const row = (await screen.findByText('G202600000003')).closest('tr')!;
    expect(within(row).getByText('增加人员：测试丁（1101**********002X）')).toBeInTheDocument();
    expect(within(row).getByText('减少人员：测试乙（3201**********5678）')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: '申请批改' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('现有 2 人；参保人数随名单增减')).toBeInTheDocument();
    expect(within(dialog).queryByRole('spinbutton', { name: '参保人数' })).toBeNull();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: '减少人员' }));
    // Only the people covered now can be removed.
    expect(screen.queryByText('2. 测试乙（3201**********5678）')).toBeNull();
    fireEvent.click(await screen.findByText('1. 测试甲（3201**********1234）'));
    fireEvent.click(within(dialog).getByRole('button', { name: '添加一人' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: '增加人员第 1 行姓名' }), {
      target: { value: '测试戊' },
    });
    const id = within(dialog).getByRole('textbox', { name: '增加人员第 1 行身份证号码' });
    fireEvent.change(id, { target: { value: '110105194912310022' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    expect(await within(dialog).findByText('请输入正确的18位居民身份证号码')).toBeInTheDocument();
    expect(api.callsTo('POST api/policies/9/endorsements')).toHaveLength(0);

    fireEvent.change(id, { target: { value: '11010519491231002X' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.callsTo('POST api/policies/9/endorsements')).toHaveLength(1));
    const body = JSON.parse(String(api.callsTo('POST api/policies/9/endorsements')[0]!.data));
    expect(body).toMatchObject({
      addPersons: [{ name: '测试戊', idNumber: '11010519491231002X' }],
      removePersons: [1],
    });
    expect(body).not.toHaveProperty('headcount');
  });
});
