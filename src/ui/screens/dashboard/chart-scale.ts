/**
 * Pure geometry for the dashboard's hand-written SVG charts: a "nice" value axis and which x labels
 * fit. Kept apart from the components so the arithmetic is tested without rendering.
 */

/** The value axis: `ticks` from 0 up to `max` (inclusive), evenly spaced at round steps. */
export interface ValueAxis {
  max: number;
  ticks: number[];
}

const STEPS = [1, 2, 2.5, 5, 10] as const;

/**
 * A 0-based axis with `count` intervals whose top is the smallest round value (1, 2, 2.5 or 5 × 10ⁿ
 * per step) at or above `largest`. An all-zero (or empty, negative, non-finite) series gets 0–`count`.
 */
export function valueAxis(largest: number, count = 4): ValueAxis {
  const top = Number.isFinite(largest) && largest > 0 ? largest : count;
  const raw = top / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = (STEPS.find((s) => s * magnitude >= raw * (1 - 1e-12)) ?? 10) * magnitude;
  const ticks = Array.from({ length: count + 1 }, (_, i) => Number((i * step).toPrecision(12)));
  return { max: ticks[count] ?? top, ticks };
}

/**
 * Indices of at most `maxLabels` x labels, evenly spread, always the first and the last, so dates
 * never overlap however many buckets there are.
 */
export function labelIndices(count: number, maxLabels: number): number[] {
  if (count <= 0) return [];
  if (count <= maxLabels) return Array.from({ length: count }, (_, i) => i);
  const slots = Math.max(2, maxLabels);
  const picked = new Set<number>();
  for (let i = 0; i < slots; i += 1) picked.add(Math.round((i * (count - 1)) / (slots - 1)));
  return [...picked].sort((a, b) => a - b);
}
