import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cnpjCheckDigits, cnpjSearchFragment, formatCnpj, isValidCnpj, normalizeCnpj } from './cnpj';
import {
  ALPHANUMERIC,
  RUNS,
  VALUE_ORDER,
  alphanumeric,
  alphanumericBase,
  digit,
  mask,
  numericBase,
  oracleCnpj,
  sameBase,
} from './test-support/cnpj-oracle';

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
