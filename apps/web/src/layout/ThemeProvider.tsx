import type { Size } from '@piibs/shared/constants';
import { App as AntApp, ConfigProvider, type ThemeConfig, theme } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { type ReactNode, useMemo } from 'react';
import { useAppStore } from '@/stores/app.ts';
import { useSettingsStore } from '@/stores/settings.ts';

/** Spec §4 sizes as antd control heights (px) and font sizes. */
export const SIZE_TOKENS: Readonly<Record<Size, { controlHeight: number; fontSize: number }>> = Object.freeze(
  {
    default: { controlHeight: 40, fontSize: 14 },
    medium: { controlHeight: 36, fontSize: 14 },
    small: { controlHeight: 32, fontSize: 14 },
    mini: { controlHeight: 28, fontSize: 12 },
  },
);

/** The sidebar's dark palette (eladmin's), shared by the menu and the sidebar behind it. */
export const SIDEBAR_BG = '#304156';
const SUBMENU_BG = '#1f2d3d';

/** 大字模式 (适老化): body text of at least 18 px and controls at least 44 px high, whatever the size chosen. */
export const LARGE_TEXT_TOKENS = Object.freeze({ fontSize: 18, controlHeight: 44 });

export function themeConfig(colorPrimary: string, dark: boolean, size: Size, largeText = false): ThemeConfig {
  return {
    algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: { colorPrimary, ...(largeText ? LARGE_TEXT_TOKENS : SIZE_TOKENS[size]) },
    components: {
      Menu: {
        darkItemBg: SIDEBAR_BG,
        darkSubMenuItemBg: SUBMENU_BG,
        darkPopupBg: SIDEBAR_BG,
        collapsedWidth: 54,
        ...(largeText ? { itemHeight: 48 } : {}),
      },
    },
  };
}

/**
 * Theme colour, dark mode, 大字模式 and size from the settings as antd tokens: no stylesheet download, so a theme
 * change works on an intranet. Wrap the app in it (it brings the zh_CN locale and antd's App context for
 * message / modal); the layout wraps itself too, so the shell is themed either way.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const colorPrimary = useSettingsStore((s) => s.theme);
  const dark = useSettingsStore((s) => s.dark);
  const largeText = useSettingsStore((s) => s.largeText);
  const size = useAppStore((s) => s.size);
  const config = useMemo(
    () => themeConfig(colorPrimary, dark, size, largeText),
    [colorPrimary, dark, size, largeText],
  );
  return (
    <ConfigProvider locale={zhCN} theme={config}>
      <AntApp component={false}>{children}</AntApp>
    </ConfigProvider>
  );
}
