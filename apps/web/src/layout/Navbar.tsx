import MenuFoldOutlined from '@ant-design/icons/es/icons/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/es/icons/MenuUnfoldOutlined';
import { useAppStore } from '@/stores/app.ts';
import type { MenuNode } from '@/stores/permission.ts';
import { AvatarMenu } from './AvatarMenu.tsx';
import { Breadcrumb } from './Breadcrumb.tsx';
import { HeaderSearch } from './HeaderSearch.tsx';
import type { SearchEntry } from './header-search.ts';
import { NotificationBell } from './NotificationBell.tsx';
import { Screenfull } from './Screenfull.tsx';
import { SizeSelect } from './SizeSelect.tsx';

interface NavbarProps {
  active: MenuNode | undefined;
  reduced: boolean;
  searchEntries: SearchEntry[];
  onRefresh(): void;
}

export function Navbar({ active, reduced, searchEntries, onRefresh }: NavbarProps) {
  const opened = useAppStore((s) => s.sidebar.opened);
  const mobile = useAppStore((s) => s.device === 'mobile');
  const toggleSideBar = useAppStore((s) => s.toggleSideBar);
  return (
    <div className="shell-navbar">
      <button
        type="button"
        className="shell-icon-button shell-hamburger"
        aria-label={opened ? '收起侧边栏' : '展开侧边栏'}
        aria-expanded={opened}
        onClick={toggleSideBar}
      >
        {opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
      </button>
      <Breadcrumb active={active} reduced={reduced} />
      <div className="shell-navbar-right">
        {!mobile && <HeaderSearch entries={searchEntries} />}
        <Screenfull />
        <SizeSelect onRefresh={onRefresh} />
        <NotificationBell />
        <AvatarMenu />
      </div>
    </div>
  );
}
