import { Outlet } from 'react-router';
import { AntdProviders } from '@/lib/antd-providers.tsx';

/** Pathless route around every page that uses antd; loaded lazily, so the login route never pulls it. */
export default function AntdRoot() {
  return (
    <AntdProviders>
      <Outlet />
    </AntdProviders>
  );
}
