import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  csvDecimal,
  formatCurrency,
  formatDate,
  formatDateTime,
  formatDuration,
  formatNumber,
  formatPercent,
  isValidCnpj,
  toIsoDate,
} from './format';

const RUNS = { numRuns: 1000 };
const nbsp = (s: string): string => s.replace(/\u00a0/g, ' ');

/** Reads a pt-BR currency string back into a number, independently of Intl. */
function parseBrl(text: string): number {
  const negative = text.startsWith('-');
  const amount = nbsp(text).replace(/^-/, '').replace(/^R\$ /, '').replace(/\./g, '').replace(',', '.');
  return (negative ? -1 : 1) * Number(amount);
}

describe('numbers — examples', () => {
  it.each<[number, string]>([
    [1234.56, 'R$ 1.234,56'],
    [0, 'R$ 0,00'],
    [0.005, 'R$ 0,01'],
    [-0.001, 'R$ 0,00'], // no "-R$ 0,00"
    [-1234.5, '-R$ 1.234,50'],
    [1_000_000, 'R$ 1.000.000,00'],
  ])('formatCurrency(%d) → %s', (value, expected) => {
    expect(nbsp(formatCurrency(value))).toBe(expected);
  });

  it('keeps the non-breaking space after R$', () => {
    expect(formatCurrency(1)).toBe('R$\u00a01,00');
  });

  it('honours another locale', () => {
    expect(formatCurrency(1234.5, 'en-US')).toBe('R$1,234.50');
  });

  it.each<[number, string]>([
    [1234.5, '1.234,5'],
    [1234567, '1.234.567'],
    [-0.4, '-0,4'],
  ])('formatNumber(%d) → %s', (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });

  it('formatNumber passes options through', () => {
    expect(formatNumber(2, 'pt-BR', { minimumFractionDigits: 2 })).toBe('2,00');
  });

  it.each<[number, string]>([
    [0.125, '12,5%'],
    [1, '100%'],
    [0.12345, '12,3%'],
    [-0.5, '-50%'],
  ])('formatPercent(%d) → %s', (value, expected) => {
    expect(formatPercent(value)).toBe(expected);
  });

  it.each<[number, number | undefined, string]>([
    [1234.5, undefined, '1234,50'],
    [-1234.5, undefined, '-1234,50'],
    [0, undefined, '0,00'],
    [-0.001, undefined, '0,00'],
    [1.005, 2, '1,01'], // rounds the decimal the user sees, not the double 1.00499…, as the R$ display does
    [-2.675, 2, '-2,68'],
    [2.5, 0, '3'],
    [1e21, 2, '1000000000000000000000,00'], // no exponent notation
    [Number.NaN, undefined, ''],
    [Number.POSITIVE_INFINITY, undefined, ''],
    [0.1, 3, '0,100'],
  ])('csvDecimal(%d, %s) → %s', (value, digits, expected) => {
    expect(digits === undefined ? csvDecimal(value) : csvDecimal(value, digits)).toBe(expected);
  });
});

describe('numbers — properties', () => {
  it('formatCurrency parses back to the exact number of cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (cents) => {
        expect(Math.round(parseBrl(formatCurrency(cents / 100)) * 100)).toBe(cents === 0 ? 0 : cents);
      }),
      RUNS,
    );
  });

  it('formatCurrency parses back to any amount rounded to cents', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (x) => {
        expect(Math.abs(parseBrl(formatCurrency(x)) - x)).toBeLessThanOrEqual(0.005 + 1e-6);
      }),
      RUNS,
    );
  });

  it('csvDecimal never contains a dot, has the asked decimals and parses back', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 6 }), (x, digits) => {
        const text = csvDecimal(x, digits);
        expect(text).not.toContain('.');
        expect(text).toMatch(digits === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+,\\d{${digits}}$`));
        const back = Number(text.replace(',', '.'));
        expect(Math.abs(back - x)).toBeLessThanOrEqual(0.5 * 10 ** -digits + Math.abs(x) * 1e-15);
      }),
      RUNS,
    );
  });
});

describe('dates — examples', () => {
  it.each<[string | Date, string, string]>([
    ['2024-03-05T15:07:00Z', '05/03/2024', '05/03/2024 12:07'],
    ['2024-03-05T02:30:00Z', '04/03/2024', '04/03/2024 23:30'], // previous day in São Paulo
    ['2024-03-05T03:00:00Z', '05/03/2024', '05/03/2024 00:00'], // midnight is 00, not 24
    ['2018-12-01T12:00:00Z', '01/12/2018', '01/12/2018 10:00'], // old daylight saving, UTC-2
    [new Date(Date.UTC(2023, 11, 31, 23, 59)), '31/12/2023', '31/12/2023 20:59'],
    ['2024-03-05', '05/03/2024', '05/03/2024 00:00'], // calendar date, not shifted a day back
    ['2024-02-29', '29/02/2024', '29/02/2024 00:00'],
    ['2024-02-30', '', ''], // impossible date rejected, not rolled over
    ['2023-02-29', '', ''],
    ['not a date', '', ''],
    [new Date(Number.NaN), '', ''],
  ])('%s → %j / %j', (value, date, dateTime) => {
    expect(formatDate(value)).toBe(date);
    expect(formatDateTime(value)).toBe(dateTime);
  });

  it('honours the time zone argument', () => {
    expect(formatDateTime('2024-03-05T02:30:00Z', 'pt-BR', 'UTC')).toBe('05/03/2024 02:30');
    expect(formatDate('2024-03-05T23:30:00Z', 'pt-BR', 'Asia/Tokyo')).toBe('06/03/2024');
  });

  it.each<[Date, string]>([
    [new Date(Date.UTC(2024, 0, 1)), '2024-01-01'],
    [new Date('2024-03-05T23:59:59-03:00'), '2024-03-06'],
    [new Date(Date.UTC(999, 5, 7)), '0999-06-07'],
  ])('toIsoDate(%s) → %s', (date, expected) => {
    expect(toIsoDate(date)).toBe(expected);
  });

  it('toIsoDate rejects invalid dates', () => {
    expect(() => toIsoDate(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => toIsoDate(new Date(Date.UTC(10000, 0, 1)))).toThrow(RangeError);
  });
});

describe('dates — properties', () => {
  const instant = fc.date({
    min: new Date('1000-01-01T00:00:00Z'),
    max: new Date('9999-12-30T00:00:00Z'),
    noInvalidDate: true,
  });

  it('toIsoDate is the UTC day of toISOString', () => {
    fc.assert(
      fc.property(instant, (d) => {
        expect(toIsoDate(d)).toBe(d.toISOString().slice(0, 10));
      }),
      RUNS,
    );
  });

  it('formatDate in UTC is the ISO day reversed, for Dates and for calendar-date strings in any zone', () => {
    const zone = fc.constantFrom('America/Sao_Paulo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC');
    fc.assert(
      fc.property(instant, zone, (d, tz) => {
        const [y, m, day] = d.toISOString().slice(0, 10).split('-');
        const expected = `${day}/${m}/${y}`;
        expect(formatDate(d, 'pt-BR', 'UTC')).toBe(expected);
        expect(formatDate(`${y}-${m}-${day}`, 'pt-BR', tz)).toBe(expected);
        expect(formatDateTime(d, 'pt-BR', 'UTC')).toBe(`${expected} ${d.toISOString().slice(11, 16)}`);
      }),
      RUNS,
    );
  });
});

describe('formatDuration', () => {
  it.each<[number, string]>([
    [0, '0s'],
    [45, '45s'],
    [45.9, '45s'],
    [60, '1min 00s'],
    [185, '3min 05s'],
    [3599, '59min 59s'],
    [3600, '1h 00min'],
    [3725, '1h 02min'],
    [93784, '26h 03min'],
    [-5, '0s'],
    [Number.NaN, '0s'],
    [Number.POSITIVE_INFINITY, '0s'],
  ])('%d → %s', (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });

  it('reads back to the whole seconds (minutes once hours show)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e7, noNaN: true }), (seconds) => {
        const text = formatDuration(seconds);
        const m = /^(?:(\d+)h (\d{2})min|(\d+)min (\d{2})s|(\d+)s)$/.exec(text);
        expect(m).not.toBeNull();
        if (m === null) return;
        const [, h, hm, mm, ms, s] = m.map((g) => (g === undefined ? undefined : Number(g)));
        const whole = Math.floor(seconds);
        if (h !== undefined) {
          expect(h * 3600 + (hm ?? 0) * 60).toBe(whole - (whole % 60));
          expect(h).toBeGreaterThan(0);
        } else if (mm !== undefined) {
          expect(mm * 60 + (ms ?? 0)).toBe(whole);
          expect(mm).toBeGreaterThan(0);
          expect(ms).toBeLessThan(60);
        } else {
          expect(s).toBe(whole);
          expect(whole).toBeLessThan(60);
        }
      }),
      RUNS,
    );
  });
});

it('re-exports the CNPJ helpers', () => {
  expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
});
