/** A fault-injection rule (server/src/plugins/faults.ts): which requests answer which status instead of running. */
export interface FaultRule {
  operationId: string;
  match?: Record<string, unknown>;
  /** 400–599. */
  status: number;
  /** How many matching requests fail; then the rule is spent. Unlimited when absent. */
  times?: number;
  /** Answer body; by default the contract's body for the status (503: ServiceUnavailable, …). */
  body?: unknown;
  /** Wait this long before answering (at most 30 s), e.g. to hold a request in flight. */
  delayMs?: number;
}

/** Parses `FAULTS` (a JSON array of rules); throws with the reason on anything else. */
export function parseFaultRules(raw: string | undefined): FaultRule[] {
  if (!raw) return [];
  const value: unknown = JSON.parse(raw);
  const rules = Array.isArray(value) ? value : [value];
  for (const rule of rules) {
    const r = rule as Partial<FaultRule> | null;
    if (
      !r ||
      typeof r.operationId !== 'string' ||
      !Number.isInteger(r.status) ||
      (r.status ?? 0) < 400 ||
      (r.status ?? 0) > 599
    ) {
      throw new Error(`FAULTS: each rule needs operationId (string) and status (400–599), got ${JSON.stringify(rule)}`);
    }
  }
  return rules as FaultRule[];
}
