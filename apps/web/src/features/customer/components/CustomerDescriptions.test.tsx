import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { customerRow } from '../test-data.ts';
import { CustomerDescriptions } from './CustomerDescriptions.tsx';

let api: MockApi;
afterEach(() => {
  api?.restore();
  resetKitState();
});

describe('CustomerDescriptions: 查看完整号码', { timeout: 20_000 }, () => {
  it('without customer:unmask the phone stays masked and no button is offered', async () => {
    signInAs(['underwriter'], ['customer:list', 'customer:review']);
    api = mockApi({});
    renderWithProviders(<CustomerDescriptions customer={customerRow()} />);
    expect(await screen.findByText('138****5678')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '查看完整号码' })).toBeNull();
  });

  it('with customer:unmask the button asks the server and shows the number it answers', async () => {
    signInAs(['underwriter'], ['customer:list', 'customer:review', 'customer:unmask']);
    api = mockApi({ 'POST api/customers/7/unmask': { data: { phone: '13812345678' } } });
    renderWithProviders(<CustomerDescriptions customer={customerRow()} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: '查看完整号码' }));
    expect(await screen.findByText('13812345678')).toBeInTheDocument();
    expect(screen.queryByText('138****5678')).toBeNull();
    expect(screen.queryByRole('button', { name: '查看完整号码' })).toBeNull();
    expect(api.callsTo('POST api/customers/7/unmask')).toHaveLength(1);
  });

  it('a refusal is shown and the phone stays masked', async () => {
    signInAs(['underwriter'], ['customer:unmask']);
    api = mockApi({
      'POST api/customers/7/unmask': { status: 404, data: { status: 404, message: '投保人不存在' } },
    });
    renderWithProviders(<CustomerDescriptions customer={customerRow()} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: '查看完整号码' }));
    expect(await screen.findByText('投保人不存在')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('138****5678')).toBeInTheDocument());
  });
});
