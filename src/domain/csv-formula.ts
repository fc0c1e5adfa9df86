/**
 * CSV injection ("formula injection", OWASP; ASVS 5.0 V1.2.10): a spreadsheet opening a CSV file
 * runs any cell that starts like a formula — `=HYPERLINK(…)` becomes a live link, `=cmd|' /C calc'!A0`
 * a DDE call, `=WEBSERVICE(…)` a request carrying other cells. Names, details and other text typed
 * by users reach the sheets we export, so every TEXT cell that starts like a formula is written with a
 * leading `'` (OWASP's remedy), after which no spreadsheet reads it as a formula. Nothing is dropped:
 * the cell is `'` followed by the original text.
 *
 * Which cells: text only. Numbers we format ourselves (integers, `-12,50` money, seconds) are never
 * prefixed, so a negative amount stays a number; a text column that happens to hold `-1+1` or
 * `+55 11 9…` (a phone number typed as a name) IS prefixed — its column is text, and `+55 11 9…`
 * is exactly what a spreadsheet would evaluate.
 *
 * The rule is written once, here, as one regular expression ({@link FORMULA_START_SOURCE}) that both
 * JavaScript and PostgreSQL evaluate identically: the SPA's CSV writer and the server's formatter use
 * {@link neutraliseFormula}; the server's SQL formatter (server/src/rest/csv-sql.ts) matches the same
 * source with PostgreSQL's `~`, so a sheet formatted by the database equals one formatted in Node.
 */

/**
 * Characters that must not lead a text cell: `= + - @`, which start a formula; tab, CR and LF
 * (OWASP's list: importers that drop them read what follows); NUL (ASVS 5.0 V1.2.10); and the
 * full-width `＝ ＋ － ＠` (what a Japanese IME types), which Excel under a Japanese locale evaluates
 * like their ASCII forms. Not `|` or `%`: no spreadsheet starts a formula with them (a DDE payload
 * needs a leading `=`, `+`, `-` or `@`).
 */
export const FORMULA_TRIGGERS: readonly string[] = [
  '=',
  '+',
  '@',
  '\t',
  '\r',
  '\n',
  '\u0000',
  '\uFF1D',
  '\uFF0B',
  '\uFF20',
  '\uFF0D',
  '-',
];

/**
 * Code point ranges skipped before looking for a trigger: spaces, control characters and invisible
 * formatting characters. Importers may trim leading spaces (LibreOffice's "Trim spaces" option), and
 * a reader cannot see a zero-width or bidi character in front of a `=`; either way ` =1+1` or
 * `\u200B=1+1` must count as starting with `=`.
 */
export const LEADING_BLANKS: readonly (readonly [number, number])[] = [
  [0x0000, 0x0020], // C0 controls and space
  [0x007f, 0x00a0], // DEL, C1 controls, no-break space
  [0x00ad, 0x00ad], // soft hyphen
  [0x1680, 0x1680], // ogham space mark
  [0x180e, 0x180e], // mongolian vowel separator
  [0x2000, 0x200f], // en quad … hair space, zero-width space/non-joiner/joiner, LRM, RLM
  [0x2028, 0x202f], // line and paragraph separators, bidi embeddings and overrides, narrow no-break space
  [0x205f, 0x2064], // medium mathematical space, word joiner, invisible operators
  [0x2066, 0x206f], // bidi isolates, deprecated format characters
  [0x3000, 0x3000], // ideographic space
  [0xfeff, 0xfeff], // zero-width no-break space (BOM)
];

const escape = (codePoint: number): string => `\\u${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

const blankClass = LEADING_BLANKS.map(([first, last]) =>
  first === last ? escape(first) : `${escape(first)}-${escape(last)}`,
).join('');
// `-` is written last: were an engine to read the escaped `\u002D` as a range dash, a trailing one is
// still a literal in both JavaScript and PostgreSQL brackets.
const triggerClass = FORMULA_TRIGGERS.map((c) => escape(c.charCodeAt(0))).join('');

/**
 * The rule as a regular expression source: any run of {@link LEADING_BLANKS}, then one of
 * {@link FORMULA_TRIGGERS}. Only `\uXXXX` escapes, ranges and `^`/`*`, which JavaScript (without the
 * `u` flag) and PostgreSQL's advanced regular expressions read the same way.
 */
export const FORMULA_START_SOURCE = `^[${blankClass}]*[${triggerClass}]`;

/**
 * First characters from `A` to `~` (U+0041–U+007E) are neither a trigger nor a blank, so text
 * starting with one never starts like a formula: a check much cheaper than the regular expression
 * for the usual cell, a name starting with a letter (in PostgreSQL, over a million such names, the
 * guard cost about a third of what the regular expression alone did).
 */
export const SAFE_FIRST_CODES = { min: 0x41, max: 0x7e } as const;

const FORMULA_START = new RegExp(FORMULA_START_SOURCE);

/** Whether a spreadsheet would read `text`, as a cell, as a formula. */
export function startsLikeFormula(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first >= SAFE_FIRST_CODES.min && first <= SAFE_FIRST_CODES.max) return false;
  return FORMULA_START.test(text);
}

/** `text` as a cell that stays text: `'` in front when it starts like a formula, unchanged otherwise. */
export function neutraliseFormula(text: string): string {
  return startsLikeFormula(text) ? `'${text}` : text;
}
