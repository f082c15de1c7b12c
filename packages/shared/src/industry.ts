// GB/T 4754-2017 国民经济行业分类: sections (门类, A–T) and their divisions (大类, two digits), as the
// industry_section / industry_division dictionaries hold them. Import it as `@piibs/shared/industry`.

/** GB/T 4754-2017: the divisions (大类, two digits) of each section (门类). */
export const INDUSTRY_SECTION_DIVISIONS: Readonly<Record<string, readonly [number, number]>> = Object.freeze({
  A: [1, 5],
  B: [6, 12],
  C: [13, 43],
  D: [44, 46],
  E: [47, 50],
  F: [51, 52],
  G: [53, 60],
  H: [61, 62],
  I: [63, 65],
  J: [66, 69],
  K: [70, 70],
  L: [71, 72],
  M: [73, 75],
  N: [76, 79],
  O: [80, 82],
  P: [83, 83],
  Q: [84, 85],
  R: [86, 90],
  S: [91, 96],
  T: [97, 97],
});

/** The section letter of a two-digit division ('34' → 'C'), or null. */
export function sectionOfDivision(division: string): string | null {
  if (!/^\d{2}$/.test(division)) return null;
  const n = Number(division);
  for (const [section, [from, to]] of Object.entries(INDUSTRY_SECTION_DIVISIONS)) {
    if (n >= from && n <= to) return section;
  }
  return null;
}
