/**
 * What every bench suite hands back: rows for the printed table and budget checks.
 */
export interface Check {
  /** e.g. `api: GET /api/users on PostgreSQL errors`. */
  name: string;
  value: number;
  budget: number;
  unit: string;
  /** `max`: value must be ≤ budget; `min`: value must be ≥ budget. */
  kind: 'max' | 'min';
  ok: boolean;
  /** Why a check could not be measured or what it depends on. */
  note?: string;
}

export interface SuiteResult {
  suite: string;
  /** Rows of the suite's own table (first row = header). */
  table: string[][];
  checks: Check[];
  /** Anything else worth keeping in the JSON results. */
  data?: unknown;
  notes?: string[];
}

export function check(
  name: string,
  value: number,
  budget: number,
  unit: string,
  kind: 'max' | 'min' = 'max',
  note?: string,
): Check {
  const ok = Number.isFinite(value) && (kind === 'max' ? value <= budget : value >= budget);
  return { name, value, budget, unit, kind, ok, ...(note ? { note } : {}) };
}

/** Nearest-rank percentile of unsorted samples (NaN for none). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

/** A plain text table: first row is the header; numbers right-aligned. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '';
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  const numeric = (cell: string) => /^[-~≤≥<>×]?\s?[0-9.,—]+\s?[a-zA-Z%/×]*$/.test(cell);
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => (numeric(cell) && i > 0 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const [header, ...body] = rows;
  return [line(header ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export function formatChecks(checks: readonly Check[]): string {
  const rows = [['check', 'measured', 'budget', 'result']];
  for (const c of checks) {
    rows.push([
      c.name,
      `${fixed(c.value, c.unit === 'KB' || c.unit === 'ms' || c.unit === 'MiB' || c.unit === 'MB' ? 1 : c.unit === '×' ? 2 : 0)} ${c.unit}`,
      `${c.kind === 'max' ? '≤' : '≥'} ${c.budget} ${c.unit}`,
      c.ok ? 'pass' : `MISSED${c.note ? ` (${c.note})` : ''}`,
    ]);
  }
  return formatTable(rows);
}

/** Elapsed milliseconds since `start` (from `performance.now()`). */
export const since = (start: number): number => performance.now() - start;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
