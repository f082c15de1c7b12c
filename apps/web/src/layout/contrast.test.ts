import { describe, expect, it } from 'vitest';
import { accessibleShade, contrast } from './contrast.ts';

describe('WCAG contrast and accessible shades', () => {
  it('measures contrast as WCAG 2.1 does', () => {
    expect(contrast('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#1890ff')).toBeCloseTo(3.24, 2);
    expect(contrast('#8c8c8c', '#ffffff')).toBeCloseTo(3.36, 2);
  });

  it('keeps a colour that reads, darkens one behind white text and lightens one on a dark page, no further than needed', () => {
    expect(accessibleShade('#6959CD', '#ffffff')).toBe('#6959CD');
    const behindWhite = accessibleShade('#1890ff', '#ffffff');
    expect(contrast(behindWhite, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(behindWhite, '#ffffff')).toBeLessThan(4.9);
    const onDark = accessibleShade('#212121', '#141414');
    expect(contrast(onDark, '#141414')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(onDark, '#141414')).toBeLessThan(4.9);
  });
});
