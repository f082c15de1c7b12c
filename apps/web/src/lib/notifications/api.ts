// The notification feed's REST calls (GET /api/notifications, PUT /api/notifications/read).
// Types only from @piibs/shared/notification: its zod runtime stays out of the shell's chunk.
import type { Notification, NotificationPage } from '@piibs/shared/notification';
import { request } from '@/lib/http.ts';

/** One in-app message (named apart from the DOM's Notification). */
export type AppNotification = Notification;
export type { NotificationPage };

/** `unread`: true for unread only, false for read only, left out for all. */
export type NotificationQuery = { size: number; before?: number; unread?: boolean };

export function listNotifications(
  query: NotificationQuery,
  options: { signal?: AbortSignal; silent?: boolean } = {},
): Promise<NotificationPage> {
  const params: Record<string, string> = { size: String(query.size) };
  if (query.before !== undefined) params.before = String(query.before);
  if (query.unread !== undefined) params.unread = String(query.unread);
  return request<NotificationPage>({ url: 'api/notifications', method: 'get', params, ...options });
}

/** Marks the given messages, or all of them, read; answers the unread count left. */
export function markNotificationsRead(
  target: { ids: number[] } | { all: true },
): Promise<{ unread: number }> {
  return request<{ unread: number }>({ url: 'api/notifications/read', method: 'put', data: target });
}

/** Only paths inside this app are followed: a link is data from the server, not a place to send anyone. */
export function isAppPath(link: string | null): link is string {
  return typeof link === 'string' && /^\/(?![/\\])/.test(link);
}
