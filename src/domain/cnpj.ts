/**
 * Brazilian CNPJ (company registry number): validation, check digits, the input mask and the rule for
 * a search that reads as part of a CNPJ.
 *
 * Since July 2026 CNPJs are alphanumeric (Receita Federal, Instrução Normativa RFB nº 2.229/2024): a
 * base of 12 characters, each a letter `A`–`Z` or a digit, then 2 numeric check digits. Each character
 * counts as its ASCII code minus 48 (`'0'`–`'9'` → 0–9, `'A'` → 17, `'B'` → 18 … `'Z'` → 42); the check
 * digits are the usual modulus-11 ones with weights 5,4,3,2,9,8,7,6,5,4,3,2 (first) and
 * 6,5,4,3,2,9,8,7,6,5,4,3,2 (second, over the base and the first), a remainder below 2 giving 0 and
 * any other `11 − remainder`. All-digit CNPJs are the special case they always were, so the same rule
 * validates both. The Receita's own example: `12.ABC.345/01DE-35`.
 */

/** Characters in a CNPJ: 12 of the base, 2 check digits. */
export const CNPJ_LENGTH = 14;

/** Characters in a CNPJ's base (letters or digits). */
export const CNPJ_BASE_LENGTH = 12;

/** The mask, `A` for a letter or digit of the base and `D` for a check digit. */
export const CNPJ_MASK = 'AA.AAA.AAA/AAAA-DD';

const FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const SECOND_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** A character's value in the check-digit sums: its ASCII code minus that of `'0'` (IN RFB 2.229/2024). */
const ZERO = 48;

function checkDigit(chars: string, weights: readonly number[]): number {
  let sum = 0;
  for (const [i, weight] of weights.entries()) sum += (chars.charCodeAt(i) - ZERO) * weight;
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/**
 * Computes the two check digits of a CNPJ base (IN RFB 2.229/2024: each character counts as its ASCII
 * code minus 48, modulus 11).
 *
 * @param base - exactly 12 letters or digits; lower-case letters count as their upper-case ones
 * @returns the two check digits as a string
 * @throws RangeError when `base` is not 12 letters or digits
 */
export function cnpjCheckDigits(base: string): string {
  if (!/^[0-9A-Za-z]{12}$/.test(base)) throw new RangeError('cnpjCheckDigits: expected 12 letters or digits');
  const upper = base.toUpperCase();
  const first = checkDigit(upper, FIRST_WEIGHTS);
  const second = checkDigit(`${upper}${first}`, SECOND_WEIGHTS);
  return `${first}${second}`;
}

/**
 * The bare CNPJ: its ASCII letters (upper-cased) and digits, everything else (the mask's punctuation,
 * spaces) dropped.
 *
 * @param value - a masked or unmasked CNPJ, in any case
 */
export function normalizeCnpj(value: string): string {
  // Only ASCII letters are kept, and they are upper-cased after the others are gone: `toUpperCase` turns
  // some other letters into ASCII ones ('ſ' → 'S', 'ı' → 'I'), which must not sneak into a CNPJ.
  return value.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
}

/**
 * Why a CNPJ is refused: `length` (not 14 letters and digits), `format` (other characters, or the
 * mask's punctuation only in part or out of place), `checkDigitLetter` (a letter in one of the last
 * two places, which are always digits), `repeated` (a base of one character repeated: passes the
 * modulus but is never issued), `checkDigits` (they do not match the base).
 */
export type CnpjProblem = 'length' | 'format' | 'checkDigitLetter' | 'repeated' | 'checkDigits';

// Either bare or the full mask; half-masked or decorated input is refused so stray text around a
// number cannot sneak into the database. Letters are allowed in every place here so that a letter in a
// check-digit place is told apart from a malformed value.
const SHAPE = /^(?:[0-9A-Z]{14}|[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-[0-9A-Z]{2})$/;

/**
 * What is wrong with a CNPJ, or null when it is valid: 12 letters or digits and 2 check digits, bare
 * (`12ABC34501DE35`) or masked (`12.ABC.345/01DE-35`), lower-case letters accepted as upper-case ones,
 * the base not one character repeated, and check digits that match (IN RFB 2.229/2024).
 *
 * @param value - the CNPJ as typed; surrounding whitespace is ignored
 */
export function cnpjProblem(value: string): CnpjProblem | null {
  const trimmed = value.trim();
  if (!/^[0-9A-Za-z./-]*$/.test(trimmed)) return 'format';
  const bare = normalizeCnpj(trimmed);
  if (bare.length !== CNPJ_LENGTH) return 'length';
  if (!SHAPE.test(trimmed.toUpperCase())) return 'format';
  const base = bare.slice(0, CNPJ_BASE_LENGTH);
  const digits = bare.slice(CNPJ_BASE_LENGTH);
  if (!/^\d\d$/.test(digits)) return 'checkDigitLetter';
  if (/^(.)\1*$/.test(base)) return 'repeated';
  return cnpjCheckDigits(base) === digits ? null : 'checkDigits';
}

/**
 * Validates a CNPJ (see {@link cnpjProblem} for the rule and the reasons it gives).
 *
 * @param value - the CNPJ as typed; surrounding whitespace is ignored
 */
export function isValidCnpj(value: string): boolean {
  return cnpjProblem(value) === null;
}

/**
 * Applies the mask `AA.AAA.AAA/AAAA-DD` to the letters and digits of the input, upper-cased. Shorter
 * input gets the part of the mask it has reached, so the same function serves an input field as the
 * user types: letters are taken in the 12 places of the base only, a letter typed where a check digit
 * goes is dropped, and anything past 14 characters too.
 *
 * @param value - letters and digits, optionally already masked, in any case
 */
export function formatCnpj(value: string): string {
  let kept = '';
  for (const char of normalizeCnpj(value)) {
    if (kept.length === CNPJ_LENGTH) break;
    if (kept.length >= CNPJ_BASE_LENGTH && !/\d/.test(char)) continue;
    kept += char;
  }
  const parts: [string, number, number][] = [
    ['', 0, 2],
    ['.', 2, 5],
    ['.', 5, 8],
    ['/', 8, 12],
    ['-', 12, 14],
  ];
  return parts
    .filter(([, start]) => kept.length > start)
    .map(([separator, start, end]) => `${separator}${kept.slice(start, end)}`)
    .join('');
}

/** Whether `fragment` (upper-case letters, digits and marks) lines up with the mask from `start`. */
function fitsFrom(fragment: string, start: number): boolean {
  let at = start;
  for (const char of fragment) {
    const isMark = char === '.' || char === '/' || char === '-';
    // A letter or digit may follow the mark it left out: the mask never has two marks in a row.
    if (!isMark && /[./-]/.test(CNPJ_MASK[at] ?? '')) at += 1;
    const slot = CNPJ_MASK[at];
    if (slot === undefined) return false;
    if (isMark ? slot !== char : slot === 'D' ? !/\d/.test(char) : !/[AD]/.test(slot)) return false;
    at += 1;
  }
  return true;
}

/**
 * Whether a search reads as part of a CNPJ, and if so the fragment to look for: upper-cased, spaces
 * removed, the marks it has kept. It does when it
 * - holds only letters, digits, the mask's marks `.` `/` `-` and spaces, and at least one letter or digit;
 * - fits the mask `AA.AAA.AAA/AAAA-DD` somewhere: its letters and digits on consecutive places of it
 *   (letters only among the first 12), each mark it holds where the mask has that mark; a mark left
 *   out, or a space in its place, is fine (`12ABC`, `12 ABC`, `ABC345/01`);
 * - and holds a digit, or a `.`, `/` or space. Tenant names are lower-case slugs (`[a-z0-9-]`), so
 *   a search of letters and hyphens alone is taken for a name; one with a digit may be either, and is
 *   searched both ways.
 * The fragment is then matched against the CNPJ's characters exactly, letters included, so a name like
 * `loja-2` matches only a CNPJ that holds `LOJA-2` (or `LOJA2` across a mark), never every CNPJ with a 2.
 *
 * @param search - the search as typed
 * @returns the fragment, or null when the search does not read as part of a CNPJ
 */
export function cnpjSearchFragment(search: string): string | null {
  const text = search.trim();
  if (!/^[0-9A-Za-z./\s-]*$/.test(text) || !/[0-9A-Za-z]/.test(text) || !/[\d./\s]/.test(text)) return null;
  const fragment = text.replace(/\s+/g, '').toUpperCase();
  for (let start = 0; start < CNPJ_MASK.length; start++) if (fitsFrom(fragment, start)) return fragment;
  return null;
}
