// WCAG 2.1 contrast (1.4.3, AA: 4.5:1 for text) between two opaque colours, and the nearest shade of a colour that
// reaches it: a theme colour keeps its hue and its stored value, and is darkened (behind white text) or lightened
// (as text on a dark page) only as far as the text needs.

/** AA contrast for normal text. */
export const AA_TEXT = 4.5;

function channels(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.slice(0, 6);
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours (#rgb or #rrggbb), 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const hex2 = (n: number) => Math.round(n).toString(16).padStart(2, '0');

/** Whether a colour is light (text on it reads better in black). */
export const isLight = (color: string) => luminance(color) > 0.18;

/** The colour mixed `t` (0 to 1) of the way towards black or white. */
export function mix(color: string, towards: 'black' | 'white', t: number): string {
  const end = towards === 'black' ? 0 : 255;
  return `#${channels(color)
    .map((c) => hex2(c + (end - c) * t))
    .join('')}`;
}

/**
 * The first of the colour's shades, from itself towards black or white in steps of 2 %, that `passes`; the
 * far end when none does.
 */
export function firstShade(
  color: string,
  towards: 'black' | 'white',
  passes: (shade: string) => boolean,
): string {
  for (let step = 0; step <= 50; step += 1) {
    const shade = step === 0 ? color : mix(color, towards, step / 50);
    if (passes(shade)) return shade;
  }
  return towards === 'black' ? '#000000' : '#ffffff';
}

/**
 * The colour itself when it already reaches `ratio` against `against`; else the first of its mixes towards black
 * (against a light colour) or white (against a dark one), in steps of 2 %, that does.
 */
export function accessibleShade(color: string, against: string, ratio = AA_TEXT): string {
  return firstShade(
    color,
    isLight(against) ? 'black' : 'white',
    (shade) => contrast(shade, against) >= ratio,
  );
}
