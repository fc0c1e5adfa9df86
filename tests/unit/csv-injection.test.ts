import fc from 'fast-check';
import { csvLine, decimal } from '../../server/src/base/csv';
import { HOSTILE_STRINGS } from '../../server/src/test-support/arbitraries';
import { formulaLead, parseCsv } from '../../server/src/test-support/csv';
import { csvDecimal } from '../../src/domain/format';
import { csvDocument } from '../../src/ui/components/reports/csv-file';

/**
 * CSV injection, across both JavaScript CSV writers: the server's (server/src/base/csv.ts, the sheets
 * it formats itself and the productivity report) and the SPA's (src/ui/components/reports/csv-file.ts,
 * the reports it builds in the browser). Any row of text and numbers, read back as a spreadsheet
 * would split it, must hold no text cell that starts like a formula, must keep every text whole
 * (at most a leading `'` added), must leave numbers unprefixed — and both writers must agree.
 */

const PAYLOADS = [
  '=HYPERLINK("http://x.test","y")',
  "+cmd|' /C calc'!A0",
  '@SUM(1+1)',
  '-2+3',
  '\t=1',
  '=1;=2',
  '"=1"',
  '+55 11 91234-5678',
];

const LEADING = fc.constantFrom(
  '',
  ' ',
  '  ',
  '\u00A0',
  '\u200B',
  '\u202E',
  '\u2066',
  '\uFEFF',
  '\u3000',
  '\u0001',
  '\t',
  '\r\n',
  '\n',
);
const FIRST = fc.constantFrom(
  '=',
  '+',
  '-',
  '@',
  '\t',
  '\r',
  '\n',
  '\u0000',
  '＝',
  '＋',
  '－',
  '＠',
  "'",
  '"',
  ';',
  'a',
  '1',
  'é',
  '😀',
);
const TEXT = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(LEADING, FIRST, fc.string({ unit: 'grapheme', maxLength: 15 })).map((parts) => parts.join('')),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom(...PAYLOADS, ...HOSTILE_STRINGS, '', ';', '"', '\r\n', 'x'.repeat(5000)) },
);

type Tagged = { kind: 'text'; value: string } | { kind: 'int'; value: number } | { kind: 'decimal'; value: number };
const CELL: fc.Arbitrary<Tagged> = fc.oneof(
  { weight: 3, arbitrary: TEXT.map((value) => ({ kind: 'text' as const, value })) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((value) => ({ kind: 'int' as const, value })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: -1e11, max: 1e11 }).map((cents) => ({ kind: 'decimal' as const, value: cents / 100 })),
  },
);
const ROWS = fc.array(fc.array(CELL, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 });

describe('CSV injection: every text cell of both JavaScript writers stays text', () => {
  it('no text cell starts like a formula once unquoted; text is whole; numbers unprefixed; server and SPA agree', () => {
    fc.assert(
      fc.property(ROWS, (rows) => {
        const server = rows
          .map((row) => csvLine(row.map((c) => (c.kind === 'decimal' ? decimal(c.value) : c.value))))
          .join('');
        const spa = csvDocument(
          rows.map((row) => row.map((c) => (c.kind === 'decimal' ? { decimal: c.value } : c.value))),
        );
        expect(spa).toBe(`\uFEFF${server}`);
        const records = parseCsv(server);
        expect(records).toHaveLength(rows.length);
        rows.forEach((row, r) => {
          expect(records[r]).toHaveLength(row.length);
          row.forEach((cell, i) => {
            const out = records[r]?.[i] ?? '';
            if (cell.kind === 'text') {
              expect(formulaLead(out)).toBeNull();
              // Prefixed exactly when a spreadsheet would otherwise have evaluated it; nothing lost.
              expect(out).toBe(formulaLead(cell.value) === null ? cell.value : `'${cell.value}`);
            } else if (cell.kind === 'int') {
              expect(out).toBe(String(cell.value));
            } else {
              expect(out).toBe(csvDecimal(cell.value));
              expect(out.startsWith("'")).toBe(false);
            }
          });
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('the report’s payloads, as a spreadsheet reads them', () => {
    const line = csvLine([...PAYLOADS, -3, decimal(-12.5)]);
    expect(line).toBe(
      `"'=HYPERLINK(""http://x.test"",""y"")";'+cmd|' /C calc'!A0;'@SUM(1+1);'-2+3;'\t=1;"'=1;=2";"""=1""";'+55 11 91234-5678;-3;-12,50\r\n`,
    );
    // A leading `"` is text to a spreadsheet: only the formula triggers are prefixed.
    expect(parseCsv(line)[0]).toEqual([...PAYLOADS.map((p) => (p.startsWith('"') ? p : `'${p}`)), '-3', '-12,50']);
  });
});
