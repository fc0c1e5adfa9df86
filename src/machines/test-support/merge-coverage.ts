import type { CoverageReport } from './graph-coverage';

/**
 * Unites reports of the same machine explored with different inputs (e.g. a form in create and in
 * edit mode, where each mode reaches states the other cannot), for one `assertFullCoverage`.
 */
export function mergeCoverage(first: CoverageReport, ...rest: CoverageReport[]): CoverageReport {
  const reports = [first, ...rest];
  const union = (pick: (r: CoverageReport) => { reached: string[]; missing: string[] }) => {
    const all = [...pick(first).reached, ...pick(first).missing];
    const reached = new Set(reports.flatMap((r) => pick(r).reached));
    return {
      total: all.length,
      reached: all.filter((name) => reached.has(name)),
      missing: all.filter((name) => !reached.has(name)),
    };
  };
  return {
    paths: reports.reduce((n, r) => n + r.paths, 0),
    steps: reports.reduce((n, r) => n + r.steps, 0),
    states: union((r) => r.states),
    transitions: union((r) => r.transitions),
    divergences: reports.flatMap((r) => r.divergences),
    errors: reports.flatMap((r) => r.errors),
  };
}
