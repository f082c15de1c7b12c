import type { PolicyRow } from '@piibs/shared/policy';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { PolicyLifecycle } from '../components/PolicyLifecycle.tsx';
import { renewalHint } from '../components/RenewButton.tsx';
import { pageOf, policyDetail } from '../test-data.ts';
import { PolicyList } from './PolicyList.tsx';

let api: MockApi;

beforeEach(() => signInAs(['17'], ['application:list']));
afterEach(() => {
  api?.restore();
  resetKitState();
});

const { payments: _p, coverages: _c, coinsurers: _co, application: _a, events: _e, ...base } = policyDetail();
const row = (over: Partial<PolicyRow> = {}): PolicyRow => ({ ...base, ...over }) as unknown as PolicyRow;

describe('我的保单 / 保单查询', { timeout: 40_000 }, () => {
  it('lists number, holder, product, period, premium and status; the number opens the policy page', async () => {
    api = mockApi({
      'GET api/policies': pageOf([
        row(),
        row({ id: 10, number: 'PAZX202600000010', status: 'IN_FORCE', statusLabel: '有效' }),
      ]),
      'GET api/products/available': { data: [] },
    });
    const { router } = renderWithProviders(<PolicyList mode="mine" />, '/piibs/policy/myPolicies');
    const first = (await screen.findByText('PAZX202600000009')).closest('tr')!;
    expect(within(first).getByText('镇江示范机械有限公司')).toBeInTheDocument();
    expect(within(first).getByText('安全生产责任保险（工贸行业）')).toBeInTheDocument();
    expect(within(first).getByText('2026-12-01 至 2027-11-30')).toBeInTheDocument();
    expect(within(first).getByText('¥24,000.00')).toBeInTheDocument();
    expect(within(first).getByText('未生效')).toBeInTheDocument();
    expect(screen.getByText('PAZX202600000010').closest('tr')).toHaveTextContent('有效');
    await userEvent.setup().click(screen.getByRole('button', { name: 'PAZX202600000010' }));
    expect(router.state.location.pathname).toBe('/piibs/projectManage/policyInsuranceView/10');
  });

  it('filters by status from the address (a bookmarked filter) and sends it to the server', async () => {
    api = mockApi({ 'GET api/policies': pageOf([row()]), 'GET api/products/available': { data: [] } });
    renderWithProviders(<PolicyList mode="all" />, '/piibs/policy/policyList?status=EXPIRED');
    await screen.findByText('PAZX202600000009');
    expect(api.callsTo('GET api/policies')[0]?.params).toMatchObject({ status: 'EXPIRED' });
  });
});

describe('renewal on the policy page', () => {
  it('says when renewal opens, that it is open, or that the policy lapsed', () => {
    const policy = { endDate: '2027-11-30', status: 'ISSUED' };
    expect(renewalHint(policy, '2026-12-01')).toBe('续保将于 2027-09-01 开放（保单到期前 90 天）');
    expect(renewalHint(policy, '2027-10-01')).toBe('续保已开放：可于 2027-11-30（保单到期日）前续保');
    expect(renewalHint(policy, '2027-12-01')).toBe('保单已于 2027-11-30 到期，不能续保，请重新投保');
    expect(renewalHint({ ...policy, status: 'CANCELLED' }, '2027-10-01')).toBeNull();
  });

  it('links the prevention services for the roles that see them', () => {
    signInAs(['17'], ['application:list', 'prevention:list']);
    render(
      <MemoryRouter>
        <PolicyLifecycle
          policy={{ number: 'PAZX202600000009', endDate: '2027-11-30', status: 'ISSUED' }}
          today="2026-12-01"
        />
      </MemoryRouter>,
    );
    expect(screen.getByText('续保将于 2027-09-01 开放（保单到期前 90 天）')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '查看本保单的预防服务' })).toHaveAttribute(
      'href',
      '/piibs/riskControl/prevention/index/YFPAZX202600000009',
    );
  });
});
