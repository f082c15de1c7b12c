// The signed-in tab's view of its in-app messages: the unread count, the latest few messages, the highest id
// seen (what a reconnecting socket asks to catch up from) and the live connection's state.
import { create } from 'zustand';
import type { AppNotification } from './api.ts';

/** How many of the newest messages the store keeps (the bell's popover shows the first LATEST_SHOWN). */
export const LATEST_KEPT = 20;
export const LATEST_SHOWN = 8;

/**
 * idle: not signed in or stopped. connecting: loading the latest messages or opening the socket.
 * open: authenticated and live. waiting: disconnected, a retry is scheduled. unauthorized: the server refused
 * the token (close code 4401); nothing is retried until the token changes.
 */
export type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'waiting' | 'unauthorized';

export interface NotificationState {
  unread: number;
  /** The newest messages, id descending, at most LATEST_KEPT. */
  items: AppNotification[];
  /** The highest message id this tab has seen (REST or socket); 0 if none. */
  lastId: number;
  status: ConnectionStatus;
  /** Bumped whenever the server reports a change (a new message, messages read elsewhere): lists refetch. */
  revision: number;

  /** A message from the socket with the unread count after it. Answers false for one already seen. */
  receive(notification: AppNotification, unread: number): boolean;
  /** The newest messages as a REST call answered them: they replace the kept list. */
  load(items: readonly AppNotification[], unread: number): void;
  /** The server's unread count after messages were read (here or in another tab). */
  readElsewhere(unread: number): void;
  /** Messages this tab marked read, and the unread count the server answered. */
  markRead(ids: readonly number[] | 'all', unread: number): void;
  setStatus(status: ConnectionStatus): void;
  reset(): void;
}

const initial = {
  unread: 0,
  items: [],
  lastId: 0,
  status: 'idle',
  revision: 0,
} satisfies Partial<NotificationState>;

const newestFirst = (a: AppNotification, b: AppNotification) => b.id - a.id;

export function createNotificationStore() {
  // Every id seen in this session, so a message that arrives twice (catch-up racing a live push, a REST load
  // racing the socket) counts and toasts once. Ids may arrive out of order (concurrent commits), so the
  // highest id alone cannot tell.
  const seen = new Set<number>();
  return create<NotificationState>((set, get) => ({
    ...initial,

    receive(notification, unread) {
      if (seen.has(notification.id)) {
        set({ unread });
        return false;
      }
      seen.add(notification.id);
      const { items, lastId, revision } = get();
      set({
        unread,
        items: [notification, ...items].sort(newestFirst).slice(0, LATEST_KEPT),
        lastId: Math.max(lastId, notification.id),
        revision: revision + 1,
      });
      return true;
    },

    load(loaded, unread) {
      for (const item of loaded) seen.add(item.id);
      // Keep kept messages the REST page did not cover (newer ones pushed while it was in flight).
      const byId = new Map(get().items.map((item) => [item.id, item]));
      for (const item of loaded) byId.set(item.id, item);
      const items = [...byId.values()].sort(newestFirst).slice(0, LATEST_KEPT);
      set({ unread, items, lastId: Math.max(get().lastId, ...loaded.map((item) => item.id)) });
    },

    readElsewhere(unread) {
      const { items, revision } = get();
      // Which ones is not said; none unread left means all of them.
      set({
        unread,
        items: unread === 0 ? items.map((item) => ({ ...item, read: true })) : items,
        revision: revision + 1,
      });
    },

    markRead(ids, unread) {
      const marked = ids === 'all' ? null : new Set(ids);
      set({
        unread,
        items: get().items.map((item) => (!marked || marked.has(item.id) ? { ...item, read: true } : item)),
      });
    },

    setStatus(status) {
      set({ status });
    },

    reset() {
      seen.clear();
      set({ ...initial });
    },
  }));
}

export type NotificationStore = ReturnType<typeof createNotificationStore>;

export const useNotificationStore = createNotificationStore();
