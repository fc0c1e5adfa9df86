import { formatNumber } from '../../../domain/format';

const UNITS = [
  { unit: 'gigabyte', size: 1e9 },
  { unit: 'megabyte', size: 1e6 },
  { unit: 'kilobyte', size: 1e3 },
] as const;

/** A byte count in the locale's words: `3,4 MB`, `820 kB`, `12 byte` (decimal units, as file managers show). */
export function formatSize(bytes: number, locale: string): string {
  const match = UNITS.find((u) => bytes >= u.size);
  if (!match) return formatNumber(bytes, locale, { style: 'unit', unit: 'byte', unitDisplay: 'short' });
  return formatNumber(bytes / match.size, locale, {
    style: 'unit',
    unit: match.unit,
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  });
}
