import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withRequestRecords, type RequestRecords } from '../base/request-records';

/**
 * `x-audit-record: <id>` on a REST change's answer (docs/lists.md, Undo on the server): the first audit
 * record the request's changes wrote, which the SPA offers to undo in its toast. One place for every
 * operation: each REST request runs in a scope of server/src/base/request-records.ts, the audit trail
 * notes what each committed transaction wrote (server/src/audit/trail.ts), and the header goes on a
 * successful answer that wrote any. GraphQL answers name theirs per root field, and carry this header
 * when they are one change's whole answer (server/src/graphql/audit-records.ts).
 */
export const AUDIT_RECORD_HEADER = 'x-audit-record';

const scopes = new WeakMap<FastifyRequest, RequestRecords>();

function isRestOperation(request: FastifyRequest): boolean {
  return typeof (request.routeOptions.schema as { operationId?: unknown } | undefined)?.operationId === 'string';
}

export function registerAuditRecordHeader(fastify: FastifyInstance): void {
  // A callback hook: the rest of the request (later hooks, the handler) runs inside `run`'s scope.
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (!isRestOperation(request)) {
      done();
      return;
    }
    const records: RequestRecords = { ids: [] };
    scopes.set(request, records);
    withRequestRecords(records, done);
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    const first = scopes.get(request)?.ids[0];
    if (first !== undefined && reply.statusCode < 300) void reply.header(AUDIT_RECORD_HEADER, String(first));
    return payload;
  });
}
