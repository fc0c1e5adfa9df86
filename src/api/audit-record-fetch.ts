import type { FetchLike } from './auth-middleware';

/**
 * The audit records the server named on recent REST answers (`x-audit-record`, docs/lists.md, Undo on the
 * server), for the success toast of the change that wrote one to offer "Desfazer". The REST client's fetch
 * notes each id as its answer arrives (noteAuditRecords, below); the outcome toast takes the newest
 * one still fresh (a machine emits its success outcome as soon as the answer is read), and a record is
 * offered once. A record nobody took goes stale: a later toast of something else never offers it.
 */
export interface RecentAuditRecords {
  note(id: number): void;
  /** The newest record noted within the freshness window and not taken yet; null when none. */
  take(): number | null;
}

/** How long after its answer a record can still be taken by a toast. */
export const RECENT_RECORD_MS = 3000;

export function createRecentAuditRecords(now: () => number = () => Date.now()): RecentAuditRecords {
  let latest: { id: number; at: number } | null = null;
  return {
    note(id) {
      latest = { id, at: now() };
    },
    take() {
      const found = latest;
      latest = null;
      return found !== null && now() - found.at <= RECENT_RECORD_MS ? found.id : null;
    },
  };
}

/** The header a REST answer names its change's audit record in (contracts/openapi.yaml `auditUndo`). */
export const AUDIT_RECORD_HEADER = 'x-audit-record';

/** A fetch that notes the audit record each successful answer names, for the change's toast to offer undo. */
export function noteAuditRecords(fetch: FetchLike, records: RecentAuditRecords): FetchLike {
  return async (request) => {
    const response = await fetch(request);
    const id = Number(response.headers.get(AUDIT_RECORD_HEADER));
    if (response.ok && Number.isInteger(id) && id > 0) records.note(id);
    return response;
  };
}
