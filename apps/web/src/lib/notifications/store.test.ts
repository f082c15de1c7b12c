import { describe, expect, it } from 'vitest';
import { relativeTime } from './format.ts';
import { createNotificationStore, LATEST_KEPT } from './store.ts';
import { fakeNotification } from './test-data.ts';

describe('notification store', () => {
  it('counts a message once when the catch-up and a live push both bring it', () => {
    const store = createNotificationStore();
    expect(store.getState().receive(fakeNotification(1), 1)).toBe(true);
    expect(store.getState().receive(fakeNotification(2), 2)).toBe(true);
    // The live push of id 2 racing the catch-up.
    expect(store.getState().receive(fakeNotification(2), 2)).toBe(false);
    expect(store.getState().receive(fakeNotification(3), 3)).toBe(true);
    const { items, lastId, unread } = store.getState();
    expect(items.map((item) => item.id)).toEqual([3, 2, 1]);
    expect(lastId).toBe(3);
    expect(unread).toBe(3);
  });

  it('accepts a lower id that arrives late (commits out of id order) without lowering lastId', () => {
    const store = createNotificationStore();
    store.getState().receive(fakeNotification(11), 1);
    expect(store.getState().receive(fakeNotification(10), 2)).toBe(true);
    expect(store.getState().items.map((item) => item.id)).toEqual([11, 10]);
    expect(store.getState().lastId).toBe(11);
  });

  it('treats messages a REST load brought as seen, and keeps newer pushed ones', () => {
    const store = createNotificationStore();
    store.getState().receive(fakeNotification(9), 4);
    store.getState().load([fakeNotification(8), fakeNotification(7, { read: true })], 3);
    expect(store.getState().items.map((item) => item.id)).toEqual([9, 8, 7]);
    expect(store.getState().lastId).toBe(9);
    expect(store.getState().unread).toBe(3);
    expect(store.getState().receive(fakeNotification(8), 3)).toBe(false);
  });

  it(`keeps the newest ${LATEST_KEPT}`, () => {
    const store = createNotificationStore();
    for (let id = 1; id <= LATEST_KEPT + 5; id += 1) store.getState().receive(fakeNotification(id), id);
    const ids = store.getState().items.map((item) => item.id);
    expect(ids).toHaveLength(LATEST_KEPT);
    expect(ids[0]).toBe(LATEST_KEPT + 5);
  });

  it('marks given ids or all read and takes the server count', () => {
    const store = createNotificationStore();
    store.getState().load([fakeNotification(3), fakeNotification(2), fakeNotification(1)], 3);
    store.getState().markRead([2], 2);
    expect(store.getState().items.map((item) => item.read)).toEqual([false, true, false]);
    expect(store.getState().unread).toBe(2);
    store.getState().markRead('all', 0);
    expect(store.getState().items.every((item) => item.read)).toBe(true);
    expect(store.getState().unread).toBe(0);
  });

  it('read elsewhere: takes the count, marks all read at zero and bumps the revision', () => {
    const store = createNotificationStore();
    store.getState().load([fakeNotification(2), fakeNotification(1)], 2);
    const before = store.getState().revision;
    store.getState().readElsewhere(1);
    expect(store.getState().unread).toBe(1);
    expect(store.getState().items.some((item) => !item.read)).toBe(true);
    store.getState().readElsewhere(0);
    expect(store.getState().items.every((item) => item.read)).toBe(true);
    expect(store.getState().revision).toBe(before + 2);
  });

  it('reset forgets the seen ids', () => {
    const store = createNotificationStore();
    store.getState().receive(fakeNotification(1), 1);
    store.getState().reset();
    expect(store.getState()).toMatchObject({ unread: 0, items: [], lastId: 0, status: 'idle' });
    expect(store.getState().receive(fakeNotification(1), 1)).toBe(true);
  });
});

describe('relativeTime', () => {
  const now = Date.parse('2025-03-10T12:00:00Z');
  it.each([
    ['2025-03-10T11:59:30Z', '刚刚'],
    ['2025-03-10T11:55:00Z', '5 分钟前'],
    ['2025-03-10T09:00:00Z', '3 小时前'],
    ['2025-03-08T12:00:00Z', '2 天前'],
  ])('%s → %s', (iso, text) => {
    expect(relativeTime(iso, now)).toBe(text);
  });

  it('shows the date after a week', () => {
    const iso = new Date(2025, 0, 5, 10, 0).toISOString();
    expect(relativeTime(iso, now)).toBe('2025-01-05');
  });
});
