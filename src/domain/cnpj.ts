/**
 * Brazilian CNPJ (company registry number) checks for the tenant form.
 * Numeric CNPJs only: 12 base digits plus 2 mod-11 check digits.
 */

/** Digits in a CNPJ. */
export const CNPJ_LENGTH = 14;

const FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const SECOND_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function checkDigit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (const [i, weight] of weights.entries()) sum += Number(digits[i]) * weight;
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/**
 * Computes the two check digits for a 12-digit CNPJ base.
 *
 * @param base - exactly 12 digits
 * @returns the two check digits as a string
 * @throws RangeError when `base` is not 12 digits
 */
export function cnpjCheckDigits(base: string): string {
  if (!/^\d{12}$/.test(base)) throw new RangeError('cnpjCheckDigits: expected 12 digits');
  const first = checkDigit(base, FIRST_WEIGHTS);
  const second = checkDigit(`${base}${first}`, SECOND_WEIGHTS);
  return `${first}${second}`;
}

/**
 * Strips everything but ASCII digits.
 *
 * @param value - a masked or unmasked CNPJ
 */
export function normalizeCnpj(value: string): string {
  return value.replace(/\D/g, '');
}

// Either bare digits or the full mask; half-masked or decorated input is
// refused so stray text around a number cannot sneak into the database.
const ACCEPTED = /^(?:\d{14}|\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2})$/;

/**
 * Validates a CNPJ: 14 digits (bare or as `00.000.000/0000-00`), not all the
 * same digit (those pass mod-11 but are never issued), with correct check digits.
 *
 * @param value - the CNPJ as typed; surrounding whitespace is ignored
 */
export function isValidCnpj(value: string): boolean {
  const trimmed = value.trim();
  if (!ACCEPTED.test(trimmed)) return false;
  const digits = normalizeCnpj(trimmed);
  if (/^(\d)\1{13}$/.test(digits)) return false;
  return cnpjCheckDigits(digits.slice(0, 12)) === digits.slice(12);
}

/**
 * Applies the mask `00.000.000/0000-00` to the digits of the input. Shorter
 * input gets the part of the mask it has reached, so the same function serves
 * an input field as the user types; digits past 14 are dropped.
 *
 * @param value - digits, optionally already masked
 */
export function formatCnpj(value: string): string {
  const d = normalizeCnpj(value).slice(0, CNPJ_LENGTH);
  const parts: [string, number, number][] = [
    ['', 0, 2],
    ['.', 2, 5],
    ['.', 5, 8],
    ['/', 8, 12],
    ['-', 12, 14],
  ];
  return parts
    .filter(([, start]) => d.length > start)
    .map(([separator, start, end]) => `${separator}${d.slice(start, end)}`)
    .join('');
}
