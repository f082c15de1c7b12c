// 首页 (/piibs/dashboard): who is signed in, the figures their roles need to start the day (GET /api/dashboard:
// only the sections the server answers), a date range kept in the URL, and shortcuts to their pages.
import { theme } from 'antd';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { getToken } from '@/lib/auth-storage.ts';
import { MenuIcon } from '@/lib/icons.tsx';
import { HOME_PATH } from '@/lib/paths.ts';
import { menuPages, usePermissionStore } from '@/stores/permission.ts';
import { useUserStore } from '@/stores/user.ts';
import { DashboardStats, StatsBoundary } from '../components/DashboardStats.tsx';
import { DASHBOARD_TEXTS as T } from '../texts.ts';

const MAX_SHORTCUTS = 12;

export default function DashboardPage() {
  const { token } = theme.useToken();
  const user = useUserStore((s) => s.user);
  const nodes = usePermissionStore((s) => s.nodes);
  const shortcuts = useMemo(
    () =>
      menuPages(nodes)
        .filter((node) => node.path !== HOME_PATH && !node.external)
        .slice(0, MAX_SHORTCUTS),
    [nodes],
  );
  const name = user?.nickName || user?.username;
  const roleText = user?.roleNames.join('、');

  return (
    <section style={{ padding: 24 }}>
      <h2 style={{ marginTop: 0 }}>{T.welcome}</h2>
      {name && (
        <p style={{ color: token.colorTextSecondary }}>
          {name}，您好！{roleText && <span>当前角色：{roleText}</span>}
        </p>
      )}

      {/* Figures need a session: without a token there is nothing to ask the server (and it would answer 401). */}
      {getToken() !== null && (
        <StatsBoundary>
          <DashboardStats />
        </StatsBoundary>
      )}
      {shortcuts.length > 0 && (
        <>
          <h3 style={{ marginTop: 24 }}>{T.shortcuts}</h3>
          <ul
            aria-label={T.shortcuts}
            style={{
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))',
              gap: 16,
              margin: 0,
              padding: 0,
              listStyle: 'none',
            }}
          >
            {shortcuts.map((node) => (
              <li key={node.path}>
                <Link
                  to={node.path}
                  style={{
                    display: 'flex',
                    alignItems: 'center',
                    gap: 10,
                    padding: '16px 18px',
                    borderRadius: token.borderRadiusLG,
                    background: token.colorBgContainer,
                    border: `1px solid ${token.colorBorderSecondary}`,
                    color: token.colorText,
                  }}
                >
                  <span style={{ fontSize: 22, color: token.colorPrimaryText }}>
                    <MenuIcon name={node.icon ?? node.parents.at(-1)?.icon ?? 'component'} />
                  </span>
                  <span>{node.title}</span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
