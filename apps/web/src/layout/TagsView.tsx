import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import LeftOutlined from '@ant-design/icons/es/icons/LeftOutlined';
import RightOutlined from '@ant-design/icons/es/icons/RightOutlined';
import { TAG_CONTEXT_MENU_WIDTH_PX } from '@piibs/shared/constants';
import { type KeyboardEvent, type MouseEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { HOME_PATH } from '@/lib/paths.ts';
import { type TagView, useTagsViewStore } from '@/stores/tagsView.ts';
import { walkMenu } from './popup.ts';

function MenuItem({ onClick, children }: { onClick(): void; children: string }) {
  return (
    <li>
      <button type="button" onClick={onClick}>
        {children}
      </button>
    </li>
  );
}

/** Where the menu opens, and the tab link that opened it (focus goes back there when it closes). */
type ContextMenu = {
  tag: TagView;
  left: number;
  top: number;
  opener: HTMLElement | null;
  byKeyboard: boolean;
};

const SCROLL_STEP_PX = 240;

/** Whether the tabs run past the bar's left and right edges (the arrows that reach them are shown then). */
function useOverflow(ref: RefObject<HTMLDivElement | null>, count: number) {
  const [edges, setEdges] = useState({ left: false, right: false });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a tab more or less changes the width to measure.
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const measure = () => {
      const left = bar.scrollLeft > 1;
      const right = bar.scrollLeft + bar.clientWidth < bar.scrollWidth - 1;
      setEdges((old) => (old.left === left && old.right === right ? old : { left, right }));
    };
    measure();
    bar.addEventListener('scroll', measure, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    resize?.observe(bar);
    return () => {
      bar.removeEventListener('scroll', measure);
      resize?.disconnect();
    };
  }, [ref, count]);
  return edges;
}

interface TagsViewProps {
  activeKey: string;
  reduced: boolean;
  /** The current page is a tab: the bar shows from the first paint, before its tab is added (an effect). */
  activeIsTab: boolean;
}

/** Spec §2: the tags bar of visited views, with close / close others / close all and a context menu. */
export function TagsView({ activeKey, reduced, activeIsTab }: TagsViewProps) {
  const navigate = useNavigate();
  const visitedViews = useTagsViewStore((s) => s.visitedViews);
  const recordTitles = useTagsViewStore((s) => s.recordTitles);
  // Spec §6: no home tab in the reduced shell.
  const tags = reduced ? visitedViews.filter((tag) => tag.key !== HOME_PATH) : visitedViews;
  const [menu, setMenu] = useState<ContextMenu | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  const overflow = useOverflow(scrollRef, tags.length);

  // The active tab is always in view. A new view's tab is added after the route changes, so this runs again
  // when the tabs change, not only when the route does.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the tab count is the trigger, not a value read.
  useEffect(() => {
    const tabs = Array.from(scrollRef.current?.children ?? []) as HTMLElement[];
    tabs
      .find((tab) => tab.dataset.tagKey === activeKey)
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeKey, tags.length]);

  const menuRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    document.addEventListener('click', close);
    // Opened from the keyboard, the menu takes the focus on its first entry.
    if (menu.byKeyboard) menuRef.current?.querySelector('button')?.focus();
    return () => document.removeEventListener('click', close);
  }, [menu]);

  /** Closes the menu; Esc (or an action) puts the focus back on the tab it was opened for. */
  const closeMenu = (refocus: boolean) => {
    const opener = menu?.opener;
    setMenu(null);
    if (refocus && opener?.isConnected) opener.focus();
  };

  /** In the menu: ↑ ↓ Home End move between its entries, Esc and Tab close it. */
  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      closeMenu(true);
    } else if (event.key === 'Tab') closeMenu(false);
    else walkMenu(event, Array.from(event.currentTarget.querySelectorAll('button')));
  };

  // Spec §6: CA and role-17 users cannot close their last tab.
  const closable = (tag: TagView) => !tag.affix && !(reduced && tags.length <= 1);

  /** After the open tab closes, show the most recent tab left, or the dashboard. */
  const toLastView = () => {
    const last = useTagsViewStore.getState().visitedViews.at(-1);
    navigate(last ? last.fullPath : HOME_PATH);
  };

  const close = (tag: TagView) => {
    if (!closable(tag)) return;
    useTagsViewStore.getState().delView(tag.key, { keepLast: reduced });
    if (tag.key === activeKey) toLastView();
  };

  const closeOthers = (tag: TagView) => {
    useTagsViewStore.getState().delOthersViews(tag.key);
    if (tag.key !== activeKey) navigate(tag.fullPath);
  };

  const closeAll = (tag: TagView) => {
    useTagsViewStore.getState().delAllViews(reduced ? tag.key : undefined);
    const left = useTagsViewStore.getState().visitedViews;
    if (!left.some((view) => view.key === activeKey)) {
      if (reduced) navigate(tag.fullPath);
      else toLastView();
    }
  };

  const refresh = (tag: TagView) => {
    useTagsViewStore.getState().refreshView(tag.key);
    if (tag.key !== activeKey) navigate(tag.fullPath);
  };

  const openMenu = (event: MouseEvent<HTMLElement>, tag: TagView) => {
    event.preventDefault();
    const opener = event.currentTarget;
    setMenu({ tag, left: event.clientX, top: event.clientY, opener, byKeyboard: false });
  };

  /** The context-menu key or Shift+F10 on a tab opens its menu below it; Delete closes the tab. */
  const onTabKey = (event: KeyboardEvent<HTMLElement>, tag: TagView) => {
    if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      event.preventDefault();
      const opener = event.currentTarget;
      const box = opener.getBoundingClientRect();
      const left = Math.max(0, Math.min(box.left, window.innerWidth - TAG_CONTEXT_MENU_WIDTH_PX));
      setMenu({ tag, left, top: box.bottom, opener, byKeyboard: true });
    } else if (event.key === 'Delete' && closable(tag)) {
      event.preventDefault();
      close(tag);
    }
  };

  const run = (action: (tag: TagView) => void) => () => {
    const opener = menu?.opener;
    if (menu) action(menu.tag);
    setMenu(null);
    // The tab is still there (refresh, close others): the focus goes back to it, not to the page's top.
    if (opener?.isConnected) opener.focus();
  };

  // Nothing to show (a role-17 or CA user on the dashboard, whose home tab is hidden): no empty band. A bar whose
  // first tab is on its way is drawn at once, so the page below does not move down when it comes.
  if (tags.length === 0 && !activeIsTab) return null;

  return (
    <nav className="shell-tags" aria-label="标签栏">
      {overflow.left || overflow.right ? (
        <button
          type="button"
          className="shell-tags-more shell-tags-more-left"
          aria-label="向左滚动标签"
          disabled={!overflow.left}
          onClick={() => scrollRef.current?.scrollBy({ left: -SCROLL_STEP_PX })}
        >
          <LeftOutlined />
        </button>
      ) : null}
      <div
        ref={scrollRef}
        className={
          overflow.left || overflow.right ? 'shell-tags-scroll shell-tags-scroll-arrows' : 'shell-tags-scroll'
        }
        onWheel={(event) => {
          event.currentTarget.scrollLeft += event.deltaY;
        }}
      >
        {tags.map((view) => {
          const record = recordTitles[view.key];
          const tag = record ? { ...view, title: `${view.title} ${record}` } : view;
          const active = tag.key === activeKey;
          return (
            <span
              key={tag.key}
              className={active ? 'shell-tag shell-tag-active' : 'shell-tag'}
              data-tag-key={tag.key}
            >
              <Link
                to={tag.fullPath}
                aria-current={active ? 'page' : undefined}
                aria-haspopup="true"
                aria-keyshortcuts="Shift+F10"
                onContextMenu={(event) => openMenu(event, tag)}
                onKeyDown={(event) => onTabKey(event, tag)}
                onAuxClick={(event) => {
                  // Middle click closes a tab, as in the original.
                  if (event.button === 1) close(tag);
                }}
              >
                {tag.title}
              </Link>
              {closable(tag) && (
                <button
                  type="button"
                  aria-label={`关闭 ${tag.title}`}
                  className="shell-tag-close"
                  onClick={() => close(tag)}
                >
                  <CloseOutlined />
                </button>
              )}
            </span>
          );
        })}
      </div>
      {overflow.left || overflow.right ? (
        <button
          type="button"
          className="shell-tags-more shell-tags-more-right"
          aria-label="向右滚动标签"
          disabled={!overflow.right}
          onClick={() => scrollRef.current?.scrollBy({ left: SCROLL_STEP_PX })}
        >
          <RightOutlined />
        </button>
      ) : null}
      {menu && (
        <ul
          ref={menuRef}
          aria-label="标签操作"
          onKeyDown={onMenuKey}
          className="shell-contextmenu"
          style={{ width: TAG_CONTEXT_MENU_WIDTH_PX, left: menu.left, top: menu.top }}
        >
          <MenuItem onClick={run(refresh)}>刷新</MenuItem>
          {closable(menu.tag) && <MenuItem onClick={run(close)}>关闭</MenuItem>}
          <MenuItem onClick={run(closeOthers)}>关闭其他</MenuItem>
          <MenuItem onClick={run(closeAll)}>关闭所有</MenuItem>
        </ul>
      )}
    </nav>
  );
}
