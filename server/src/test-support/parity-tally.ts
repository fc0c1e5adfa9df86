// ------------------------------------------------------------------------------------------------------
// Counting
// ------------------------------------------------------------------------------------------------------

/** Cases, steps and agreed kinds per capability, printed by the suites for the closing note. */
export class Tally {
  private readonly rows = new Map<
    string,
    {
      cases: number;
      runs: number;
      steps: number;
      seconds: number;
      cpuSeconds: number;
      kinds: Map<string, number>;
      details: Set<string>;
    }
  >();

  private entry(capability: string) {
    let row = this.rows.get(capability);
    if (!row) {
      row = { cases: 0, runs: 0, steps: 0, seconds: 0, cpuSeconds: 0, kinds: new Map(), details: new Set() };
      this.rows.set(capability, row);
    }
    return row;
  }

  /** A case that ran to its end (shrinking runs included). */
  case(capability: string): void {
    this.entry(capability).cases += 1;
  }

  /** The property's own count of the cases it generated (fast-check `numRuns`), and what it took: wall and this process's CPU seconds. */
  ran(capability: string, runs: number, seconds: number, cpuSeconds: number): void {
    const row = this.entry(capability);
    row.runs += runs;
    row.seconds += seconds;
    row.cpuSeconds += cpuSeconds;
  }

  step(capability: string, kind: string): void {
    const row = this.entry(capability);
    row.steps += 1;
    row.kinds.set(kind, (row.kinds.get(kind) ?? 0) + 1);
  }

  /** An agreed refusal with a field it named (`update:invalid@current_password`): kept for `requires`, not printed. */
  detail(capability: string, key: string): void {
    this.entry(capability).details.add(key);
  }

  kinds(capability: string): ReadonlyMap<string, number> {
    return this.entry(capability).kinds;
  }

  details(capability: string): ReadonlySet<string> {
    return this.entry(capability).details;
  }

  cases(capability: string): number {
    return this.entry(capability).cases;
  }

  lines(database: string): string[] {
    return [...this.rows.entries()].map(([capability, row]) => {
      const kinds = [...row.kinds.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      return `parity[${database}] ${capability}: ${row.runs} cases, ${row.steps} compared answers, ${row.seconds.toFixed(1)} s (${row.cpuSeconds.toFixed(1)} s CPU in this process) — ${kinds}`;
    });
  }
}
