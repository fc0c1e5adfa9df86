/**
 * Password strength scoring (docs/product.md, Passwords).
 *
 * Pure and dependency-free so the SPA meter and the reference server agree on
 * the same score for the same password.
 */

/** Minimum number of characters (Unicode code points) before a password can score above weak. */
export const MIN_PASSWORD_LENGTH = 8;

/** Minimum number of special characters a strong password needs. */
export const MIN_SPECIAL_CHARACTERS = 2;

/** The only three scores the product knows: 50 weak, 75 medium, 100 strong. */
export type PasswordScore = 50 | 75 | 100;

/** Named strength level; doubles as the i18n key suffix (weak → "fraca", medium → "média", strong → "forte"). */
export type StrengthLevel = 'weak' | 'medium' | 'strong';

/** Score for each level, so callers never spell the magic numbers. */
export const PASSWORD_SCORES = {
  weak: 50,
  medium: 75,
  strong: 100,
} as const satisfies Record<StrengthLevel, PasswordScore>;

const LETTER_OR_DIGIT = /^[\p{L}\p{Nd}]$/u;
const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;
const ASCII_DIGIT = /^[0-9]$/;
const ASCII_LETTER = /^[a-z]$/i;

/**
 * Position of a character in the alphabet or digit series it belongs to, or
 * null when it belongs to neither. Letters are folded to lower case so `aBc`
 * is a sequence; the two series are kept apart so `9ab` is not.
 */
function seriesPosition(char: string): { series: 'digit' | 'letter'; index: number } | null {
  if (ASCII_DIGIT.test(char)) return { series: 'digit', index: char.charCodeAt(0) - 0x30 };
  if (ASCII_LETTER.test(char)) return { series: 'letter', index: char.toLowerCase().charCodeAt(0) - 0x61 };
  return null;
}

function isAscendingTriple(a: string, b: string, c: string): boolean {
  const pa = seriesPosition(a);
  const pb = seriesPosition(b);
  const pc = seriesPosition(c);
  if (pa === null || pb === null || pc === null) return false;
  if (pa.series !== pb.series || pb.series !== pc.series) return false;
  // No wrap-around: `yza` and `890` are not sequences.
  return pb.index === pa.index + 1 && pc.index === pb.index + 1;
}

/** True when the code points contain `aaa`-style runs or `abc`/`123`-style ascending sequences. */
function hasWeakPattern(chars: readonly string[]): boolean {
  for (let i = 0; i + 2 < chars.length; i += 1) {
    const a = chars[i] ?? '';
    const b = chars[i + 1] ?? '';
    const c = chars[i + 2] ?? '';
    if (a === b && b === c) return true;
    if (isAscendingTriple(a, b, c)) return true;
  }
  return false;
}

/**
 * A special character is any code point that is neither a Unicode letter nor a
 * Unicode decimal digit, so spaces, punctuation, symbols and emoji all count.
 */
function countSpecials(chars: readonly string[]): number {
  return chars.filter((char) => !LETTER_OR_DIGIT.test(char)).length;
}

/**
 * Scores a password (docs/product.md, Passwords).
 *
 * - 50 (weak): shorter than {@link MIN_PASSWORD_LENGTH} code points, or contains a
 *   run of 3 identical characters, or an ascending run of 3 letters (case-insensitive)
 *   or digits.
 * - 100 (strong): otherwise, with at least 2 special characters and at least one
 *   lower-case and one upper-case letter.
 * - 75 (medium): everything else.
 *
 * @param password - the candidate password, any Unicode string
 * @returns the score 50, 75 or 100
 */
export function passwordStrength(password: string): PasswordScore {
  // Code points, not UTF-16 units: an emoji is one character to the user.
  const chars = Array.from(password);
  if (chars.length < MIN_PASSWORD_LENGTH || hasWeakPattern(chars)) return PASSWORD_SCORES.weak;
  const strong = countSpecials(chars) >= MIN_SPECIAL_CHARACTERS && LOWER.test(password) && UPPER.test(password);
  return strong ? PASSWORD_SCORES.strong : PASSWORD_SCORES.medium;
}

/**
 * Maps a score to its level name.
 *
 * @param score - a value returned by {@link passwordStrength}
 * @returns `'weak'`, `'medium'` or `'strong'`
 */
export function strengthLevel(score: PasswordScore): StrengthLevel {
  switch (score) {
    case 50:
      return 'weak';
    case 75:
      return 'medium';
    case 100:
      return 'strong';
  }
}
