// How far the generated-input sweeps go. `npm test` runs a fast slice of them: every operation and every rule
// still exercised, fewer generated cases. `npm run test:long` (PIIBS_TEST_DEPTH=long) runs them in full.
export const LONG = process.env.PIIBS_TEST_DEPTH === 'long';

/** The fast slice's size, or the full one under `npm run test:long`. */
export const depth = (fast: number, long: number): number => (LONG ? long : fast);
