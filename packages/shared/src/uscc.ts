// GB 32100-2015 unified social credit code (统一社会信用代码).
// The alphabet omits I, O, S, V and Z so they cannot be confused with digits.
export const USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';

// Weight of position i is 3^i mod 31; 3 has order 30 mod 31, so the 17 weights are distinct
// and any single-character substitution or transposition within the first 17 is detected.
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28] as const;

const BODY = /^[0-9A-HJ-NPQRTUWXY]{17}$/;

/** Check character for the first 17 characters, or null when they are not 17 characters of the alphabet. */
export function usccCheckChar(first17: string): string | null {
  if (!BODY.test(first17)) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    sum += USCC_ALPHABET.indexOf(first17.charAt(i)) * WEIGHTS[i]!;
  }
  return USCC_ALPHABET.charAt((31 - (sum % 31)) % 31);
}

/** True for an 18-character code whose last character matches the GB 32100 check. Uppercase only, as issued. */
export function isUscc(code: string): boolean {
  if (code.length !== 18) return false;
  const check = usccCheckChar(code.slice(0, 17));
  return check !== null && check === code.charAt(17);
}

/** The full code of a 17-character body (the check character added); throws for a body outside the alphabet. */
export function withUsccCheck(body17: string): string {
  const check = usccCheckChar(body17);
  if (check === null) throw new Error(`not a GB 32100 code body: ${body17}`);
  return `${body17}${check}`;
}

/** `n` (≥ 0) written in the code's alphabet, `width` characters wide: a serial that is always a valid body part. */
export function usccSerial(n: number, width: number): string {
  let text = '';
  let rest = Math.floor(n);
  do {
    text = USCC_ALPHABET.charAt(rest % USCC_ALPHABET.length) + text;
    rest = Math.floor(rest / USCC_ALPHABET.length);
  } while (rest > 0);
  return text.padStart(width, '0');
}
