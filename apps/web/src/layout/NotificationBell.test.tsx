import { TOKEN_KEY } from '@piibs/shared/constants';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import type { AppNotification, NotificationPage } from '@/lib/notifications/api.ts';
import type { SocketLike } from '@/lib/notifications/connection.ts';
import { useNotificationStore } from '@/lib/notifications/store.ts';
import { fakeNotification } from '@/lib/notifications/test-data.ts';
import { type MockApi, mockApi, settle } from '@/test/mock-api.ts';
import { BELL_LABEL, NotificationBell } from './NotificationBell.tsx';

/** The browser's WebSocket, played by the test. */
class FakeSocket implements SocketLike {
  static all: FakeSocket[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  readonly sent: unknown[] = [];

  constructor() {
    FakeSocket.all.push(this);
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(): void {}

  serve(message: object): void {
    act(() => this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) })));
  }
}

const page = (content: AppNotification[], unread: number, next: number | null = null): NotificationPage => ({
  content,
  unread,
  next,
});

let api: MockApi | undefined;

function serveApi(table: Parameters<typeof mockApi>[0]): MockApi {
  api = mockApi(table);
  return api;
}

/** The badge's count as shown ('5', '99+'), or null when there is none. */
const badge = () => document.querySelector('.ant-badge-count')?.getAttribute('title') ?? null;
const badgeText = () => document.querySelector('.ant-badge-count')?.textContent ?? null;
// The name is 消息通知, with the visible unread count after it (消息通知 3 条未读).
const bell = () => screen.getByRole('button', { name: new RegExp(`^${BELL_LABEL}`) });

beforeEach(() => {
  resetKitState();
  signInAs(['admin']);
  useNotificationStore.getState().reset();
  FakeSocket.all = [];
});

afterEach(() => {
  api?.restore();
  api = undefined;
  vi.unstubAllGlobals();
});

describe('notification bell', () => {
  it('is labelled 消息通知 and shows the unread count, 99+ above 99', async () => {
    useNotificationStore.setState({ unread: 5 });
    renderWithProviders(<NotificationBell />);
    expect(bell()).toHaveAttribute('title', '消息通知');
    expect(badge()).toBe('5');
    act(() => useNotificationStore.setState({ unread: 120 }));
    await waitFor(() => expect(badgeText()).toBe('99+'));
    act(() => useNotificationStore.setState({ unread: 0 }));
    await waitFor(() => expect(badge()).toBeNull());
  });

  it('opens no socket and makes no call while signed out', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    const calls = serveApi({});
    renderWithProviders(<NotificationBell />);
    await settle();
    expect(calls.calls).toHaveLength(0);
    expect(FakeSocket.all).toHaveLength(0);
  });

  it('connects when signed in, counts live messages and toasts them; the toast opens the record', async () => {
    localStorage.setItem(TOKEN_KEY, 'abc');
    vi.stubGlobal('WebSocket', FakeSocket);
    const calls = serveApi({
      'GET api/notifications': { data: page([fakeNotification(3, { read: true })], 0) },
      'PUT api/notifications/read': { data: { unread: 0 } },
    });
    const view = renderWithProviders(<NotificationBell />);
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    const socket = FakeSocket.all[0]!;
    act(() => socket.onopen?.(new Event('open')));
    expect(socket.sent).toEqual([{ type: 'auth', token: 'Bearer abc', after: 3 }]);
    socket.serve({ type: 'ready', unread: 0 });
    const live = fakeNotification(4, {
      title: '保单 PL0004 已出单',
      link: '/piibs/projectManage/policyInsuranceView/4',
    });
    socket.serve({ type: 'notification', notification: live, unread: 1 });
    socket.serve({ type: 'notification', notification: live, unread: 1 });
    await waitFor(() => expect(badge()).toBe('1'));
    expect(await screen.findAllByText('保单 PL0004 已出单')).toHaveLength(1);

    await userEvent.click(screen.getByText('保单 PL0004 已出单'));
    expect(view.router.state.location.pathname).toBe('/piibs/projectManage/policyInsuranceView/4');
    await waitFor(() => expect(badge()).toBeNull());
    expect(calls.callsTo('PUT api/notifications/read').map((call) => JSON.parse(String(call.data)))).toEqual([
      { ids: [4] },
    ]);
  });

  it('lists the newest messages; clicking one marks it read, updates the badge and opens its link', async () => {
    const calls = serveApi({
      'GET api/notifications': {
        data: page(
          [
            fakeNotification(2, { title: '投保单 TB2 被退回', body: '请补充材料后重新提交。' }),
            fakeNotification(1, { title: '客户审核通过', read: true, link: null }),
          ],
          1,
        ),
      },
      'PUT api/notifications/read': { data: { unread: 0 } },
    });
    useNotificationStore.setState({ unread: 1 });
    const view = renderWithProviders(<NotificationBell />, '/piibs/dashboard');
    await userEvent.click(bell());
    const item = await screen.findByRole('button', { name: /投保单 TB2 被退回/ });
    expect(item).toHaveTextContent('请补充材料后重新提交。');
    expect(within(item).getByTitle('未读')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /客户审核通过/ })).not.toHaveTextContent('未读');
    expect(calls.callsTo('GET api/notifications')[0]!.params).toEqual({ size: '8' });

    await userEvent.click(item);
    expect(view.router.state.location.pathname).toBe('/piibs/insured/viewInsurance/2/1');
    await waitFor(() => expect(badge()).toBeNull());
    expect(JSON.parse(String(calls.callsTo('PUT api/notifications/read')[0]!.data))).toEqual({ ids: [2] });
    expect(useNotificationStore.getState().items.find((n) => n.id === 2)?.read).toBe(true);
  });

  it('全部标为已读 marks everything read', async () => {
    const calls = serveApi({
      'GET api/notifications': { data: page([fakeNotification(2), fakeNotification(1)], 2) },
      'PUT api/notifications/read': { data: { unread: 0 } },
    });
    renderWithProviders(<NotificationBell />);
    await userEvent.click(bell());
    await waitFor(() => expect(badge()).toBe('2'));
    await userEvent.click(await screen.findByRole('button', { name: '全部标为已读' }));
    await waitFor(() => expect(badge()).toBeNull());
    expect(JSON.parse(String(calls.callsTo('PUT api/notifications/read')[0]!.data))).toEqual({ all: true });
  });

  it('says 暂无消息 when there are none', async () => {
    serveApi({ 'GET api/notifications': { data: page([], 0) } });
    renderWithProviders(<NotificationBell />);
    await userEvent.click(bell());
    expect(await screen.findByText('暂无消息')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '全部标为已读' })).toBeDisabled();
  });

  it('查看全部 opens the drawer: 未读 / 全部 tabs, 加载更多 pages by the keyset cursor', async () => {
    const calls = serveApi({
      'GET api/notifications': (config) => {
        const { size, before, unread } = config.params as Record<string, string>;
        if (size === '8') return { data: page([fakeNotification(30)], 1) };
        if (unread === 'true') return { data: page([fakeNotification(30, { title: '未读消息 30' })], 1) };
        return before === '21'
          ? { data: page([fakeNotification(20, { title: '第二页消息', read: true })], 1) }
          : { data: page([fakeNotification(21, { title: '第一页消息', read: true })], 1, 21) };
      },
    });
    renderWithProviders(<NotificationBell />);
    await userEvent.click(bell());
    await userEvent.click(await screen.findByRole('button', { name: '查看全部' }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('未读消息 30')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: '加载更多' })).not.toBeInTheDocument();

    await userEvent.click(within(drawer).getByRole('tab', { name: '全部' }));
    expect(await within(drawer).findByText('第一页消息')).toBeInTheDocument();
    await userEvent.click(within(drawer).getByRole('button', { name: '加载更多' }));
    expect(await within(drawer).findByText('第二页消息')).toBeInTheDocument();
    expect(within(drawer).getByText('第一页消息')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: '加载更多' })).not.toBeInTheDocument();

    const lists = calls.callsTo('GET api/notifications').map((call) => call.params);
    expect(lists).toContainEqual({ size: '20', unread: 'true' });
    // 全部: no filter (unread=false would mean read ones only).
    expect(lists).toContainEqual({ size: '20' });
    expect(lists).toContainEqual({ size: '20', before: '21' });
  });
});
