import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The audit records a request wrote, so its answer can name them (REST `x-audit-record`,
 * docs/lists.md, Undo on the server): the REST door opens a scope per request
 * (server/src/plugins/audit-record-header.ts), the GraphQL door one per root mutation field
 * (server/src/graphql/audit-records.ts), the audit trail notes each change's records after its commit
 * (server/src/audit/trail.ts) in the innermost scope, and the answer names the first. Outside a request (the server's
 * own work, tests calling services) there is no scope and nothing is noted.
 */
export interface RequestRecords {
  ids: number[];
}

const scope = new AsyncLocalStorage<RequestRecords>();

/** Runs `work` with a fresh scope; `records` is filled as the request's changes commit. */
export function withRequestRecords<T>(records: RequestRecords, work: () => T): T {
  return scope.run(records, work);
}

/** Notes committed records in the current request's scope, if any. */
export function noteRecords(ids: readonly number[]): void {
  scope.getStore()?.ids.push(...ids);
}
