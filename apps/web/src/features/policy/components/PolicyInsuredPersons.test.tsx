import { ROLE_CODES } from '@piibs/shared/auth';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { onPhone } from '@/test/phone.ts';
import { PolicyInsuredPersons } from './PolicyInsuredPersons.tsx';

let api: MockApi;
afterEach(() => {
  api?.restore();
  resetKitState();
  vi.restoreAllMocks();
});
const render = () => renderRoute(<PolicyInsuredPersons policyId={9} />, '/piibs/x', '/piibs/x');

describe('从业人员名单 on the policy page', { timeout: 30_000 }, () => {
  it('lists the people masked, with those endorsements added or removed and the count of those covered', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:list']);
    api = mockApi({
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
    });
    render();
    const card = await screen.findByTestId('policy-insured-persons');
    expect(within(card).getByText('从业人员名单（现有 2 人）')).toBeInTheDocument();
    const row = (name: string) => within(card).getByText(name).closest('tr')!;
    expect(within(row('测试甲')).getByText('3201**********1234')).toBeInTheDocument();
    expect(within(row('测试甲')).getByText('在保')).toBeInTheDocument();
    expect(within(row('测试乙')).getByText('批改减少（自 2026-12-20 起不再承保）')).toBeInTheDocument();
    expect(within(row('测试丁')).getByText('批改增加（自 2026-12-20 起）')).toBeInTheDocument();
  });

  it('on a phone: a card per person with the masked number and the state, 20 people a page', async () => {
    onPhone();
    signInAs([ROLE_CODES.enterprise], ['application:list']);
    const persons = Array.from({ length: 25 }, (_, i) => ({
      sort: i + 1,
      name: `员工${i + 1}`,
      idNumberMasked: `3201**********${String(1000 + i)}`,
      addedOn: null,
      removedOn: i === 0 ? '2026-12-20' : null,
    }));
    api = mockApi({ 'GET api/policies/9/insuredPersons': { data: { required: true, count: 24, persons } } });
    render();
    const card = await screen.findByTestId('policy-insured-persons');
    expect(within(card).queryByRole('table')).toBeNull();
    const cards = () =>
      within(within(card).getByRole('list', { name: '从业人员列表' })).getAllByRole('listitem');
    expect(cards()).toHaveLength(20);
    const first = cards()[0]!;
    expect(first.querySelector('.crud-card-title')).toHaveTextContent('员工1');
    expect(within(first).getByText('3201**********1000')).toBeInTheDocument();
    expect(within(first).getByText('批改减少（自 2026-12-20 起不再承保）')).toBeInTheDocument();
    await userEvent.setup().click(within(card).getByRole('listitem', { name: '2' }));
    expect(cards()).toHaveLength(5);
    expect(cards()[0]!.querySelector('.crud-card-title')).toHaveTextContent('员工21');
  });

  it('shows nothing for a policy without a list', async () => {
    signInAs([ROLE_CODES.enterprise], ['application:list']);
    api = mockApi({
      'GET api/policies/9/insuredPersons': { data: { required: false, count: 0, persons: [] } },
    });
    render();
    await new Promise((r) => setTimeout(r, 300));
    expect(api.callsTo('GET api/policies/9/insuredPersons')).toHaveLength(1);
    expect(screen.queryByTestId('policy-insured-persons')).toBeNull();
  });
});
