import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { SIZE_TOKENS, themeConfig } from './ThemeProvider.tsx';

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

  it('uses the theme colour as the primary colour', () => {
    expect(themeConfig('#11a983', false, 'small').token?.colorPrimary).toBe('#11a983');
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
});
