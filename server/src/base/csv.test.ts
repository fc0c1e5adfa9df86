import fc from 'fast-check';
import { csvDecimal } from '../../../src/domain/format';
import { csvCell, csvDateTime, decimal } from './csv';

/** The exact São Paulo minute, one Intl call per instant (what csvDateTime's fast path must equal). */
const exact = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
function expected(value: Date): string {
  const p: Record<string, string> = {};
  for (const part of exact.formatToParts(value)) p[part.type] = part.value;
  return `${p['year']}-${p['month']}-${p['day']} ${p['hour']}:${p['minute']}`;
}

describe('CSV cells (fast paths equal the exact Intl formatting)', () => {
  it('formats instants in São Paulo, daylight-saving changes included', () => {
    // Brazil's last DST periods: starts 2017-10-15 and 2018-11-04 at 00:00 local, ends 2018-02-18 and 2019-02-17.
    for (const around of [
      '2017-10-15T03:00:00Z',
      '2018-02-18T02:00:00Z',
      '2018-11-04T03:00:00Z',
      '2019-02-17T02:00:00Z',
    ]) {
      const center = Date.parse(around);
      for (let ms = center - 2 * 3_600_000; ms <= center + 2 * 3_600_000; ms += 59_999) {
        expect(csvDateTime(new Date(ms))).toBe(expected(new Date(ms)));
      }
    }
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('1915-01-01T00:00:00Z'), max: Date.parse('2199-12-31T00:00:00Z') }),
        (ms) => {
          expect(csvDateTime(new Date(ms))).toBe(expected(new Date(ms)));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('takes the exact path where the fast one cannot apply', () => {
    expect(csvDateTime(new Date('1900-06-01T12:00:00Z'))).toBe(expected(new Date('1900-06-01T12:00:00Z')));
    expect(csvDateTime(new Date('0500-06-01T12:00:00Z'))).toBe(expected(new Date('0500-06-01T12:00:00Z')));
  });

  it('prints two decimals with a comma exactly as csvDecimal does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        const value = cents / 100;
        expect(csvCell(decimal(value))).toBe(csvDecimal(value));
        if (!Number.isInteger(value)) expect(csvCell(value)).toBe(csvDecimal(value));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.double({ min: -1e16, max: 1e16, noNaN: true }), (value) => {
        expect(csvCell(decimal(value))).toBe(csvDecimal(value));
      }),
      { numRuns: 5000 },
    );
    for (const value of [1.005, 2.675, -0, 0, -0.001, 1e15, 0.1 + 0.2])
      expect(csvCell(decimal(value))).toBe(csvDecimal(value));
  });
});
