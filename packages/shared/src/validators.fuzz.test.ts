// 10,000 fast-check runs per shared validator in `npm run test:long`, 1,000 in `npm test` (issue 12, reliability):
// on any string (arbitrary unicode, lone surrogates, near-misses of valid values, valid values) the predicate never
// throws, the antd rule and the zod field agree with it (and answer the spec's message), and generators of
// known-good values are always accepted. Seeded, so a failure reproduces; see docs/reliability.md.
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { isUscc, USCC_ALPHABET, usccCheckChar } from './uscc.ts';
import {
  type FieldRule,
  isChinese,
  isEmail,
  isExternal,
  isHeadcount,
  isIP,
  isMobile,
  isPercent0To100,
  isPercent1To100,
  isPhone,
  isTaxNumber,
  MESSAGES,
  rules,
  type ValidatorName,
  zfield,
} from './validators.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `long` under `npm run test:long` (PIIBS_TEST_DEPTH, vitest.config.ts). */
    testDepth: 'fast' | 'long';
  }
}
const LONG = inject('testDepth') === 'long';
const RUNS = LONG ? 10_000 : 1_000;
const SEED = 20_260_412;

const digits = (min: number, max = min) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((a) => a.join(''));
const letters = (n: number) =>
  fc
    .array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'), {
      minLength: n,
      maxLength: n,
    })
    .map((a) => a.join(''));
const word = (alphabet: string, min = 1, max = 8) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
const alnum = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Valid USCC: 17 characters of the alphabet and the computed check character. */
const uscc = fc
  .array(fc.constantFrom(...USCC_ALPHABET), { minLength: 17, maxLength: 17 })
  .map((a) => a.join(''))
  .map((body) => body + usccCheckChar(body));

/** A decimal with up to six fractional digits (no redundant zeros in front). */
const decimal = (intMax: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: intMax }), fc.option(digits(1, 6), { nil: undefined }))
    .map(([i, f]) => (f === undefined ? String(i) : `${i}.${f}`));

/** Generators of values each validator must accept. */
const GOOD: Record<ValidatorName, fc.Arbitrary<string>> = {
  external: fc
    .tuple(fc.constantFrom('http:', 'https:', 'mailto:', 'tel:'), fc.string())
    .map(([scheme, rest]) => scheme + rest),
  email: fc
    .tuple(
      fc.array(word(`${alnum}_%+-`), { minLength: 1, maxLength: 3 }),
      fc.array(
        fc.tuple(
          word(alnum, 1, 1),
          fc.option(word(`${alnum}-`, 0, 6), { nil: '' }),
          fc.option(word(alnum, 1, 1), { nil: '' }),
        ),
        { minLength: 1, maxLength: 3 },
      ),
      word('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 2, 6),
    )
    // A label is a letter or digit, optionally hyphens inside, ending in a letter or digit.
    .map(([local, labels, tld]) => {
      const domain = labels.map(([a, mid, z]) => (z ? `${a}${mid}${z}` : a)).join('.');
      return `${local.join('.')}@${domain}.${tld}`;
    }),
  mobile: digits(10).map((d) => `1${d}`),
  ip: fc
    .array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 })
    .map((a) => a.join('.'))
    .chain((ip) => fc.constantFrom(ip, '')),
  phone: fc.oneof(
    fc.tuple(digits(2, 3), digits(7, 8)).map(([area, n]) => `0${area}-${n}`),
    fc.tuple(digits(3), digits(3), digits(4)).map(([a, b, c]) => `${a}-${b}-${c}`),
    fc.tuple(fc.constantFrom(...'3456789'), digits(9)).map(([second, rest]) => `1${second}${rest}`),
    fc.constant(''),
  ),
  chinese: fc
    .array(fc.integer({ min: 0x4e00, max: 0x9fff }), { minLength: 1, maxLength: 20 })
    .map((codes) => String.fromCharCode(...codes)),
  taxNumber: fc.oneof(
    fc.tuple(letters(3), digits(12)).map(([l, d]) => l + d),
    digits(18),
    uscc,
  ),
  uscc,
  percent1To100: fc.oneof(
    decimal(99).filter((v) => Number(v) > 0),
    fc.constantFrom('100', '100.0', '100.000000', '0.000001', '1'),
  ),
  percent0To100: fc.oneof(decimal(99), fc.constantFrom('0', '0.0', '100', '100.000000')),
  headcount: fc.integer({ min: 0, max: 999_999 }).map(String),
};

const PREDICATE: Record<ValidatorName, (value: string) => boolean> = {
  external: isExternal,
  email: isEmail,
  mobile: isMobile,
  ip: isIP,
  phone: isPhone,
  chinese: isChinese,
  taxNumber: isTaxNumber,
  uscc: isUscc,
  percent1To100: isPercent1To100,
  percent0To100: isPercent0To100,
  headcount: isHeadcount,
};

/** One character inserted, removed or replaced: near-misses that probe the edges of each pattern. */
const mutated = (base: fc.Arbitrary<string>) =>
  fc
    .tuple(
      base,
      fc.nat(),
      fc.constantFrom('insert', 'remove', 'replace'),
      fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
    )
    .map(([s, at, how, c]) => {
      const i = s.length ? at % (s.length + 1) : 0;
      if (how === 'insert') return s.slice(0, i) + c + s.slice(i);
      if (how === 'remove') return s.slice(0, i) + s.slice(i + 1);
      return s.slice(0, i) + c + s.slice(i + 1);
    });

/** Any string: arbitrary text (with lone surrogates and control characters), near-misses and valid values. */
const anyInput = (name: ValidatorName) =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.string({ unit: fc.constantFrom(...'0123456789.-@:+ '), maxLength: 24 }),
    mutated(GOOD[name]),
    GOOD[name],
  );

async function ruleError(rule: FieldRule, value: unknown): Promise<string | undefined> {
  try {
    await rule.validator({}, value);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const NAMES = Object.keys(PREDICATE) as ValidatorName[];

/** Checks the antd rule on many values at once (it answers a promise); the first disagreement, or null. */
async function ruleDisagreement(name: ValidatorName, checked: [string, boolean][]): Promise<string | null> {
  const verdicts = await Promise.all(checked.map(([value]) => ruleError(rules[name], value)));
  for (const [i, [value, ok]] of checked.entries()) {
    const expected = value === '' || ok ? undefined : MESSAGES[name];
    if (verdicts[i] !== expected)
      return `rules.${name} on ${JSON.stringify(value)}: ${verdicts[i] ?? 'accepted'}, expected ${expected ?? 'accepted'}`;
  }
  return null;
}

// Plain comparisons inside the properties (expect() is slow at thousands of runs); a failure throws with the value.
describe.each(NAMES)(`%s: ${RUNS.toLocaleString('en')} runs`, (name) => {
  const predicate = PREDICATE[name];
  const field = zfield[name];

  it('never throws; the antd rule and the zod field agree with the predicate on any string', async () => {
    const checked: [string, boolean][] = [];
    fc.assert(
      fc.property(anyInput(name), (value) => {
        let ok: unknown;
        try {
          ok = predicate(value);
        } catch (err) {
          throw new Error(`${name}(${JSON.stringify(value)}) threw: ${(err as Error).message}`);
        }
        if (typeof ok !== 'boolean')
          throw new Error(`${name}(${JSON.stringify(value)}) answered ${String(ok)}`);
        // zod: the same verdict and the spec's message.
        const parsed = field.safeParse(value);
        if (parsed.success !== ok) throw new Error(`zfield.${name} disagrees on ${JSON.stringify(value)}`);
        if (!parsed.success && parsed.error.issues[0]?.message !== MESSAGES[name])
          throw new Error(
            `zfield.${name} message on ${JSON.stringify(value)}: ${parsed.error.issues[0]?.message}`,
          );
        checked.push([value, ok]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(checked.length).toBeGreaterThanOrEqual(RUNS);
    expect(checked.some(([, ok]) => ok)).toBe(true);
    expect(checked.some(([, ok]) => !ok)).toBe(true);
    // antd: empty values are the `required` rule's business; anything else follows the predicate.
    expect(await ruleDisagreement(name, checked)).toBeNull();
  });

  it('accepts every known-good value (predicate, antd rule, zod field)', async () => {
    const checked: [string, boolean][] = [];
    fc.assert(
      fc.property(GOOD[name], (value) => {
        if (!predicate(value)) throw new Error(`${name} refused the good value ${JSON.stringify(value)}`);
        if (!field.safeParse(value).success)
          throw new Error(`zfield.${name} refused ${JSON.stringify(value)}`);
        checked.push([value, true]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(await ruleDisagreement(name, checked)).toBeNull();
  });
});

describe('known-bad values are refused', () => {
  const cases: [ValidatorName, fc.Arbitrary<string>][] = [
    [
      'mobile',
      fc.oneof(
        digits(10).map((d) => `1${d}`.slice(1)),
        digits(11).map((d) => `2${d.slice(1)}`),
        digits(12),
      ),
    ],
    ['ip', fc.integer({ min: 256, max: 99_999 }).map((n) => `1.2.3.${n}`)],
    ['ip', fc.integer({ min: 0, max: 99 }).map((n) => `01.2.3.${n}`)],
    ['headcount', fc.integer({ min: 1_000_000, max: Number.MAX_SAFE_INTEGER }).map(String)],
    ['headcount', fc.integer({ min: 1, max: 99_999 }).map((n) => `0${n}`)],
    ['percent1To100', fc.integer({ min: 101, max: 100_000 }).map(String)],
    ['percent1To100', fc.constantFrom('0', '0.0', '0.000000', '-1', '1e2', '1.1234567', '+5', ' 5')],
    [
      'percent0To100',
      fc.oneof(fc.integer({ min: 101, max: 100_000 }).map(String), fc.constantFrom('-0', '1.', '.5')),
    ],
    ['chinese', GOOD.chinese.map((s) => `${s}a`)],
    ['uscc', uscc.map((c) => c.toLowerCase()).filter((c) => c !== c.toUpperCase())],
    ['email', fc.constantFrom('a@b', 'a@@b.cn', '@b.cn', 'a.@b.cn', 'a@-b.cn', 'a b@c.cn', 'a@b.c')],
  ];
  it.each(cases.map(([n, a], i) => [`${n} #${i}`, n, a] as const))('%s', (_label, name, arb) => {
    fc.assert(
      fc.property(arb, (value) => {
        if (PREDICATE[name](value) || zfield[name].safeParse(value).success)
          throw new Error(`${name} accepted the bad value ${JSON.stringify(value)}`);
      }),
      { numRuns: LONG ? 1_000 : 200, seed: SEED },
    );
  });

  it('a USCC with any single character of its body changed is refused (the check character catches it)', () => {
    fc.assert(
      fc.property(uscc, fc.nat({ max: 16 }), fc.nat({ max: 29 }), (code, at, shift) => {
        const i = USCC_ALPHABET.indexOf(code[at]!);
        const other = USCC_ALPHABET[(i + 1 + shift) % USCC_ALPHABET.length]!;
        const changed = code.slice(0, at) + other + code.slice(at + 1);
        if (isUscc(changed)) throw new Error(`${changed} (from ${code}) passed the check`);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
