import { optionalId, pageCursor, pageLimit } from '../base/page-params';
import type { Kysely } from 'kysely';
import type { components } from '../../../src/generated/openapi';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import {
  AUDIT_OPERATION_NAMES,
  AUDIT_PAGE_LIMIT,
  AUDIT_TARGET_TYPES,
  type AuditOperation,
  type AuditTargetType,
} from '../../../src/domain/audit';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import type { Actor } from '../access/caller';
import { guardService } from '../access/guard';
import { BOM, CSV_BATCH, csvDateTime, csvLine } from '../base/csv';
import { checkAll, invalid } from '../base/domain-error';
import { AUDIT_CSV_HEADER, auditCsvLine } from './csv';
import {
  auditNames,
  auditPage,
  tenantIdByName,
  undoneByOf,
  type AuditFilter,
  type AuditRow,
  type ReadAuditRow,
} from './repository';
import { undoableUntil } from './undo';

/**
 * Reading the audit log (docs/product.md, Audit log): REST `GET /api/audit` (auditList) and GraphQL
 * `auditRecords` call this one service, so both take the same filters, scope, paging and refusals.
 *
 * - Scope: back-office staff see every record (and may narrow to a tenant with `tenantId`); anyone
 *   else only the records whose `tenant_id` is their own tenant, whatever `tenantId` says.
 * - Staff identity (docs/security.md §3): a reader who is not staff reads a record whose actor is staff
 *   (the actor's tenant is the back-office tenant) with the actor's id, name, e-mail, tenant, address and
 *   request id null and `actor_staff` true, in the page and the CSV alike; and `actorId` finds only its
 *   own tenant's actors, so a staff member's records cannot be singled out by id either.
 * - Order: newest first by id; the cursor `after` is the last id of the previous page, so records
 *   written while someone pages never shift the pages still to come.
 * - CSV: every matching record, read in keyset batches of {@link CSV_BATCH} while the socket drains.
 */

/** The query both protocols hand over, as their contracts name it. */
export interface AuditQuery {
  from?: string | null;
  to?: string | null;
  actorId?: number | null;
  tenantId?: number | null;
  operation?: readonly string[] | null;
  targetType?: string | null;
  targetId?: number | null;
  after?: string | null;
  limit?: number | null;
}

/** One record as the contracts show it (REST `AuditRecord`, GraphQL `AuditRecord`). */
export type AuditRecordDto = components['schemas']['AuditRecord'];

export type AuditPageDto = components['schemas']['AuditPage'];

/** The contract's `maxItems` of `operation`. */
const MAX_OPERATIONS = 50;
const OPERATIONS = new Set<string>(AUDIT_OPERATION_NAMES);
const TARGET_TYPES = new Set<string>(AUDIT_TARGET_TYPES);
const dateTime = fullFormats['date-time'] as { validate: (value: string) => boolean };

/** An instant as the contracts' `date-time` (RFC 3339, the same check REST's validator applies). */
function instant(field: string, value: string | null | undefined): Date | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = dateTime.validate(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw invalid(field, 'must be a date-time (RFC 3339), e.g. 2026-11-01T03:00:00Z');
  return new Date(ms);
}

function operations(value: readonly string[] | null | undefined): readonly string[] | undefined {
  if (value === undefined || value === null || value.length === 0) return undefined;
  if (value.length > MAX_OPERATIONS) throw invalid('operation', `must name at most ${MAX_OPERATIONS} operations`);
  const unknown = value.find((name) => !OPERATIONS.has(name));
  if (unknown !== undefined) throw invalid('operation', `"${unknown}" is not a recorded operation`);
  return [...new Set(value)];
}

function targetType(value: string | null | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!TARGET_TYPES.has(value)) throw invalid('targetType', `"${value}" is not a kind of audited record`);
  return value;
}

/** The query checked (every bad field at once) and scoped to what the caller may see. */
export function auditFilter(actor: Actor, q: AuditQuery): { filter: AuditFilter; after: number | null; limit: number } {
  const v = checkAll({
    from: () => instant('from', q.from),
    to: () => {
      const to = instant('to', q.to);
      const from = to && q.from && dateTime.validate(q.from) ? Date.parse(q.from) : Number.NaN;
      if (to && to.getTime() <= from) throw invalid('to', 'must be after `from`');
      return to;
    },
    actorId: () => optionalId('actorId', q.actorId),
    tenantId: () => optionalId('tenantId', q.tenantId),
    operations: () => operations(q.operation),
    targetType: () => targetType(q.targetType),
    targetId: () => optionalId('targetId', q.targetId),
    after: () => pageCursor(q.after),
    limit: () => pageLimit(q.limit, AUDIT_PAGE_LIMIT),
  });
  const filter: AuditFilter = {
    from: v.from,
    to: v.to,
    actorId: v.actorId,
    // A reader who is not staff names only its own tenant's actors: staff are not singled out by id.
    actorTenantId: actor.originBackoffice || v.actorId === undefined ? undefined : actor.tenantId,
    // Staff see every tenant's records; anyone else only their own tenant's.
    tenantId: actor.originBackoffice ? v.tenantId : actor.tenantId,
    operations: v.operations,
    targetType: v.targetType,
    targetId: v.targetId,
  };
  return { filter, after: v.after, limit: v.limit };
}

/**
 * What `reader` may read of `row`, given the back-office tenant's id (undefined when there is none: then
 * no actor is staff). Staff readers see everything.
 */
export function readAs(reader: Actor, backofficeTenantId: number | undefined, row: AuditRow): ReadAuditRow {
  const staff = backofficeTenantId !== undefined && row.actor_tenant_id === backofficeTenantId;
  if (!staff || reader.originBackoffice) return { ...row, actor_staff: staff };
  return {
    ...row,
    actor_staff: true,
    actor_user_id: null,
    actor_name: null,
    actor_email: null,
    actor_tenant_id: null,
    actor_tenant_name: null,
    address: null,
    request_id: null,
  };
}

export function toAuditRecord(
  { target_version: _version, ...row }: ReadAuditRow,
  undoneBy: number | null = null,
): AuditRecordDto {
  // The writer (./trail.ts) stores only names of src/domain/audit.ts. The target's version serves stale
  // saves (./versions.ts); the contract's record does not carry it.
  return {
    ...row,
    undoable_until: undoableUntil(row, undoneBy)?.toISOString() ?? null,
    undone_by: undoneBy,
    at: row.at.toISOString(),
    operation: row.operation as AuditOperation,
    target_type: row.target_type as AuditTargetType,
  };
}

/** What `names` takes (contracts/openapi.yaml `auditNames`). */
export interface AuditNamesQuery {
  of?: string | null;
  targetType?: string | null;
  q?: string | null;
  id?: number | null;
  limit?: number | null;
}

export type AuditNamesDto = components['schemas']['AuditNames'];

const NAMES_LIMIT = { default: 20, max: 50 } as const;

/** The audit log as CSV: its file name and every matching record's line, newest first. */
export interface AuditCsv {
  fileName: string;
  lines(): AsyncGenerator<string>;
}

export function createAuditService({
  db,
  config,
}: {
  db: Kysely<Database>;
  config: Pick<ServerConfig, 'backofficeTenant'>;
}) {
  // The back-office tenant's id never changes once it exists; asked again until it does.
  let backofficeId: number | undefined;
  async function backoffice(): Promise<number | undefined> {
    backofficeId ??= await tenantIdByName(db, config.backofficeTenant);
    return backofficeId;
  }

  return guardService('audit', {
    /** One page, newest first; `next` is null when no record follows. */
    async list(actor: Actor, q: AuditQuery): Promise<AuditPageDto> {
      const { filter, after, limit } = auditFilter(actor, q);
      // One more than asked tells whether another page follows.
      const [rows, staffTenant] = await Promise.all([auditPage(db, filter, after, limit + 1), backoffice()]);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      // Which of the page's records were undone, and by which (server/src/undo/service.ts).
      const undone = await undoneByOf(
        db,
        page.map((row) => row.id),
      );
      return {
        data: page.map((row) => toAuditRecord(readAs(actor, staffTenant, row), undone.get(row.id) ?? null)),
        next: rows.length > limit && last ? String(last.id) : null,
      };
    },

    /**
     * The actors, or the targets of one kind, of the records `actor` may read, by name (the audit
     * screen's filters by name, docs/panel.md, Audit log). The same scope as `list`: staff every
     * record; anyone else its own tenant's records and actors of its own tenant only, never a staff
     * actor (whom `list` masks for them). Names come from the records, so a deleted user or tenant is
     * found by the name its records hold, and nothing more of it is read.
     */
    async names(actor: Actor, q: AuditNamesQuery): Promise<AuditNamesDto> {
      const v = checkAll({
        of: () => {
          if (q.of !== 'actor' && q.of !== 'target') throw invalid('of', 'must be actor or target');
          return q.of;
        },
        targetType: () => {
          const type = targetType(q.targetType);
          if (q.of === 'target' && type === undefined) throw invalid('targetType', 'is required with of=target');
          return type;
        },
        q: () => {
          // Characters as the contract's maxLength counts them (code points, not UTF-16 units).
          if (q.q !== undefined && q.q !== null && [...q.q].length > 100)
            throw invalid('q', 'must be at most 100 characters');
          return q.q ?? undefined;
        },
        id: () => optionalId('id', q.id),
        limit: () => {
          const limit = q.limit ?? NAMES_LIMIT.default;
          if (!Number.isInteger(limit) || limit < 1 || limit > NAMES_LIMIT.max)
            throw invalid('limit', `must be between 1 and ${NAMES_LIMIT.max}`);
          return limit;
        },
      });
      const staff = actor.originBackoffice;
      const others = staff || v.of !== 'actor' ? undefined : await backoffice();
      const rows = await auditNames(
        db,
        {
          of: v.of,
          targetType: v.targetType,
          tenantId: staff ? undefined : actor.tenantId,
          actorTenantId: staff || v.of !== 'actor' ? undefined : actor.tenantId,
          notActorTenantId: others,
          text: v.q,
          id: v.id,
        },
        v.limit,
      );
      return { data: rows };
    },

    /**
     * Every matching record as CSV (`after` and `limit` are ignored). The query is checked at once,
     * so a bad one is refused before anything is sent; the lines are read as they are sent.
     */
    async csv(actor: Actor, q: AuditQuery): Promise<AuditCsv> {
      const { filter } = auditFilter(actor, { ...q, after: null, limit: null });
      return {
        // The name the SPA saves it under (src/machines/shared/list-export.machine.ts), dated in São Paulo.
        fileName: `auditoria-${csvDateTime(new Date()).slice(0, 10)}.csv`,
        async *lines() {
          const staffTenant = await backoffice();
          yield BOM + csvLine(AUDIT_CSV_HEADER);
          let before: number | null = null;
          for (;;) {
            const rows = await auditPage(db, filter, before, CSV_BATCH);
            let text = '';
            for (const row of rows) text += auditCsvLine(readAs(actor, staffTenant, row));
            if (text) yield text;
            const last = rows.at(-1);
            if (rows.length < CSV_BATCH || !last) return;
            before = last.id;
          }
        },
      };
    },
  });
}

export type AuditService = ReturnType<typeof createAuditService>;
