import { PREDEFINED_THEME_COLORS } from '@piibs/shared/constants';
import { render } from '@testing-library/react';
import { theme } from 'antd';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { contrast } from './contrast.ts';
import {
  computePresetTagTokens,
  computeSeedShade,
  PRESET_COLORS,
  SIZE_TOKENS,
  seedKey,
  seedRequests,
  ThemeProvider,
  themeConfig,
} from './ThemeProvider.tsx';
import { PRECOMPUTED_PRESET_TAGS, PRECOMPUTED_SEEDS } from './theme-seeds.ts';

describe('theme, size and dark mode as antd tokens', () => {
  it('maps the sizes default / medium / small / mini to control heights 40 / 36 / 32 / 28', () => {
    expect(
      Object.fromEntries(Object.entries(SIZE_TOKENS).map(([size, t]) => [size, t.controlHeight])),
    ).toEqual({
      default: 40,
      medium: 36,
      small: 32,
      mini: 28,
    });
    expect(themeConfig('#1890ff', false, 'mini').token?.controlHeight).toBe(28);
  });

  it('uses the theme colour as the primary colour, darkened only as far as white text on it needs (4.5:1)', () => {
    // #6959CD already reads white text at 5.4:1 and stays as it is; #11a983 (3.0:1) gets a darker shade.
    expect(themeConfig('#6959CD', false, 'small').token?.colorPrimary).toBe('#6959CD');
    const green = themeConfig('#11a983', false, 'small').token?.colorPrimary as string;
    expect(green).not.toBe('#11a983');
    expect(contrast(green, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(green, '#ffffff')).toBeLessThan(5);
  });

  it('every theme colour, light and dark: white text on the primary colour, links and errors on the page, grey texts all reach 4.5:1', () => {
    for (const color of PREDEFINED_THEME_COLORS) {
      for (const dark of [false, true]) {
        // The tokens the components get: what the (dark) algorithm derives from the seeds, with the overrides.
        const t = theme.getDesignToken(themeConfig(color, dark, 'default'));
        const page = dark ? '#141414' : '#ffffff';
        expect(contrast(t.colorPrimary, '#ffffff'), `${color} behind white text`).toBeGreaterThanOrEqual(4.5);
        for (const text of [
          t.colorLink,
          t.colorPrimaryText,
          t.colorError,
          t.colorErrorText,
          t.colorSuccessText,
        ])
          expect(contrast(text, page), `${text} on ${page} (${color})`).toBeGreaterThanOrEqual(4.5);
      }
    }
    // Grey texts: 60 % black on white is #666 (5.7:1); the stock placeholder (25 %) was 1.8:1.
    expect(themeConfig('#1890ff', false, 'default').token?.colorTextPlaceholder).toBe('rgba(0, 0, 0, 0.6)');
  });

  it('the predefined theme colours, light and dark, need no token derivation on first paint: their readable seeds are precomputed, and still what antd derives', () => {
    const expected: Record<string, string> = {};
    for (const color of PREDEFINED_THEME_COLORS)
      for (const dark of [false, true])
        for (const r of seedRequests(color, dark)) expected[seedKey(r)] = computeSeedShade(r);
    // On a difference, theme-seeds.ts takes the received table.
    expect(PRECOMPUTED_SEEDS).toEqual(expected);
  });

  it('the preset tags need no token derivation on first paint either: their readable shades are precomputed', () => {
    // On a difference, theme-seeds.ts takes the received table.
    expect(PRECOMPUTED_PRESET_TAGS).toEqual({
      light: computePresetTagTokens(false),
      dark: computePresetTagTokens(true),
    });
  });

  /** A status tag's text colour and its tint, for each status. */
  const statusTags = (t: ReturnType<typeof theme.getDesignToken>) =>
    [
      [t.colorSuccess, t.colorSuccessBg],
      [t.colorWarning, t.colorWarningBg],
      [t.colorError, t.colorErrorBg],
      [t.colorInfo, t.colorInfoBg],
    ] as const;

  it('status tags in light mode: their text reads at 4.5:1 on their pale tint (not on a grey one)', () => {
    const t = theme.getDesignToken(themeConfig('#1890ff', false, 'default'));
    for (const [text, bg] of statusTags(t))
      expect(contrast(text, bg), `${text} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    expect(t.colorSuccessBg).toBe('#f6ffed');
  });

  it('status tags in dark mode: their text reads at 4.5:1 on their dark tint (the processing tag was 4.1:1)', () => {
    for (const color of PREDEFINED_THEME_COLORS) {
      const t = theme.getDesignToken(themeConfig(color, true, 'default'));
      for (const [text, bg] of statusTags(t))
        expect(contrast(text, bg), `${text} on ${bg} (${color})`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('preset tags (gold, green, orange, purple …), light and dark: their text reads at 4.5:1 on their tint', () => {
    for (const dark of [false, true]) {
      const config = themeConfig('#1890ff', dark, 'default');
      const t = theme.getDesignToken(config);
      const tag = config.components?.Tag as Record<string, string>;
      for (const key of PRESET_COLORS)
        expect(
          contrast(tag[`${key}7`]!, t[`${key}1`]),
          `${key} (${dark ? 'dark' : 'light'})`,
        ).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('switches to the dark algorithm in dark mode', () => {
    expect(themeConfig('#1890ff', true, 'small').algorithm).toBe(theme.darkAlgorithm);
    expect(themeConfig('#1890ff', false, 'small').algorithm).toBe(theme.defaultAlgorithm);
  });

  it('大字模式 (适老化): text of 18 px and controls of 44 px whatever the size, menu items 48 px high', () => {
    for (const size of ['default', 'small', 'mini'] as const) {
      const config = themeConfig('#1890ff', false, size, true);
      expect(config.token).toMatchObject({ fontSize: 18, controlHeight: 44 });
      expect(config.components?.Menu?.itemHeight).toBe(48);
    }
    expect(themeConfig('#1890ff', false, 'small').components?.Menu?.itemHeight).toBeUndefined();
  });

  it('a ThemeProvider inside another adds nothing: one App context, one design token for the page', () => {
    const { container } = render(
      createElement(
        ThemeProvider,
        null,
        createElement(ThemeProvider, null, createElement('p', null, '内容')),
      ),
    );
    expect(container.querySelectorAll('.ant-app')).toHaveLength(1);
    expect(container).toHaveTextContent('内容');
  });
});
