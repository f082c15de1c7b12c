import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUscc, USCC_ALPHABET, usccCheckChar, usccSerial, withUsccCheck } from './uscc.ts';

const alphabetChar = fc.constantFrom(...USCC_ALPHABET.split(''));
const body17 = fc.array(alphabetChar, { minLength: 17, maxLength: 17 }).map((chars) => chars.join(''));
const validCode = body17.map((body) => body + usccCheckChar(body));

describe('GB 32100 unified social credit code: 18 characters of 0-9A-HJ-NPQRTUWXY, weighted mod-31 check character', () => {
  it('accepts published codes whose check character was verified by hand', () => {
    // Commonly cited example: weighted sum 1640, 1640 % 31 = 28, (31 - 28) % 31 = 3 → '3'.
    expect(usccCheckChar('91350100M000100Y4')).toBe('3');
    expect(isUscc('91350100M000100Y43')).toBe(true);
    // Shenzhen Tencent Computer Systems Co., Ltd., from its public business licence.
    expect(isUscc('91440300708461136T')).toBe(true);
  });

  it("rejects the brief's untrusted example 91110000100000589B: the algorithm yields A, not B", () => {
    expect(usccCheckChar('91110000100000589')).toBe('A');
    expect(isUscc('91110000100000589B')).toBe(false);
  });

  it.each([
    ['', 'empty'],
    ['91350100M000100Y4', '17 characters'],
    ['91350100M000100Y433', '19 characters'],
    ['91350100m000100Y43', 'lowercase letter'],
    ['91350100I000100Y43', 'I is not in the alphabet'],
    ['91350100O000100Y43', 'O is not in the alphabet'],
    ['91350100M000100Y4Z', 'Z is not in the alphabet'],
    ['91350100M000100Y42', 'wrong check character'],
    [' 91350100M000100Y4', 'leading space'],
  ])('rejects %j (%s)', (code) => {
    expect(isUscc(code)).toBe(false);
  });

  it('usccCheckChar returns null unless given exactly 17 alphabet characters', () => {
    expect(usccCheckChar('')).toBeNull();
    expect(usccCheckChar('9135010000000000')).toBeNull();
    expect(usccCheckChar('913501000000000000')).toBeNull();
    expect(usccCheckChar('9135010000000000S')).toBeNull();
  });

  it('property: any code completed with usccCheckChar passes', () => {
    fc.assert(fc.property(validCode, (code) => isUscc(code)));
  });

  it('property: replacing the check character with any other alphabet character fails', () => {
    fc.assert(
      fc.property(validCode, alphabetChar, (code, replacement) => {
        fc.pre(replacement !== code.charAt(17));
        return !isUscc(code.slice(0, 17) + replacement);
      }),
    );
  });

  it('property: any single-character substitution in the first 17 characters is detected', () => {
    fc.assert(
      fc.property(validCode, fc.integer({ min: 0, max: 16 }), alphabetChar, (code, index, replacement) => {
        fc.pre(replacement !== code.charAt(index));
        return !isUscc(code.slice(0, index) + replacement + code.slice(index + 1));
      }),
    );
  });
});

describe('making codes (demo and volume data)', () => {
  it('withUsccCheck completes a body, and refuses one with a letter GB 32100 does not allow', () => {
    expect(withUsccCheck('91350100M000100Y4')).toBe('91350100M000100Y43');
    // The demo contractor's old body: Z and S are not in the alphabet, and "null" was printed on its e-policy.
    expect(() => withUsccCheck('91321102MA1JZ7SG3')).toThrow('not a GB 32100 code body');
  });

  it('usccSerial writes any serial in the alphabet, so each made code is valid and distinct', () => {
    expect(usccSerial(0, 7)).toBe('0000000');
    expect(usccSerial(31, 7)).toBe('0000010');
    fc.assert(
      fc.property(fc.nat(31 ** 7 - 1), fc.nat(31 ** 7 - 1), (a, b) => {
        const code = withUsccCheck(`91321100MA${usccSerial(a, 7)}`);
        expect(isUscc(code)).toBe(true);
        expect(usccSerial(a, 7) === usccSerial(b, 7)).toBe(a === b);
      }),
    );
  });
});
