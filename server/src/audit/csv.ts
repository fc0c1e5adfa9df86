import type { AuditChange } from '../../../src/domain/audit';
import { csvDateTime, csvLine } from '../base/csv';
import type { ReadAuditRow } from './repository';

/** The actor of a record the provider's staff wrote, as a reader who is not staff reads it (docs/security.md §3). */
export const STAFF_ACTOR_LABEL = 'Equipe do provedor';

/**
 * The audit log as CSV (contracts/openapi.yaml `auditList`, `text/csv`): the sheets' writer
 * (server/src/base/csv.ts: `;`, CRLF, formula-like text guarded, dates in São Paulo), one line per
 * record, the changes in one readable cell.
 */
export const AUDIT_CSV_HEADER = [
  'id',
  'quando',
  'usuario',
  'email',
  'empresa_do_usuario',
  'endereco',
  'requisicao',
  'operacao',
  'alvo',
  'alvo_id',
  'alvo_nome',
  'empresa',
  'alteracoes',
] as const;

/** Shown for a side of a change where the field had no value (a creation's before, a deletion's after). */
const NO_VALUE = '—';

/** `field: before → after` per changed field (values as their JSON text), several joined with ` | `. */
export function changesText(changes: readonly AuditChange[]): string {
  return changes.map((c) => `${c.field}: ${c.before ?? NO_VALUE} → ${c.after ?? NO_VALUE}`).join(' | ');
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * `YYYY-MM-DD HH:mm:ss` in São Paulo: the sheets' date and time, with the seconds a record needs.
 * The zone's offsets are whole minutes, so the seconds are the instant's own.
 */
export function csvInstant(at: Date): string {
  return `${csvDateTime(at)}:${pad2(at.getUTCSeconds())}`;
}

/** One record as a CSV line; a staff actor masked for this reader (./service.ts readAs) reads as {@link STAFF_ACTOR_LABEL}. */
export function auditCsvLine(row: ReadAuditRow): string {
  return csvLine([
    row.id,
    csvInstant(row.at),
    row.actor_staff && row.actor_name === null ? STAFF_ACTOR_LABEL : row.actor_name,
    row.actor_email,
    row.actor_tenant_name,
    row.address,
    row.request_id,
    row.operation,
    row.target_type,
    row.target_id,
    row.target_name,
    row.tenant_name,
    changesText(row.changes),
  ]);
}
