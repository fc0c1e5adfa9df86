import { prefersCsv, sendCsv } from './csv-http';
import { caller, type Handler, type HandlerDeps } from './types';

/**
 * REST audit log: parse, call the audit service (server/src/audit/service.ts), answer a page as JSON
 * or — when the client prefers `text/csv` — every matching record streamed as CSV.
 */
export function auditHandlers({ services }: HandlerDeps) {
  const { audit, undo } = services;
  const auditList: Handler<'auditList'> = async (request, reply) => {
    if (!prefersCsv(request)) return audit.list(caller(request), request.query);
    const csv = await audit.csv(caller(request), request.query);
    await sendCsv(reply, csv.fileName, csv.lines());
    return undefined;
  };
  /** Undo a recorded change (server/src/undo/service.ts); `x-audit-record` names the reversing record. */
  const auditUndo: Handler<'auditUndo'> = async (request) => undo.undo(caller(request), request.params.id);
  /** The audit log's actors or targets by name, for its filters. */
  const auditNames: Handler<'auditNames'> = async (request) => audit.names(caller(request), request.query);
  return { auditList, auditNames, auditUndo };
}
