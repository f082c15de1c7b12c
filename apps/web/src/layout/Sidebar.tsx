import { SITE_TITLE } from '@piibs/shared/constants';
import type { MenuProps } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MenuIcon } from '@/lib/icons.tsx';
import { HOME_PATH } from '@/lib/paths.ts';
import { useAppStore } from '@/stores/app.ts';
import { isContainer, isExternal, isNavigable, type MenuNode } from '@/stores/permission.ts';
import { useOpenedOnce } from './use-opened-once.ts';

// antd's menu is code the shell's first load leaves out where the sidebar starts closed (a phone): it loads when
// the sidebar first opens. On a wide screen it shows at once, so its code is asked for beside the shell's.
const loadMenu = () => import('antd/es/menu');
const Menu = lazy(loadMenu);
if (useAppStore.getState().device === 'desktop') void loadMenu();

type MenuItem = NonNullable<MenuProps['items']>[number];

function visibleChildren(node: MenuNode): MenuNode[] {
  return node.children.filter((child) => !child.hidden);
}

/**
 * The sidebar's entries from the permitted routes: hidden routes and routes with params left out, and
 * (as in eladmin) a directory with a single visible page shows that page in its place unless alwaysShow.
 * For the reduced shell the root entry (the dashboard) is hidden (spec §4).
 */
function buildMenuItems(nodes: readonly MenuNode[], reduced: boolean, parentIcon?: string): MenuItem[] {
  return nodes.flatMap((node): MenuItem[] => {
    if (node.hidden || !isNavigable(node)) return [];
    if (reduced && node.path === HOME_PATH) return [];
    const icon = node.icon ?? parentIcon;
    if (node.external) return [{ key: node.path, icon: <MenuIcon name={icon} />, label: node.title }];
    const children = visibleChildren(node);
    if (children.length === 1 && !node.alwaysShow && visibleChildren(children[0]!).length === 0) {
      return buildMenuItems(children, reduced, icon);
    }
    if (children.length > 0) {
      const items = buildMenuItems(children, reduced);
      if (items.length === 0) return [];
      return [{ key: node.path, icon: <MenuIcon name={icon} />, label: node.title, children: items }];
    }
    if (isContainer(node)) return [];
    return [{ key: node.path, icon: <MenuIcon name={icon} />, label: node.title, title: node.title }];
  });
}

function ancestorKeys(node: MenuNode | undefined): string[] {
  return node ? node.parents.map((parent) => parent.path) : [];
}

function Logo({ collapsed, linkable }: { collapsed: boolean; linkable: boolean }) {
  const content = (
    <>
      <svg viewBox="0 0 24 24" aria-hidden="true">
        <path fill="#409EFF" d="M12 1 3 5v6c0 5.55 3.84 10.74 9 12 5.16-1.26 9-6.45 9-12V5l-9-4Z" />
        <path fill="#fff" d="m10 15.2-3.2-3.2-1.4 1.4 4.6 4.6 8-8-1.4-1.4z" />
      </svg>
      {!collapsed && <span>{SITE_TITLE}</span>}
    </>
  );
  // Spec §6: the logo is not a link in the reduced shell.
  return linkable ? (
    <Link to={HOME_PATH} className="shell-logo" aria-label={SITE_TITLE}>
      {content}
    </Link>
  ) : (
    <div className="shell-logo" data-testid="shell-logo">
      {content}
    </div>
  );
}

interface SidebarProps {
  nodes: readonly MenuNode[];
  /** The menu node the current page belongs to, if any. */
  active: MenuNode | undefined;
  collapsed: boolean;
  reduced: boolean;
  showLogo: boolean;
  uniqueOpened: boolean;
  /** A phone's closed sidebar, slid off the screen. */
  offscreen?: boolean;
}

export function Sidebar({
  nodes,
  active,
  collapsed,
  reduced,
  showLogo,
  uniqueOpened,
  offscreen = false,
}: SidebarProps) {
  const navigate = useNavigate();
  const items = useMemo(() => buildMenuItems(nodes, reduced), [nodes, reduced]);
  const parentsByKey = useMemo(() => {
    const map = new Map<string, string[]>();
    const walk = (list: readonly MenuNode[]) => {
      for (const node of list) {
        map.set(node.path, ancestorKeys(node));
        walk(node.children);
      }
    };
    walk(nodes);
    return map;
  }, [nodes]);

  const [openKeys, setOpenKeys] = useState<string[]>(() => ancestorKeys(active));
  // Opening the page's directory when the page changes (keeps the others as the user left them).
  useEffect(() => {
    const wanted = ancestorKeys(active);
    setOpenKeys((keys) => (uniqueOpened ? wanted : [...new Set([...keys, ...wanted])]));
  }, [active, uniqueOpened]);

  const onOpenChange = (keys: string[]) => {
    const opened = keys.find((key) => !openKeys.includes(key));
    // Unique-opened: opening a directory closes every other one that is not its ancestor.
    if (!uniqueOpened || !opened) setOpenKeys(keys);
    else setOpenKeys([...(parentsByKey.get(opened) ?? []), opened]);
  };

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (isExternal(key)) window.open(key, '_blank', 'noopener');
    else navigate(key);
  };

  // Off the screen, the sidebar is inert: its entries are out of the tab order and the accessibility tree. Its menu
  // is made when the sidebar first shows (then kept, so it slides away whole): on a phone's first load the shell
  // renders no menu and generates none of its styles.
  const shown = useOpenedOnce(!offscreen);

  const selected = active ? [active.path, ...ancestorKeys(active)] : [];
  return (
    <aside className="shell-sidebar" aria-label="侧边栏" inert={offscreen}>
      {showLogo && <Logo collapsed={collapsed} linkable={!reduced} />}
      {shown && (
        <Suspense fallback={null}>
          <Menu
            mode="inline"
            theme="dark"
            items={items}
            inlineCollapsed={collapsed}
            selectedKeys={selected}
            // While collapsed antd shows directories as pop-ups and manages them itself.
            {...(collapsed ? {} : { openKeys, onOpenChange })}
            onClick={onClick}
          />
        </Suspense>
      )}
    </aside>
  );
}
