import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { configureHttp, HttpError, resetHttp } from '@/lib/http.ts';
import { mockApi } from '@/test/mock-api.ts';
import type { AppNotification } from './api.ts';
import {
  backoffDelay,
  createNotificationConnection,
  feedUrl,
  loadLatest,
  MAX_DELAY_MS,
  type NotificationConnection,
  READY_TIMEOUT_MS,
  type SocketLike,
} from './connection.ts';
import { createNotificationStore, type NotificationStore } from './store.ts';
import { fakeNotification } from './test-data.ts';

/** Stands in for the browser's WebSocket: records what the feed sends and lets the test play the server. */
class FakeSocket implements SocketLike {
  static all: FakeSocket[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  readonly url: string;
  readonly sent: unknown[] = [];
  closedWith: number | undefined;

  constructor(url: string) {
    this.url = url;
    FakeSocket.all.push(this);
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(code?: number): void {
    this.closedWith = code;
  }

  // The server's side.
  open(): void {
    this.onopen?.(new Event('open'));
  }

  receive(message: object): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }

  drop(code = 1006): void {
    this.onclose?.({ code } as CloseEvent);
  }
}

const latest = () => FakeSocket.all.at(-1)!;
const notificationMessage = (id: number, unread: number) => ({
  type: 'notification',
  notification: fakeNotification(id),
  unread,
});

let store: NotificationStore;
let token: string | null;
let loads: number;
let onNotification: Mock<(notification: AppNotification) => void>;

let started: NotificationConnection[] = [];

function connection(overrides: Parameters<typeof createNotificationConnection>[0] = {}) {
  const feed = createNotificationConnection({
    WebSocket: FakeSocket,
    store,
    authorization: () => token,
    // The REST load: one message the tab has "seen" (id 5), three unread.
    loadLatest: async (target) => {
      loads += 1;
      target.getState().load([fakeNotification(5)], 3);
    },
    onNotification,
    random: () => 0,
    ...overrides,
  });
  started.push(feed);
  return feed;
}

/** Lets the feed's pending promise callbacks run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  store = createNotificationStore();
  token = 'Bearer abc';
  loads = 0;
  onNotification = vi.fn<(notification: AppNotification) => void>();
});

afterEach(() => {
  // Their window listeners would otherwise answer the next test's 'online' events.
  for (const feed of started) feed.stop();
  started = [];
  vi.useRealTimers();
});

describe('notification connection', () => {
  it('does nothing while signed out', async () => {
    token = null;
    connection().start();
    await settle();
    expect(loads).toBe(0);
    expect(FakeSocket.all).toHaveLength(0);
    expect(store.getState().status).toBe('idle');
  });

  it('loads the newest messages, then authenticates with the token and the highest id seen', async () => {
    connection().start();
    await settle();
    expect(loads).toBe(1);
    expect(FakeSocket.all).toHaveLength(1);
    expect(latest().url).toBe('ws://localhost:3000/api/notifications/ws');
    latest().open();
    expect(latest().sent).toEqual([{ type: 'auth', token: 'Bearer abc', after: 5 }]);
    latest().receive({ type: 'ready', unread: 3 });
    expect(store.getState().status).toBe('open');
    expect(store.getState().unread).toBe(3);
  });

  it('counts catch-up and live duplicates once and toasts each new message once', async () => {
    connection().start();
    await settle();
    latest().open();
    latest().receive({ type: 'ready', unread: 3 });
    latest().receive(notificationMessage(6, 4));
    latest().receive(notificationMessage(7, 5));
    latest().receive(notificationMessage(7, 5)); // the live push racing the catch-up
    latest().receive(notificationMessage(5, 5)); // already loaded over REST
    latest().receive(notificationMessage(8, 6));
    expect(store.getState().items.map((item) => item.id)).toEqual([8, 7, 6, 5]);
    expect(store.getState().unread).toBe(6);
    expect(onNotification.mock.calls.map(([item]) => item.id)).toEqual([6, 7, 8]);
  });

  it('reconnects with exponential backoff, each time sending the highest id seen', async () => {
    connection().start();
    await settle();
    latest().open();
    latest().receive({ type: 'ready', unread: 3 });
    latest().receive(notificationMessage(6, 4));
    latest().drop();
    expect(store.getState().status).toBe('waiting');

    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
    // No second REST load: the id seen so far is enough to catch up.
    expect(loads).toBe(1);
    latest().open();
    expect(latest().sent).toEqual([{ type: 'auth', token: 'Bearer abc', after: 6 }]);

    // Fails again before ready: the wait doubles.
    latest().drop();
    await vi.advanceTimersByTimeAsync(1999);
    expect(FakeSocket.all).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(3);
    latest().open();
    latest().receive({ type: 'ready', unread: 5 });
    // What was missed arrives once, then live ones.
    latest().receive(notificationMessage(7, 5));
    latest().receive(notificationMessage(8, 6));
    expect(onNotification.mock.calls.map(([item]) => item.id)).toEqual([6, 7, 8]);

    // A successful ready resets the backoff to 1 s.
    latest().drop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.all).toHaveLength(4);
    latest().open();
    expect(latest().sent).toEqual([{ type: 'auth', token: 'Bearer abc', after: 8 }]);
  });

  it('stops retrying after close code 4401 until the token changes', async () => {
    const feed = connection();
    feed.start();
    await settle();
    latest().open();
    latest().drop(4401);
    expect(store.getState().status).toBe('unauthorized');
    await vi.advanceTimersByTimeAsync(5 * MAX_DELAY_MS);
    window.dispatchEvent(new Event('online'));
    feed.start(); // same token
    await settle();
    expect(FakeSocket.all).toHaveLength(1);

    token = 'Bearer new';
    feed.start();
    await settle();
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();
    expect(latest().sent).toEqual([{ type: 'auth', token: 'Bearer new', after: 5 }]);
  });

  it('retries at once when the browser comes back online or the tab becomes visible', async () => {
    connection().start();
    await settle();
    latest().drop();
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(FakeSocket.all).toHaveLength(2);

    latest().drop();
    document.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(FakeSocket.all).toHaveLength(3);
    // Connected: coming online again opens nothing more.
    latest().open();
    latest().receive({ type: 'ready', unread: 0 });
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(FakeSocket.all).toHaveLength(3);
  });

  it('drops a socket that does not say ready in time and retries', async () => {
    connection().start();
    await settle();
    latest().open();
    await vi.advanceTimersByTimeAsync(READY_TIMEOUT_MS);
    expect(latest().closedWith).toBe(4000);
    expect(store.getState().status).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.all).toHaveLength(2);
    // Once ready, the clock no longer runs.
    latest().open();
    latest().receive({ type: 'ready', unread: 0 });
    await vi.advanceTimersByTimeAsync(2 * READY_TIMEOUT_MS);
    expect(latest().closedWith).toBeUndefined();
    expect(store.getState().status).toBe('open');
  });

  it('stop closes the socket, cancels the retry and clears the badge', async () => {
    const feed = connection();
    feed.start();
    await settle();
    latest().open();
    latest().receive({ type: 'ready', unread: 3 });
    feed.stop();
    expect(latest().closedWith).toBe(1000);
    expect(store.getState()).toMatchObject({ unread: 0, items: [], status: 'idle' });
    // A late close event of the old socket schedules nothing.
    latest().drop();
    await vi.advanceTimersByTimeAsync(5 * MAX_DELAY_MS);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('retries a failed REST load with backoff, and stops on 401', async () => {
    let failures = 1;
    const feed = connection({
      loadLatest: async () => {
        loads += 1;
        if (failures-- > 0) throw new Error('offline');
      },
    });
    feed.start();
    await settle();
    expect(FakeSocket.all).toHaveLength(0);
    expect(store.getState().status).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1000);
    expect(loads).toBe(2);
    expect(FakeSocket.all).toHaveLength(1);
    feed.stop();

    const refused = connection({
      loadLatest: async () => {
        throw new HttpError('401', 'ERR_BAD_RESPONSE', undefined, { status: 401, headers: {}, data: null });
      },
    });
    refused.start();
    await settle();
    await vi.advanceTimersByTimeAsync(5 * MAX_DELAY_MS);
    expect(store.getState().status).toBe('unauthorized');
    expect(FakeSocket.all).toHaveLength(1);
  });
});

describe('backoff and URL', () => {
  it('doubles from 1 s up to 30 s, with up to 50 % jitter', () => {
    expect(backoffDelay(0, () => 0)).toBe(1000);
    expect(backoffDelay(0, () => 1)).toBe(1500);
    expect(backoffDelay(3, () => 0)).toBe(8000);
    expect(backoffDelay(5, () => 0.99)).toBe(MAX_DELAY_MS);
    expect(backoffDelay(20, () => 0)).toBe(MAX_DELAY_MS);
  });

  it('uses wss: on https pages', () => {
    expect(feedUrl({ protocol: 'https:', host: 'piibs.example.com' })).toBe(
      'wss://piibs.example.com/api/notifications/ws',
    );
    expect(feedUrl({ protocol: 'http:', host: 'localhost:5173' })).toBe(
      'ws://localhost:5173/api/notifications/ws',
    );
  });
});

describe('loadLatest', () => {
  afterEach(() => resetHttp());

  it('GETs the newest 8 into the store', async () => {
    vi.useRealTimers();
    const api = mockApi({
      'GET api/notifications': {
        data: { content: [fakeNotification(4), fakeNotification(2)], unread: 7, next: 2 },
      },
    });
    try {
      await loadLatest(store);
      expect(api.calls[0]!.params).toEqual({ size: '8' });
      expect(store.getState()).toMatchObject({ unread: 7, lastId: 4 });
    } finally {
      api.restore();
    }
  });

  it('fails quietly in the background: no notice, no re-login dialog', async () => {
    vi.useRealTimers();
    const ui = { confirm: vi.fn(), error: vi.fn() };
    configureHttp({ ui });
    const api = mockApi({
      'GET api/notifications': { status: 401, data: { status: 401, message: '未登录' } },
    });
    try {
      await expect(loadLatest(store)).rejects.toThrow();
      api.restore();
      const failing = mockApi({
        'GET api/notifications': { status: 500, data: { status: 500, message: '服务器错误' } },
      });
      await expect(loadLatest(store)).rejects.toThrow();
      failing.restore();
      expect(ui.confirm).not.toHaveBeenCalled();
      expect(ui.error).not.toHaveBeenCalled();
    } finally {
      api.restore();
    }
  });
});
