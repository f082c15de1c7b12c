// The live feed: one WebSocket to /api/notifications/ws per signed-in tab, reconnecting with backoff.
//
// Protocol: the client's first message is {"type":"auth","token":<the Authorization value>,"after":<highest
// id seen>}; the server answers {"type":"ready","unread":N}, then every message with a higher id
// ({"type":"notification","notification":…,"unread":N}), then live ones the same way, and
// {"type":"read","unread":N} when messages were read elsewhere. Close code 4401: the token was refused.
import { authorization } from '@/lib/auth-storage.ts';
import { refusalOf } from '@/lib/http.ts';
import { type AppNotification, listNotifications } from './api.ts';
import { LATEST_SHOWN, type NotificationStore, useNotificationStore } from './store.ts';

export const UNAUTHORIZED_CLOSE = 4401;
export const BASE_DELAY_MS = 1000;
export const MAX_DELAY_MS = 30_000;
/** A socket that has not said `ready` by then (a dead network can keep it "connecting" for minutes) is dropped. */
export const READY_TIMEOUT_MS = 15_000;

/** The part of the browser's WebSocket the feed uses; tests pass a fake class. */
export interface SocketLike {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type SocketConstructor = new (url: string) => SocketLike;

export type ConnectionDeps = {
  /** Defaults to the browser's WebSocket. */
  WebSocket?: SocketConstructor;
  store?: NotificationStore;
  /** The Authorization value API calls send; null when signed out. */
  authorization?: () => string | null;
  /** Loads the newest messages into the store before the first socket opens (so `after` is known). */
  loadLatest?: (store: NotificationStore) => Promise<void>;
  /** Called once per message that arrived over the socket and was not seen before. */
  onNotification?: (notification: AppNotification) => void;
  /** For the backoff's jitter; Math.random by default. */
  random?: () => number;
};

export type NotificationConnection = {
  /** Connects with the current token; a no-op while already connected (or refused) with that same token. */
  start(): void;
  /** Closes the socket and cancels any retry. */
  stop(): void;
};

/** The delay before retry number `attempt` (0-based): 1 s doubling up to 30 s, plus up to 50 % jitter. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt * (1 + random() / 2));
}

/** ws: or wss: to this page's own host. */
export function feedUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/notifications/ws`;
}

/** GET /api/notifications for the newest few, quietly: failures are the feed's to retry. */
export async function loadLatest(store: NotificationStore, silent = true): Promise<void> {
  const page = await listNotifications({ size: LATEST_SHOWN }, { silent });
  store.getState().load(page.content, page.unread);
}

type ServerMessage =
  | { type: 'ready'; unread: number }
  | { type: 'notification'; notification: AppNotification; unread: number }
  | { type: 'read'; unread: number };

function parse(data: unknown): ServerMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const message = JSON.parse(data) as Partial<ServerMessage> | null;
    return message && typeof message.type === 'string' ? (message as ServerMessage) : null;
  } catch {
    return null;
  }
}

const isUnauthorized = (error: unknown) => refusalOf(error)?.status === 401;

export function createNotificationConnection(deps: ConnectionDeps = {}): NotificationConnection {
  const store = deps.store ?? useNotificationStore;
  const readAuthorization = deps.authorization ?? authorization;
  const load = deps.loadLatest ?? loadLatest;
  const random = deps.random ?? Math.random;

  let token: string | null = null;
  let socket: SocketLike | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let readyTimer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let loaded = false;
  // Bumped by every stop(), so a load or socket of an earlier session cannot act on this one.
  let session = 0;

  const scheduleRetry = () => {
    store.getState().setStatus('waiting');
    timer = setTimeout(connect, backoffDelay(attempt, random));
    attempt += 1;
  };

  const onMessage = (message: ServerMessage) => {
    const state = store.getState();
    if (message.type === 'ready') {
      clearTimeout(readyTimer);
      attempt = 0;
      state.setStatus('open');
      state.readElsewhere(message.unread);
    } else if (message.type === 'notification') {
      if (state.receive(message.notification, message.unread)) deps.onNotification?.(message.notification);
    } else if (message.type === 'read') {
      state.readElsewhere(message.unread);
    }
  };

  const openSocket = (auth: string) => {
    const Socket = deps.WebSocket ?? (globalThis.WebSocket as SocketConstructor);
    const ws = new Socket(feedUrl());
    socket = ws;
    const drop = () => {
      clearTimeout(readyTimer);
      socket = null;
    };
    readyTimer = setTimeout(() => {
      if (socket !== ws) return;
      drop();
      ws.close(4000, 'no answer');
      scheduleRetry();
    }, READY_TIMEOUT_MS);
    // `after` is read when the socket opens: messages a REST call loaded meanwhile count as seen.
    ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token: auth, after: store.getState().lastId }));
    ws.onmessage = (event) => {
      if (socket !== ws) return;
      const message = parse(event.data);
      if (message) onMessage(message);
    };
    ws.onerror = () => {
      // A close event follows.
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      drop();
      if (event.code === UNAUTHORIZED_CLOSE) store.getState().setStatus('unauthorized');
      else scheduleRetry();
    };
  };

  async function connect(): Promise<void> {
    timer = undefined;
    const auth = token;
    if (!auth) return;
    const current = session;
    store.getState().setStatus('connecting');
    if (!loaded) {
      try {
        await load(store);
      } catch (error) {
        if (current !== session) return;
        if (isUnauthorized(error)) store.getState().setStatus('unauthorized');
        else scheduleRetry();
        return;
      }
      if (current !== session) return;
      loaded = true;
    }
    openSocket(auth);
  }

  /** Back online or back in view: retry now instead of waiting out the backoff. */
  const wake = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    void connect();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'visible') wake();
  };

  const stop = () => {
    session += 1;
    clearTimeout(timer);
    clearTimeout(readyTimer);
    timer = undefined;
    const ws = socket;
    socket = null;
    ws?.close(1000, 'stopped');
    window.removeEventListener('online', wake);
    document.removeEventListener('visibilitychange', onVisibility);
    if (token) store.getState().reset();
    token = null;
    attempt = 0;
    loaded = false;
  };

  return {
    start() {
      const auth = readAuthorization();
      if (auth === token) return;
      stop();
      if (!auth) return;
      token = auth;
      window.addEventListener('online', wake);
      document.addEventListener('visibilitychange', onVisibility);
      void connect();
    },
    stop,
  };
}
