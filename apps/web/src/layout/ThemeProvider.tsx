import type { Size } from '@piibs/shared/constants';
import type { ThemeConfig } from 'antd';
import ConfigProvider from 'antd/es/config-provider';
import theme from 'antd/es/theme';
import zhCN from 'antd/locale/zh_CN';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { LazyApp } from '@/lib/app-apis.tsx';
import { useAppStore } from '@/stores/app.ts';
import { useSettingsStore } from '@/stores/settings.ts';
import { AA_TEXT, accessibleShade, contrast, firstShade, isLight } from './contrast.ts';
import { PRECOMPUTED_PRESET_TAGS, PRECOMPUTED_SEEDS } from './theme-seeds.ts';

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

/** antd's page colours behind text: the light theme's white, the dark algorithm's container. */
const LIGHT_BG = '#ffffff';
const DARK_BG = '#141414';
/** antd's error red (#ff4d4f, 3.3:1 on white). */
const ERROR_RED = '#ff4d4f';
const WHITE = '#ffffff';
/** A status colour's contrast on white that leaves 4.5:1 on its pale tint (a status tag's background). */
const STATUS_ON_WHITE = 5.2;

type SeedColor = 'colorPrimary' | 'colorLink' | 'colorError' | 'colorSuccess' | 'colorWarning' | 'colorInfo';

/** One seed colour to make readable: `color` as `key`, against `against` at `ratio` (and on its own tint). */
export interface SeedRequest {
  key: SeedColor;
  color: string;
  dark: boolean;
  against: string;
  ratio: number;
  onOwnTint: boolean;
}

export const seedKey = (r: SeedRequest) =>
  `${r.key}:${r.color}:${r.dark}:${r.against}:${r.ratio}:${r.onOwnTint}`;

/**
 * The seed for one of antd's seed colours whose derived colour (what the algorithm makes of it: the dark
 * algorithm dulls every seed towards its background) reaches `ratio` against `against`: the colour itself when it
 * does, else its nearest shade away from `against` that does. Each shade tried derives a whole design token, so
 * the predefined theme colours' answers are precomputed (theme-seeds.ts).
 */
export function computeSeedShade(r: SeedRequest): string {
  const algorithm = r.dark ? theme.darkAlgorithm : theme.defaultAlgorithm;
  return firstShade(r.color, isLight(r.against) ? 'black' : 'white', (shade) => {
    const token = theme.getDesignToken({ algorithm, token: { [r.key]: shade } });
    const derived = token[r.key];
    // A status colour is also text on its own tint (colorInfoBg …), which the seed moves too.
    const tint = token[`${r.key}Bg` as `${SeedColor}Bg` & keyof typeof token] as string | undefined;
    return (
      contrast(derived, r.against) >= r.ratio && (!r.onOwnTint || !tint || contrast(derived, tint) >= AA_TEXT)
    );
  });
}

const seedCache = new Map<string, string>(Object.entries(PRECOMPUTED_SEEDS));

function seedShade(r: SeedRequest): string {
  const key = seedKey(r);
  let seed = seedCache.get(key);
  if (seed === undefined) {
    seed = computeSeedShade(r);
    seedCache.set(key, seed);
  }
  return seed;
}

/** The seed colours accessibleTokens makes readable for a theme colour, light or dark. */
export function seedRequests(themeColor: string, dark: boolean): SeedRequest[] {
  const page = dark ? DARK_BG : LIGHT_BG;
  const seed = (key: SeedColor, color: string, against: string, ratio = AA_TEXT, onOwnTint = false) => ({
    key,
    color,
    dark,
    against,
    ratio,
    onOwnTint,
  });
  // Status colours are text on their own pale tint too (status tags: 5:1 on white leaves 4.5:1 on the tint).
  // In dark mode the tint is derived from the seed (checked as such); in light mode it is antd's pale one.
  const status = (key: SeedColor, color: string) =>
    seed(key, color, page, dark ? AA_TEXT : STATUS_ON_WHITE, dark);
  return [
    seed('colorPrimary', themeColor, WHITE),
    seed('colorLink', themeColor, page),
    status('colorError', ERROR_RED),
    status('colorSuccess', '#52c41a'),
    status('colorWarning', '#faad14'),
    status('colorInfo', '#1677ff'),
  ];
}

/**
 * Colours that reach WCAG 2.1 AA (4.5:1) as text, whatever the theme colour: the theme colour (as the setting
 * stores it) darkened where it is a background behind white text (selected menu item, primary button, active tag)
 * and, in dark mode, lightened where it is text on the dark page (links, the active tab); grey texts
 * (placeholders, descriptions, the breadcrumb), the error red and the status texts at readable shades.
 */
export function accessibleTokens(themeColor: string, dark: boolean): ThemeConfig['token'] {
  const page = dark ? DARK_BG : LIGHT_BG;
  const asText = accessibleShade(themeColor, page);
  const grey = dark ? 'rgba(255, 255, 255, 0.6)' : 'rgba(0, 0, 0, 0.6)';
  const statusText = (color: string) => accessibleShade(color, page);
  return {
    ...Object.fromEntries(seedRequests(themeColor, dark).map((r) => [r.key, seedShade(r)])),
    colorPrimaryText: asText,
    colorPrimaryTextHover: asText,
    colorPrimaryTextActive: asText,
    colorErrorText: statusText(ERROR_RED),
    colorSuccessText: statusText('#52c41a'),
    colorWarningText: statusText('#faad14'),
    colorTextPlaceholder: grey,
    colorTextDescription: grey,
    colorTextTertiary: grey,
    // The darker status seeds would tint their backgrounds grey (a status tag read 2.7:1 on it): in light mode the
    // tags keep antd's pale tints, on which the status texts read at 4.5:1.
    ...(dark ? {} : PALE_STATUS_BACKGROUNDS),
  };
}

/** antd's own light status backgrounds and borders. */
const PALE_STATUS_BACKGROUNDS = {
  colorSuccessBg: '#f6ffed',
  colorSuccessBorder: '#b7eb8f',
  colorWarningBg: '#fffbe6',
  colorWarningBorder: '#ffe58f',
  colorErrorBg: '#fff2f0',
  colorErrorBorder: '#ffccc7',
  colorInfoBg: '#e6f4ff',
  colorInfoBorder: '#91caff',
} as const;

/** antd's preset colours (a tag's `color="gold"` …). */
export const PRESET_COLORS = [
  'blue',
  'purple',
  'cyan',
  'green',
  'magenta',
  'pink',
  'red',
  'orange',
  'yellow',
  'volcano',
  'geekblue',
  'lime',
  'gold',
] as const;
/**
 * A preset tag writes its colour's shade 7 on its shade 1 (gold 2.8:1, green 3.4:1 in light mode; purple 3.4:1
 * in dark mode): for tags, each shade 7 becomes its nearest shade reading at 4.5:1 on the shade 1, so any preset
 * colour may be used for a tag and read. (Tags only: elsewhere the presets keep antd's values.) The presets do
 * not follow the theme colour, so the app reads them from theme-seeds.ts; this derives them (a whole design
 * token) for its test.
 */
export function computePresetTagTokens(dark: boolean): Record<string, string> {
  const t = theme.getDesignToken({ algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm });
  return Object.fromEntries(
    PRESET_COLORS.map((key) => [`${key}7`, accessibleShade(t[`${key}7`], t[`${key}1`])]),
  );
}

/** Components that colour text with the primary colour: the readable shade of it instead. */
function textComponents(themeColor: string, dark: boolean): ThemeConfig['components'] {
  const asText = accessibleShade(themeColor, dark ? DARK_BG : LIGHT_BG);
  return {
    Tabs: { itemSelectedColor: asText, itemActiveColor: asText, itemHoverColor: asText },
    Tag: PRECOMPUTED_PRESET_TAGS[dark ? 'dark' : 'light'],
  };
}

export function themeConfig(colorPrimary: string, dark: boolean, size: Size, largeText = false): ThemeConfig {
  return {
    algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      ...accessibleTokens(colorPrimary, dark),
      ...(largeText ? LARGE_TEXT_TOKENS : SIZE_TOKENS[size]),
    },
    components: {
      ...textComponents(colorPrimary, dark),
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

/** Set by the outermost ThemeProvider: one inside it adds nothing. */
const Themed = createContext(false);

/**
 * Theme colour, dark mode, 大字模式 and size from the settings as antd tokens: no stylesheet download, so a theme
 * change works on an intranet. Wrap the app in it (it brings the zh_CN locale and antd's App context for
 * message / modal); the layout wraps itself too, so the shell is themed either way. Inside another
 * ThemeProvider it renders its children alone: a second ConfigProvider would work out the same design token
 * again, and a second App context would hold its own messages.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return useContext(Themed) ? children : <OuterThemeProvider>{children}</OuterThemeProvider>;
}

function OuterThemeProvider({ children }: { children: ReactNode }) {
  const colorPrimary = useSettingsStore((s) => s.theme);
  const dark = useSettingsStore((s) => s.dark);
  const largeText = useSettingsStore((s) => s.largeText);
  const size = useAppStore((s) => s.size);
  const config = useMemo(
    () => themeConfig(colorPrimary, dark, size, largeText),
    [colorPrimary, dark, size, largeText],
  );
  return (
    <Themed value={true}>
      <ConfigProvider locale={zhCN} theme={config}>
        <LazyApp>{children}</LazyApp>
      </ConfigProvider>
    </Themed>
  );
}
