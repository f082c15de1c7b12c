import BellOutlined from '@ant-design/icons/es/icons/BellOutlined';
import theme from 'antd/es/theme';
import { lazy, Suspense, useEffect, useEffectEvent, useState } from 'react';
import { useAppApis } from '@/lib/app-apis.tsx';
import type { AppNotification } from '@/lib/notifications/api.ts';
import { createNotificationConnection } from '@/lib/notifications/connection.ts';
import { useNotificationStore } from '@/lib/notifications/store.ts';
import { useOpenNotification } from './notification-actions.ts';
import { usePopup } from './popup.ts';
import { useSessionToken } from './session-adapter.ts';

// The list, the drawer and their styles load on the first click, not with the shell.
const NotificationPanel = lazy(() => import('./NotificationPanel.tsx'));
const NotificationDrawer = lazy(() =>
  import('./NotificationPanel.tsx').then((module) => ({ default: module.NotificationDrawer })),
);

export const BELL_LABEL = '消息通知';

/** The live feed while signed in; every new unread message also shows a toast that opens its record. */
function useNotificationFeed(openNotification: (notification: AppNotification) => void): void {
  const token = useSessionToken();
  const { notification } = useAppApis();
  const toast = useEffectEvent((item: AppNotification) => {
    if (item.read) return;
    const key = `notification-${item.id}`;
    notification.info({
      key,
      title: item.title,
      description: item.body,
      icon: <BellOutlined />,
      style: { cursor: 'pointer' },
      onClick: () => {
        notification.destroy(key);
        openNotification(item);
      },
    });
  });
  useEffect(() => {
    if (!token) return;
    const connection = createNotificationConnection({ onNotification: (item) => toast(item) });
    connection.start();
    return () => connection.stop();
  }, [token]);
}

/** The navbar's bell: unread badge, a popover with the newest messages, a drawer with all of them. */
export function NotificationBell() {
  const unread = useNotificationStore((state) => state.unread);
  const [open, setOpen] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerUsed, setDrawerUsed] = useState(false);
  const openNotification = useOpenNotification();
  useNotificationFeed(openNotification);
  const { trigger: button, popup, style } = usePopup<HTMLDivElement>(open, setOpen);

  const viewAll = () => {
    setOpen(false);
    setDrawerUsed(true);
    setDrawerOpen(true);
  };
  const openFromPanel = (item: AppNotification) => {
    setOpen(false);
    openNotification(item);
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="shell-icon-button shell-bell"
        // The visible count is part of the name (WCAG 2.5.3): 消息通知 3 条未读.
        aria-label={unread > 0 ? `${BELL_LABEL} ${unread > 99 ? '99+' : unread} 条未读` : BELL_LABEL}
        title={BELL_LABEL}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span style={{ position: 'relative', display: 'inline-flex' }}>
          <BellOutlined style={{ fontSize: 18 }} />
          {unread > 0 && <UnreadCount count={unread} />}
        </span>
      </button>
      {open && (
        // Drawn by the shell as antd's popover draws it (its code stays out of the first load); the list loads
        // on the first open.
        <div
          ref={popup}
          role="dialog"
          aria-label={BELL_LABEL}
          className="shell-popup shell-bell-popup"
          style={style}
        >
          <Suspense fallback={<p className="shell-popup-loading">加载中…</p>}>
            <NotificationPanel onOpen={openFromPanel} onViewAll={viewAll} />
          </Suspense>
        </div>
      )}
      {drawerUsed && (
        <Suspense fallback={null}>
          <NotificationDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/** The count's red: white on it is 5.6:1 (AA) in light and dark mode alike (dark mode's colorError is 3.7:1). */
const COUNT_RED = '#cf1322';

/** The unread count on the bell (antd's small badge, drawn here: the shell's first load skips Badge). */
function UnreadCount({ count }: { count: number }) {
  const { token } = theme.useToken();
  return (
    <sup
      // antd's class name too: the journeys find the count by it, as when antd's Badge drew it.
      className="shell-bell-count ant-badge-count"
      title={String(count)}
      aria-hidden="true"
      style={{
        position: 'absolute',
        top: -2,
        insetInlineStart: '100%',
        marginInlineStart: -6,
        minWidth: 14,
        height: 14,
        padding: '0 4px',
        borderRadius: 7,
        background: COUNT_RED,
        color: '#fff',
        fontSize: token.fontSizeSM,
        lineHeight: '14px',
        textAlign: 'center',
        whiteSpace: 'nowrap',
        boxShadow: `0 0 0 1px ${token.colorBgContainer}`,
      }}
    >
      {count > 99 ? '99+' : count}
    </sup>
  );
}
