import { ROLE_CODES } from '@piibs/shared/auth';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi, settle } from '@/test/mock-api.ts';
import { RenewButton, renewalWizardPath } from './RenewButton.tsx';

let api: MockApi;
afterEach(() => {
  api?.restore();
  resetKitState();
});

const info = (over: Record<string, unknown> = {}) => ({
  data: {
    policyId: 5,
    endDate: '2026-12-31',
    opensOn: '2026-10-02',
    closesOn: '2026-12-31',
    state: 'open',
    canRenew: true,
    renewal: null,
    ...over,
  },
});

describe('续保 button', { timeout: 40_000 }, () => {
  it('is hidden outside the 90 days before the end, and asks nothing', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add']);
    api = mockApi({ 'GET api/policies/5/renewal': info() });
    renderWithProviders(<RenewButton policyId={5} endDate="2026-12-31" today="2026-10-01" />);
    await settle();
    expect(screen.queryByRole('button')).toBeNull();
    expect(api.calls).toHaveLength(0);
  });

  it('renews after a confirmation and opens the draft in the enterprise wizard', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:add']);
    api = mockApi({
      'GET api/policies/5/renewal': info(),
      'POST api/policies/5/renew': {
        data: {
          applicationId: 42,
          number: 'AZX2026000042',
          status: 'DRAFT',
          channel: 'enterprise',
          policyholderType: 1,
          productId: 1,
          startDate: '2027-01-01',
          endDate: '2027-12-31',
          premiumFen: 100,
          rateTableId: 2,
          renewalOfPolicyId: 5,
          quoteProblem: null,
          version: 0,
        },
      },
    });
    const { router } = renderWithProviders(
      <RenewButton policyId={5} endDate="2026-12-31" today="2026-10-02" />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /续\s*保/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/保险起期 2027-01-01/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: /续\s*保/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/insured/stepOne/42/1'));
    expect(api.callsTo('POST api/policies/5/renew')).toHaveLength(1);
  });

  it('shows the server refusal (e.g. a renewal already made) in a dialog', async () => {
    signInAs(['agent'], ['application:add']);
    api = mockApi({
      'GET api/policies/5/renewal': info(),
      'POST api/policies/5/renew': {
        status: 409,
        data: { status: 409, message: '该保单已有续保投保单 AZX2026000042（ID：42），请勿重复续保' },
      },
    });
    renderWithProviders(<RenewButton policyId={5} endDate="2026-12-31" today="2026-12-31" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /续\s*保/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /续\s*保/ }));
    expect(await screen.findByText(/ID：42/)).toBeInTheDocument();
  });

  it('offers 继续续保 when a renewal draft exists; agents continue in their wizard', async () => {
    signInAs(['agent'], ['application:add']);
    api = mockApi({
      'GET api/policies/5/renewal': info({
        canRenew: false,
        renewal: {
          applicationId: 42,
          number: 'AZX2026000042',
          status: 'DRAFT',
          policyholderType: 1,
          channel: 'agent',
        },
      }),
    });
    const { router } = renderWithProviders(
      <RenewButton policyId={5} endDate="2026-12-31" today="2026-11-01" />,
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: '继续续保' }));
    expect(router.state.location.pathname).toBe('/piibs/agent/stepOne/42/1');
  });

  it('builds the wizard path from the channel and the caller', () => {
    const draft = { applicationId: 9, channel: 'project', policyholderType: 1 };
    expect(renewalWizardPath(draft, ['agent'])).toBe('/piibs/epinsure/stepOne/9/1');
    expect(renewalWizardPath({ ...draft, channel: 'enterprise' }, [ROLE_CODES.enterprise])).toBe(
      '/piibs/insured/stepOne/9/1',
    );
  });
});
