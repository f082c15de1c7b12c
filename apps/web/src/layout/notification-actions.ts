// What the bell, its panel, the drawer and the toasts do with a message: mark it read, open its record.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { type AppNotification, isAppPath, markNotificationsRead } from '@/lib/notifications/api.ts';
import { useNotificationStore } from '@/lib/notifications/store.ts';

/** The drawer's lists (one per tab); refetched whenever the unread state changes. */
export const NOTIFICATION_LIST_KEY = ['notifications', 'list'] as const;

/** PUT /api/notifications/read; the badge takes the count the server answers. */
export function useMarkRead(): (target: readonly number[] | 'all') => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (target) => {
      const { unread } = await markNotificationsRead(target === 'all' ? { all: true } : { ids: [...target] });
      useNotificationStore.getState().markRead(target, unread);
      await queryClient.invalidateQueries({ queryKey: NOTIFICATION_LIST_KEY });
    },
    [queryClient],
  );
}

/** Marks the message read (if it is not) and goes to its record, which the shell opens as a tab. */
export function useOpenNotification(): (notification: AppNotification) => void {
  const navigate = useNavigate();
  const markRead = useMarkRead();
  return useCallback(
    (notification) => {
      if (!notification.read) {
        // A failure was already announced by the HTTP client; the message just stays unread.
        markRead([notification.id]).catch(() => {});
      }
      if (isAppPath(notification.link)) void navigate(notification.link);
    },
    [markRead, navigate],
  );
}
