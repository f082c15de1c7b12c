import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { detectDevice, useAppStore } from '@/stores/app.ts';

/**
 * Spec §4 device rules: mobile when body width minus 1 is under 992 px; going mobile closes the sidebar
 * without animation; a route change on mobile closes an open sidebar.
 */
export function useDeviceMode(): void {
  const { pathname } = useLocation();

  // A passive effect, not a layout effect: the store measured the device before the shell existed (stores/app.ts),
  // so this check is no longer what decides the first render, and changes nothing when nothing moved.
  useEffect(() => {
    const apply = () => {
      const device = detectDevice();
      const app = useAppStore.getState();
      app.toggleDevice(device);
      if (device === 'mobile') app.closeSideBar(true);
    };
    apply();
    const onResize = () => {
      if (!document.hidden) apply();
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const { device, sidebar, closeSideBar } = useAppStore.getState();
    if (device === 'mobile' && sidebar.opened) closeSideBar(false);
  }, [pathname]);
}
