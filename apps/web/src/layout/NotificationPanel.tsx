// The bell's popover content and the 消息通知 drawer; loaded on the first click on the bell.
import './notifications.css';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Empty, Spin, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { type AppNotification, listNotifications } from '@/lib/notifications/api.ts';
import { loadLatest } from '@/lib/notifications/connection.ts';
import { fullTime, relativeTime } from '@/lib/notifications/format.ts';
import { LATEST_SHOWN, useNotificationStore } from '@/lib/notifications/store.ts';
import { NOTIFICATION_LIST_KEY, useMarkRead, useOpenNotification } from './notification-actions.ts';

export const EMPTY_TEXT = '暂无消息';
const PAGE_SIZE = 20;

const ignore = () => {};

function NotificationList({
  items,
  onOpen,
}: {
  items: readonly AppNotification[];
  onOpen(item: AppNotification): void;
}) {
  return (
    <ul className="notice-list">
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            className={item.read ? 'notice-item' : 'notice-item notice-unread'}
            onClick={() => onOpen(item)}
          >
            <span className="notice-head">
              {!item.read && <span className="notice-dot" title="未读" />}
              <span className="notice-title">{item.title}</span>
              <time className="notice-time" dateTime={item.createTime} title={fullTime(item.createTime)}>
                {relativeTime(item.createTime)}
              </time>
            </span>
            <span className="notice-body">{item.body}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={EMPTY_TEXT} />;

/** The newest messages, refreshed on open and whenever the server reports a change. */
export default function NotificationPanel({
  onOpen,
  onViewAll,
}: {
  onOpen(item: AppNotification): void;
  onViewAll(): void;
}) {
  const items = useNotificationStore((state) => state.items);
  const unread = useNotificationStore((state) => state.unread);
  const markRead = useMarkRead();
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const reload = () => loadLatest(useNotificationStore, false).catch(ignore);
    void reload().finally(() => setLoading(false));
    return useNotificationStore.subscribe((state, previous) => {
      if (state.revision !== previous.revision) void reload();
    });
  }, []);

  const shown = items.slice(0, LATEST_SHOWN);
  return (
    <div className="notice-panel">
      <div className="notice-panel-head">
        <strong>消息通知</strong>
        <Button
          type="link"
          size="small"
          disabled={unread === 0}
          onClick={() => markRead('all').catch(ignore)}
        >
          全部标为已读
        </Button>
      </div>
      {shown.length > 0 ? (
        <NotificationList items={shown} onOpen={onOpen} />
      ) : loading ? (
        <div className="notice-loading">
          <Spin size="small" />
        </div>
      ) : (
        empty
      )}
      <div className="notice-panel-foot">
        <Button type="link" block onClick={onViewAll}>
          查看全部
        </Button>
      </div>
    </div>
  );
}

type Tab = 'unread' | 'all';

/** Every message, newest first, 20 at a time ("加载更多"), under the tabs 未读 / 全部. */
export function NotificationDrawer({ open, onClose }: { open: boolean; onClose(): void }) {
  const [tab, setTab] = useState<Tab>('unread');
  const unread = useNotificationStore((state) => state.unread);
  const queryClient = useQueryClient();
  const markRead = useMarkRead();
  const openNotification = useOpenNotification();
  const list = useInfiniteQuery({
    queryKey: [...NOTIFICATION_LIST_KEY, tab],
    queryFn: ({ pageParam, signal }) =>
      listNotifications(
        { size: PAGE_SIZE, before: pageParam, unread: tab === 'unread' ? true : undefined },
        { signal },
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    enabled: open,
  });

  useEffect(
    () =>
      useNotificationStore.subscribe((state, previous) => {
        if (state.revision !== previous.revision) {
          void queryClient.invalidateQueries({ queryKey: NOTIFICATION_LIST_KEY });
        }
      }),
    [queryClient],
  );

  const items = list.data?.pages.flatMap((page) => page.content) ?? [];
  const openItem = (item: AppNotification) => {
    onClose();
    openNotification(item);
  };

  return (
    <Drawer
      title="消息通知"
      open={open}
      onClose={onClose}
      size={420}
      extra={
        <Button size="small" disabled={unread === 0} onClick={() => markRead('all').catch(ignore)}>
          全部标为已读
        </Button>
      }
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as Tab)}
        items={[
          { key: 'unread', label: '未读' },
          { key: 'all', label: '全部' },
        ]}
      />
      {list.isPending ? (
        <div className="notice-loading">
          <Spin />
        </div>
      ) : items.length > 0 ? (
        <NotificationList items={items} onOpen={openItem} />
      ) : (
        empty
      )}
      {list.hasNextPage && (
        <Button block loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          加载更多
        </Button>
      )}
    </Drawer>
  );
}
