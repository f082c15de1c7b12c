import CaretDownOutlined from '@ant-design/icons/es/icons/CaretDownOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import { useNavigate } from 'react-router';
import { USER_CENTER_PATH } from '@/app/shell-routes.ts';
import { useSettingsStore } from '@/stores/settings.ts';
import { MenuButton } from './MenuButton.tsx';
import { useLogout, useShellSession } from './session-adapter.ts';

/** Spec §2: avatar dropdown with layout settings, personal center and logout. */
export function AvatarMenu() {
  const navigate = useNavigate();
  const { nickName, avatar } = useShellSession();
  const logout = useLogout();
  const showSettings = useSettingsStore((s) => s.showSettings);
  const setDrawerOpen = useSettingsStore((s) => s.setDrawerOpen);
  const entries = [
    ...(showSettings ? [{ key: 'settings', label: '布局设置' }] : []),
    { key: 'center', label: '个人中心' },
    { key: 'logout', label: '退出登录', dividerBefore: true },
  ];
  const onSelect = (key: string) => {
    if (key === 'settings') setDrawerOpen(true);
    else if (key === 'center') navigate(USER_CENTER_PATH);
    else if (key === 'logout') logout();
  };
  return (
    <MenuButton
      className="shell-icon-button shell-avatar"
      label={nickName ? `用户菜单 ${nickName}` : '用户菜单'}
      entries={entries}
      onSelect={onSelect}
    >
      <span className="shell-avatar-image" aria-hidden="true">
        {avatar ? <img src={`/api/avatar/${encodeURIComponent(avatar)}`} alt="" /> : <UserOutlined />}
      </span>
      {nickName && <span className="shell-avatar-name">{nickName}</span>}
      <CaretDownOutlined style={{ fontSize: 12 }} />
    </MenuButton>
  );
}
