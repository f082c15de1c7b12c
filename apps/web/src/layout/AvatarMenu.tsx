import CaretDownOutlined from '@ant-design/icons/es/icons/CaretDownOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import Avatar from 'antd/es/avatar';
import Dropdown from 'antd/es/dropdown';
import { useNavigate } from 'react-router';
import { USER_CENTER_PATH } from '@/app/shell-routes.ts';
import { useSettingsStore } from '@/stores/settings.ts';
import { useLogout, useShellSession } from './session-adapter.ts';

/** Spec §2: avatar dropdown with layout settings, personal center and logout. */
export function AvatarMenu() {
  const navigate = useNavigate();
  const { nickName, avatar } = useShellSession();
  const logout = useLogout();
  const showSettings = useSettingsStore((s) => s.showSettings);
  const setDrawerOpen = useSettingsStore((s) => s.setDrawerOpen);
  const items = [
    ...(showSettings ? [{ key: 'settings', label: '布局设置' }] : []),
    { key: 'center', label: '个人中心' },
    { type: 'divider' as const },
    { key: 'logout', label: '退出登录' },
  ];
  const onClick = ({ key }: { key: string }) => {
    if (key === 'settings') setDrawerOpen(true);
    else if (key === 'center') navigate(USER_CENTER_PATH);
    else if (key === 'logout') logout();
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{ items, onClick }}
      rootClassName="shell-avatar-menu"
      onOpenChange={(open) => {
        // Opened (by Enter or Space too), the menu takes the focus on its first entry; the arrows walk it and
        // Esc closes it.
        if (open)
          setTimeout(
            () => document.querySelector<HTMLElement>('.shell-avatar-menu [role="menuitem"]')?.focus(),
            0,
          );
      }}
    >
      <button
        type="button"
        className="shell-icon-button shell-avatar"
        aria-label={nickName ? `用户菜单 ${nickName}` : '用户菜单'}
      >
        <Avatar
          size={30}
          shape="square"
          src={avatar ? `/api/avatar/${encodeURIComponent(avatar)}` : undefined}
          icon={<UserOutlined />}
        />
        {nickName && <span className="shell-avatar-name">{nickName}</span>}
        <CaretDownOutlined style={{ fontSize: 12 }} />
      </button>
    </Dropdown>
  );
}
