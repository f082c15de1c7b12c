import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { policyChangeView } from '../test-data.ts';
import PolicyChangeReviews from './PolicyChangeReviews.tsx';

let api: MockApi;
beforeEach(() => signInAs(['underwriter'], ['application:review', 'application:list']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

describe('批改审核 (task/policyChanges)', { timeout: 40_000 }, () => {
  it('lists each request in plain words and money; 审核 opens it', async () => {
    api = mockApi({
      'GET api/policy-change-reviews': {
        data: [
          policyChangeView(),
          policyChangeView({
            id: 32,
            number: 'G202600000032',
            policyNumber: 'PAZX202600000010',
            holderName: '镇江已注销有限公司',
            kind: 'CANCELLATION',
            kindLabel: '退保',
            reasonLabel: '企业注销',
            changes: [
              { field: 'status', label: '保单状态', before: '有效', after: '已退保（自 2027-01-10 起）' },
            ],
            premiumDeltaFen: -1_800_000,
            premiumDeltaText: '退还 ¥18,000.00',
          }),
        ],
      },
    });
    const { router } = renderWithProviders(<PolicyChangeReviews />, '/piibs/task/policyChanges');
    const endorse = (await screen.findByText('G202600000031')).closest('tr')!;
    expect(within(endorse).getByRole('link', { name: 'PAZX202600000009' })).toHaveAttribute(
      'href',
      '/piibs/projectManage/policyInsuranceView/9',
    );
    expect(within(endorse).getByText('镇江示范机械有限公司')).toBeInTheDocument();
    expect(within(endorse).getByText('安全生产责任保险（2025版）')).toBeInTheDocument();
    expect(within(endorse).getByText('参保人数：50 人 → 55 人')).toBeInTheDocument();
    expect(within(endorse).getByText('补缴 ¥2,054.79')).toBeInTheDocument();
    expect(within(endorse).getByText('2026-12-20')).toBeInTheDocument();
    expect(within(endorse).getByText('2026-12-19 10:00:00')).toBeInTheDocument();
    expect(within(endorse).getByText('待核保')).toBeInTheDocument();
    const cancel = screen.getByText('G202600000032').closest('tr')!;
    expect(within(cancel).getByText('退保（企业注销）')).toBeInTheDocument();
    expect(within(cancel).getByText('退还 ¥18,000.00')).toBeInTheDocument();
    // No ids, codes or raw fen on the page.
    expect(screen.queryByText(/ENDORSEMENT|CANCELLATION|PENDING_REVIEW|205479/)).toBeNull();

    await userEvent.setup().click(within(cancel).getByRole('button', { name: /审\s*核/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/task/policyChange/32'));
  });

  it('says so when nothing waits', async () => {
    api = mockApi({ 'GET api/policy-change-reviews': { data: [] } });
    renderWithProviders(<PolicyChangeReviews />, '/piibs/task/policyChanges');
    expect(await screen.findByText('暂无待核保的批改或退保申请')).toBeInTheDocument();
  });
});
