import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cnpjCheckDigits,
  cnpjProblem,
  cnpjSearchFragment,
  formatCnpj,
  isValidCnpj,
  normalizeCnpj,
  type CnpjProblem,
} from './cnpj';

const RUNS = { numRuns: 1000 };
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Independent check-digit oracle: weights run 2..9 from the rightmost character leftwards, cycling
 * (the textbook definition), rather than the fixed arrays the implementation uses; a character is
 * worth its position in '0'…'9', then ':;<=>?@' (7 codes unused by a CNPJ), then 'A'…'Z' — the ASCII
 * table from '0', written out here instead of computed from char codes.
 */
const VALUE_ORDER = '0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ';
function oracleDigit(chars: readonly string[]): number {
  let sum = 0;
  chars
    .slice()
    .reverse()
    .forEach((c, i) => {
      sum += VALUE_ORDER.indexOf(c) * ((i % 8) + 2);
    });
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

function oracleCnpj(base: readonly string[]): string {
  const first = String(oracleDigit(base));
  const second = String(oracleDigit([...base, first]));
  return [...base, first, second].join('');
}

const digit = fc.constantFrom(...'0123456789'.split(''));
const alphanumeric = fc.constantFrom(...ALPHANUMERIC.split(''));
const numericBase = fc.array(digit, { minLength: 12, maxLength: 12 });
const alphanumericBase = fc.array(alphanumeric, { minLength: 12, maxLength: 12 });
const sameBase = (cnpj: string): boolean => /^(.)\1*$/.test(cnpj.slice(0, 12));
const mask = (bare: string) =>
  `${bare.slice(0, 2)}.${bare.slice(2, 5)}.${bare.slice(5, 8)}/${bare.slice(8, 12)}-${bare.slice(12)}`;

describe('isValidCnpj and cnpjProblem — examples', () => {
  it.each<[string, CnpjProblem | null]>([
    // The example of IN RFB 2.229/2024, bare and masked, in any case.
    ['12.ABC.345/01DE-35', null],
    ['12ABC34501DE35', null],
    ['12abc34501de35', null],
    ['12.abc.345/01De-35', null],
    ['  12.ABC.345/01DE-35 ', null],
    // Worked by hand: A,B,1,2,C,D,3,4,0,0,0,1 are worth 17,18,1,2,19,20,3,4,0,0,0,1;
    // × 5,4,3,2,9,8,7,6,5,4,3,2 → 85+72+3+4+171+160+21+24+0+0+0+2 = 542 = 11·49 + 3 → 11 − 3 = 8;
    // then × 6,5,4,3,2,9,8,7,6,5,4,3,2 over the base and 8 → 102+90+4+6+38+180+24+28+0+0+0+3+16 = 491
    // = 11·44 + 7 → 11 − 7 = 4.
    ['AB.12C.D34/0001-84', null],
    // Numeric CNPJs keep validating (the repository's tests and seed).
    ['11.222.333/0001-81', null],
    ['11222333000181', null],
    ['00.000.000/0001-91', null], // Banco do Brasil
    ['33.000.167/0001-01', null], // Petrobras
    ['11.444.777/0001-61', null],
    ['45.723.174/0001-10', null],
    // Wrong check digits.
    ['12.ABC.345/01DE-36', 'checkDigits'],
    ['12.ABC.345/01DE-53', 'checkDigits'],
    ['12ABC34501DF35', 'checkDigits'], // one letter of the base changed
    ['AB.12C.D34/0001-48', 'checkDigits'],
    ['11.222.333/0001-82', 'checkDigits'],
    ['11.222.333/0001-18', 'checkDigits'],
    // The check digits are numbers.
    ['12.ABC.345/01DE-3A', 'checkDigitLetter'],
    ['12ABC34501DEAB', 'checkDigitLetter'],
    ['12abc34501de3f', 'checkDigitLetter'],
    // Half-masked, mask marks out of place, other characters.
    ['12.ABC.345/01DE35', 'format'],
    ['12ABC.345/01DE-35', 'format'],
    ['12.ABC.34501DE-35', 'format'],
    ['12-ABC-345/01DE.35', 'format'],
    ['11.222.333/000181', 'format'],
    ['CNPJ 12ABC34501DE35', 'format'],
    ['12 ABC 345 01DE 35', 'format'],
    ['12.ÀBC.345/01DE-35', 'format'],
    ['12ſBC34501DE35', 'format'], // 'ſ'.toUpperCase() is 'S': a non-ASCII letter never counts
    ['１１２２２３３３０００１８１', 'format'], // full-width digits
    // Not 14 letters and digits.
    ['12ABC34501DE3', 'length'],
    ['12ABC34501DE355', 'length'],
    ['1122233300018', 'length'],
    ['', 'length'],
    // One character repeated in the base: passes the modulus, never issued.
    ['00000000000000', 'repeated'],
    ['00.000.000/0000-00', 'repeated'],
    ['11111111111180', 'repeated'], // 1 × (5+4+3+2+9+8+7+6+5+4+3+2 = 58) = 11·5 + 3 → 8; 62 + 8·2 = 78 = 11·7 + 1 → 0
    ['AAAAAAAAAAAA45', 'repeated'], // 17 × 58 = 986 = 11·89 + 7 → 4; 17 × 62 + 4·2 = 1062 = 11·96 + 6 → 5
    ['11111111111111', 'repeated'], // said first, whatever the check digits
  ])('%j → %s', (value, problem) => {
    expect(cnpjProblem(value)).toBe(problem);
    expect(isValidCnpj(value)).toBe(problem === null);
  });

  it('inherits mod-11 blind spot: a CNPJ ending in 00 can survive a one-character change', () => {
    // Remainders 0 and 1 both give check digit 0, so when both check digits are 0
    // some single-character edits go unnoticed. Found by brute force; kept as a fact.
    expect(isValidCnpj('69578058341700')).toBe(true);
    expect(isValidCnpj('89578058341700')).toBe(true);
  });
});

describe('cnpjCheckDigits, normalizeCnpj and formatCnpj — examples', () => {
  it.each<[string, string]>([
    ['12ABC34501DE', '35'],
    ['12abc34501de', '35'],
    ['AB12CD340001', '84'],
    ['112223330001', '81'],
    ['000000000001', '91'],
    ['330001670001', '01'],
  ])('%s → %s', (base, digits) => {
    expect(cnpjCheckDigits(base)).toBe(digits);
  });

  it('rejects a base that is not 12 letters or digits', () => {
    expect(() => cnpjCheckDigits('11222333000')).toThrow(RangeError);
    expect(() => cnpjCheckDigits('1122233300012')).toThrow(RangeError);
    expect(() => cnpjCheckDigits('12.ABC.345/0')).toThrow(RangeError);
    expect(() => cnpjCheckDigits('12ÀBC34501DE')).toThrow(RangeError);
  });

  it.each<[string, string]>([
    ['12ABC34501DE35', '12.ABC.345/01DE-35'],
    ['12abc34501de35', '12.ABC.345/01DE-35'],
    ['12.abc.345/01de-35', '12.ABC.345/01DE-35'],
    ['11222333000181', '11.222.333/0001-81'],
    ['11.222.333/0001-81', '11.222.333/0001-81'],
    ['1122233300018199', '11.222.333/0001-81'],
    ['', ''],
    ['1', '1'],
    ['12a', '12.A'],
    ['112', '11.2'],
    ['11222', '11.222'],
    ['112223', '11.222.3'],
    ['112223330', '11.222.333/0'],
    ['1122233300018', '11.222.333/0001-8'],
    ['ab11c', 'AB.11C'],
    // A letter where a check digit goes is dropped, as typed or pasted.
    ['12ABC34501DEX', '12.ABC.345/01DE'],
    ['12ABC34501DE3X5', '12.ABC.345/01DE-35'],
    ['12.ÀBC', '12.BC'],
  ])('formatCnpj(%j) → %j', (input, expected) => {
    expect(formatCnpj(input)).toBe(expected);
  });

  it('normalizeCnpj keeps only ASCII letters, upper-cased, and digits', () => {
    expect(normalizeCnpj(' 11.222.333/0001-81 ')).toBe('11222333000181');
    expect(normalizeCnpj('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(normalizeCnpj('ſ-ı-é')).toBe('');
  });
});

describe('cnpjSearchFragment — what reads as part of a CNPJ', () => {
  it.each<[string, string]>([
    ['12ABC', '12ABC'],
    ['12.ABC', '12.ABC'],
    ['12.abc', '12.ABC'],
    ['abc.345', 'ABC.345'],
    ['ABC345/01', 'ABC345/01'],
    ['abc345', 'ABC345'],
    ['01de-35', '01DE-35'],
    ['12.abc.345/01de-35', '12.ABC.345/01DE-35'],
    ['12abc34501de35', '12ABC34501DE35'],
    ['4567', '4567'],
    ['.123.', '.123.'],
    ['0001-81', '0001-81'],
    ['11 222', '11222'],
    [' 11.222.333 ', '11.222.333'],
    ['12/ABC', '12/ABC'],
    ['ABC.DEF', 'ABC.DEF'], // no digit, but a '.' no tenant name holds
    // A name with a digit may be the end of a base and a check digit: searched both ways.
    ['loja-2', 'LOJA-2'],
  ])('%j reads as %j', (search, fragment) => {
    expect(cnpjSearchFragment(search)).toBe(fragment);
  });

  it.each([
    'farmacia', // letters alone: a name
    'GAMA',
    'farmacia-central',
    'busca-alfa-00', // two hyphens: the mask has one
    'boa-vista-12',
    'alfa-00 10.', // runs past the mask's end wherever it starts
    '12ABC34501DE35X', // 15 characters
    '123456789012345',
    '12ABC34501DEX', // a letter in a check-digit place
    '12.ABC.345/01DEX',
    '12..ABC', // two marks in a row
    '-',
    '.',
    '',
    '%',
    'busca_alfa',
    '12ÀBC',
  ])('%j does not', (search) => {
    expect(cnpjSearchFragment(search)).toBeNull();
  });
});

describe('CNPJ — properties', () => {
  it('validates every CNPJ the oracle builds, numeric or alphanumeric, bare, masked, lower-case (unless one character repeats in the base)', () => {
    fc.assert(
      fc.property(fc.oneof(numericBase, alphanumericBase), (base) => {
        const cnpj = oracleCnpj(base);
        expect(cnpjCheckDigits(cnpj.slice(0, 12))).toBe(cnpj.slice(12));
        expect(isValidCnpj(cnpj)).toBe(!sameBase(cnpj));
        expect(isValidCnpj(cnpj.toLowerCase())).toBe(!sameBase(cnpj));
        expect(formatCnpj(cnpj)).toBe(mask(cnpj));
        expect(formatCnpj(cnpj.toLowerCase())).toBe(mask(cnpj));
        expect(isValidCnpj(formatCnpj(cnpj))).toBe(!sameBase(cnpj));
      }),
      RUNS,
    );
  });

  it('invalidates it when any one character changes (check digits always; base characters unless 11 apart in value or it ends in 00)', () => {
    fc.assert(
      fc.property(
        alphanumericBase,
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 1, max: 35 }),
        (base, position, delta) => {
          const cnpj = oracleCnpj(base);
          fc.pre(!sameBase(cnpj));
          const chars = cnpj.split('');
          const alphabet = position >= 12 ? '0123456789' : ALPHANUMERIC;
          const before = chars[position] ?? '0';
          const after = alphabet[(alphabet.indexOf(before) + delta) % alphabet.length] ?? '0';
          fc.pre(after !== before);
          chars[position] = after;
          const changed = chars.join('');
          const apart = Math.abs(VALUE_ORDER.indexOf(after) - VALUE_ORDER.indexOf(before));
          if (position >= 12 || (apart % 11 !== 0 && !cnpj.endsWith('00'))) expect(isValidCnpj(changed)).toBe(false);
          // In every case the verdict matches the independent oracle.
          expect(isValidCnpj(changed)).toBe(oracleCnpj(chars.slice(0, 12)) === changed && !sameBase(changed));
        },
      ),
      RUNS,
    );
  });

  it('inherits a blind spot of the alphanumeric rule: characters 11 apart in value swap unnoticed', () => {
    // '1' is worth 1 and 'G' 23: the sums change by 22 × weight, a multiple of 11, so the check digits
    // stay. A property of IN RFB 2.229/2024, kept as a fact.
    expect(isValidCnpj('G2ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12ABC3J501DE35')).toBe(true); // '4' (4) and 'J' (26)
  });

  it('agrees with the oracle on arbitrary 14-character strings', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(digit, alphanumeric), { minLength: 14, maxLength: 14 }), (chars) => {
        const s = chars.join('');
        expect(isValidCnpj(s)).toBe(oracleCnpj(chars.slice(0, 12)) === s && !sameBase(s));
      }),
      RUNS,
    );
  });

  it('formatCnpj is idempotent, keeps letters in the base and only digits after it', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const once = formatCnpj(s);
        expect(formatCnpj(once)).toBe(once);
        expect(once).toMatch(
          /^[0-9A-Z]{0,2}(?:\.[0-9A-Z]{1,3}(?:\.[0-9A-Z]{1,3}(?:\/[0-9A-Z]{1,4}(?:-\d{1,2})?)?)?)?$/,
        );
        expect(normalizeCnpj(once).slice(0, 12)).toBe(normalizeCnpj(s).slice(0, 12));
      }),
      RUNS,
    );
  });

  it('a CNPJ reads as a search fragment of itself in every part, bare or masked', () => {
    fc.assert(
      fc.property(
        alphanumericBase,
        fc.integer({ min: 0, max: 17 }),
        fc.integer({ min: 1, max: 18 }),
        (base, from, length) => {
          const masked = mask(oracleCnpj(base));
          const part = masked.slice(from, from + length);
          fc.pre(/[0-9A-Z]/.test(part) && /[\d./]/.test(part));
          expect(cnpjSearchFragment(part)).toBe(part);
          expect(cnpjSearchFragment(part.toLowerCase())).toBe(part);
          const bare = part.replace(/[./-]/g, '');
          if (/\d/.test(bare)) expect(cnpjSearchFragment(bare)).toBe(bare);
        },
      ),
      RUNS,
    );
  });
});
