import fc from 'fast-check';

/** An independent CNPJ oracle and the arbitraries of the CNPJ tests (src/domain/cnpj*.test.ts). */

export const RUNS = { numRuns: 1000 };
export const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Independent check-digit oracle: weights run 2..9 from the rightmost character leftwards, cycling
 * (the textbook definition), rather than the fixed arrays the implementation uses; a character is
 * worth its position in '0'…'9', then ':;<=>?@' (7 codes unused by a CNPJ), then 'A'…'Z' — the ASCII
 * table from '0', written out here instead of computed from char codes.
 */
export const VALUE_ORDER = '0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ';
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

export function oracleCnpj(base: readonly string[]): string {
  const first = String(oracleDigit(base));
  const second = String(oracleDigit([...base, first]));
  return [...base, first, second].join('');
}

export const digit = fc.constantFrom(...'0123456789'.split(''));
export const alphanumeric = fc.constantFrom(...ALPHANUMERIC.split(''));
export const numericBase = fc.array(digit, { minLength: 12, maxLength: 12 });
export const alphanumericBase = fc.array(alphanumeric, { minLength: 12, maxLength: 12 });
export const sameBase = (cnpj: string): boolean => /^(.)\1*$/.test(cnpj.slice(0, 12));
export const mask = (bare: string) =>
  `${bare.slice(0, 2)}.${bare.slice(2, 5)}.${bare.slice(5, 8)}/${bare.slice(8, 12)}-${bare.slice(12)}`;
