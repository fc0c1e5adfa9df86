/**
 * Parses the sheets' CSV (`;`, CRLF, `"` quoting with `""` escapes) into records, so tests count
 * rows correctly even when a cell holds a separator or a line break.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') {
      record.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || record.length > 0) {
    record.push(cell);
    records.push(record);
  }
  return records;
}

/**
 * Characters a spreadsheet must never see first in a text cell (OWASP CSV injection, ASVS 5.0
 * V1.2.10, and the full-width forms a Japanese IME types), written out here on their own so tests can
 * check the rule in src/domain/csv-formula.ts against something it did not produce.
 */
const FORMULA_LEADS = new Set(['=', '+', '-', '@', '\t', '\r', '\n', '\u0000', '＝', '＋', '－', '＠']);
/** What an importer may trim or a reader cannot see in front of a formula: whitespace, controls, zero-width and bidi marks. */
const INVISIBLE = /^[\s\p{Cc}\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]$/u;

/**
 * The formula character a spreadsheet would find at the start of `cell` (one unquoted CSV cell, as
 * {@link parseCsv} answers it) once leading invisible characters are skipped; null when there is none
 * — e.g. because the cell starts with the `'` that keeps it text.
 */
export function formulaLead(cell: string): string | null {
  for (const c of cell) {
    if (FORMULA_LEADS.has(c)) return c;
    if (!INVISIBLE.test(c)) return null;
  }
  return null;
}
