import type { Kysely, Transaction } from 'kysely';
import { cnpjProblem, formatCnpj, type CnpjProblem } from '../../../src/domain/cnpj';
import { changesOf, type AuditTrail, type Recorder } from '../audit/trail';
import { beforeValuesOf, mismatchesOf, type RevertOutcome, type UndoStep } from '../audit/undo';
import { voidResetLinks } from '../auth/password-reset';
import type { Database, Plan } from '../db/schema';
import type { Actor, Caller } from '../access/caller';
import { guardService } from '../access/guard';
import { auditWho } from '../audit/trail';
import type { TokenService } from '../auth/tokens';
import { checkAll, conflict, conflictCode, forbidden, invalid, notFound } from '../base/domain-error';
import {
  assertBatch,
  checkIds,
  eachRow,
  openBatch,
  rowGate,
  type BulkAnswer,
  type BulkLog,
  type RowFault,
  type RowMode,
} from '../bulk/rows';
import * as repo from './repository';
import { sentVersion } from '../audit/versions';
import { assertSameTenant, resolveTenant, type TenantRef } from './scope';
import {
  searchTenants,
  TENANT_COUNT_BOUND,
  tenantExportIds,
  type TenantCursor,
  type TenantDeletedFilter,
  type TenantSortName,
} from './search';
import type { ServerConfig } from '../base/config';
import { CSV_BATCH } from '../base/csv';
import { csvChunks, pagedCsvLines, type ExportLanguage, type FormattedPage } from '../base/csv-stream';
import { toTenantDto, type TenantDto } from './tenant-dto';
import { isBroken } from '../base/broken-promises';

/**
 * Tenants (customer companies): which tenant a call acts on, creation, soft delete and restore, plan,
 * editing, feature flags and the paged search — every rule about them, whichever protocol asks. The rules on
 * values match contracts/openapi.yaml `TenantCreate` and `TenantSetPlan`; names are unique among live
 * and deleted tenants (the index tenants_name_key decides when two requests race).
 *
 * Every successful change writes one audit record in its own transaction (server/src/audit/trail.ts):
 * `tenant.create`, `tenant.update`, `tenant.delete`, `tenant.restore`, `tenant.purge`, `tenant.plan`, `tenant.feature`,
 * the target being the tenant itself, with the before and after of the fields that changed (the row is
 * read locked inside the transaction, so two racing requests each record what they really replaced).
 * A call that sets the values a tenant already has still succeeds and is still recorded, with no
 * changes: the log answers who asked for what and when (a plan confirmed at a renewal, a flag set
 * again), and one successful call is always one record. A refused call records nothing.
 */

const TENANT_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const SLUG = /^[a-z0-9_-]{1,40}$/;
const PLANS: readonly Plan[] = ['starter', 'professional', 'enterprise'];
/** The columns a tenant edit, creation and plan change record (src/domain/audit.ts, `AuditChange`). */
const EDIT_FIELDS = ['name', 'cnpj', 'template', 'pool'] as const;
const PLAN_FIELDS = ['plan', 'user_limit', 'ticket_limit'] as const;
const CREATE_FIELDS = [...EDIT_FIELDS, ...PLAN_FIELDS, 'features'] as const;

/** What a 400 says when a CNPJ is not one (src/domain/cnpj.ts). */
const CNPJ_REFUSALS: Readonly<Record<CnpjProblem, string>> = {
  length: 'invalid CNPJ: 12 letters or digits and 2 check digits expected',
  format: 'invalid CNPJ: letters and digits, bare or masked as AA.AAA.AAA/AAAA-DD',
  checkDigitLetter: 'invalid CNPJ: the last two characters are check digits, always digits',
  repeated: 'invalid CNPJ: the first 12 characters are one character repeated',
  checkDigits: 'invalid CNPJ check digits',
};

function checkLimit(field: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw invalid(field, `${field} must be a whole number from 1 to ${max}`);
  return value;
}

function checkPlan(value: string): Plan {
  if (!PLANS.includes(value as Plan)) throw invalid('plan', `plan must be one of ${PLANS.join(', ')}`);
  return value as Plan;
}

export interface NewTenant {
  name: string;
  cnpj: string;
  features: readonly string[];
  template: string;
  pool: string;
  userLimit: number;
  plan: string;
  ticketLimit: number;
}

/** What a tenant edit changes (contracts/openapi.yaml `TenantUpdate`). */
export interface TenantEdit {
  id: number;
  name: string;
  cnpj: string;
  template: string;
  pool: string;
  /** The version the caller read: the change is refused (409 `stale`) unless it is current (docs/lists.md, Versions). */
  version?: number;
}

/** The filters of the tenants list (contracts/openapi.yaml `TenantFilterRequest`, docs/lists.md). */
export interface TenantFilterQuery {
  search?: string;
  sort_name?: TenantSortName;
  sort_type?: string;
  only_deleted?: boolean;
  filter_users?: boolean;
  plan?: string;
  feature?: string;
  feature_enabled?: boolean;
  deleted?: TenantDeletedFilter;
}

export interface TenantPageQuery extends TenantFilterQuery {
  pagination_page?: number;
  pagination_limit?: number;
}

/** The most ids one "select all N matching" answers (docs/lists.md). */
export const MAX_SELECTED_TENANTS = 100_000;

const TENANT_HEADINGS: Record<ExportLanguage, readonly string[]> = {
  'pt-BR': [
    'id',
    'nome',
    'cnpj',
    'plano',
    'limite_usuarios',
    'limite_tickets',
    'usuarios',
    'recursos',
    'modelo',
    'pool',
    'criado_em',
    'excluido_em',
  ],
  en: [
    'id',
    'name',
    'cnpj',
    'plan',
    'user_limit',
    'ticket_limit',
    'users',
    'features',
    'template',
    'pool',
    'created_at',
    'deleted_at',
  ],
};

/**
 * The search's parameters from the list's filters. `only_deleted: true` keeps meaning `deleted: only`;
 * sent with a `deleted` that says otherwise, the request contradicts itself (400 on `deleted`).
 */
function filterOf(q: TenantFilterQuery) {
  if (q.only_deleted === true && q.deleted !== undefined && q.deleted !== 'only')
    throw invalid('deleted', 'only_deleted: true means deleted: only; send one of the two');
  if (q.plan !== undefined) checkPlan(q.plan);
  return {
    search: q.search ?? '',
    sort: q.sort_name ?? 'id',
    direction: (q.sort_type ?? 'DESC').toLowerCase() === 'asc' ? ('asc' as const) : ('desc' as const),
    deleted: q.only_deleted === true ? ('only' as const) : (q.deleted ?? 'live'),
    filterUsers: q.filter_users ?? false,
    ...(q.plan === undefined ? {} : { plan: q.plan }),
    ...(q.feature === undefined ? {} : { feature: { option: q.feature, enabled: q.feature_enabled ?? true } }),
  };
}

/** A feature turned on or off across tenants (contracts/openapi.yaml `TenantFeatureBulkRequest`). */
export interface TenantFeatureBulkInput {
  option: string;
  enabled: boolean;
  ids: readonly number[];
  dryRun: boolean;
  batchId?: number | undefined;
  total?: number | undefined;
}

export function createTenantsService({
  db,
  audit,
  tokens,
  config,
}: {
  db: Kysely<Database>;
  audit: AuditTrail;
  tokens: Pick<TokenService, 'tenantClosed' | 'revokeTenant'>;
  /** Where the list's count stops (`TENANT_COUNT_BOUND`); default ./search.ts `TENANT_COUNT_BOUND`. */
  config?: Pick<ServerConfig, 'tenantCountBound'>;
}) {
  const countBound = config?.tenantCountBound ?? TENANT_COUNT_BOUND;
  /** The tenant as the contract's `Tenant`, if the actor may see it. */
  async function dto(actor: Actor, id: number): Promise<TenantDto> {
    const [row] = await repo.tenantRows(db, [id]);
    if (!row) throw notFound('Tenant not found', 'id');
    assertSameTenant(actor, row.id);
    return toTenantDto(row);
  }

  /** A customer tenant's staff see their own tenant only; back-office staff every tenant. */
  const scopeOf = (actor: Actor) => ({ tenantId: actor.originBackoffice ? null : actor.tenantId });

  /** Tenants as the contract's rows, in the order of `ids`. */
  async function dtosInOrder(ids: readonly number[]): Promise<TenantDto[]> {
    const byId = new Map((await repo.tenantRows(db, ids)).map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toTenantDto(row)] : [];
    });
  }

  async function setDeleted(actor: Actor, id: number, deleted: boolean): Promise<TenantDto> {
    const tenantId = await audit.transaction(auditWho(actor), async (trx, record) => {
      // Locked: of two racing deletes (or restores) the second sees the first's outcome (409).
      const row = await repo.lockTenant(trx, id);
      if (!row) throw notFound('Tenant not found', 'id');
      assertSameTenant(actor, row.id);
      if (deleted && row.id === actor.tenantId) throw conflict('You cannot delete your own tenant');
      if (deleted === (row.deleted_at !== null))
        throw conflict(deleted ? 'The tenant is already deleted' : 'The tenant is not deleted');
      const deletedAt = await repo.setTenantDeleted(trx, row.id, deleted || isBroken('restore-keeps-deleted-at'));
      // A closed company's reset links die with it, so a restore does not bring an old one back to life
      // (docs/support-desk.md, What voids a link).
      if (deleted) await voidResetLinks(trx, { tenantId: row.id });
      await record({
        operation: deleted ? 'tenant.delete' : 'tenant.restore',
        target: { id: row.id, name: row.name },
        tenantId: row.id,
        changes: changesOf({ deleted_at: row.deleted_at }, { deleted_at: deletedAt }),
      });
      return row.id;
    });
    // Its sockets close for good, on every process (contracts/socket.md §5.1).
    if (deleted) tokens.tenantClosed(tenantId, 'deleted');
    return dto(actor, tenantId);
  }

  const service = guardService('tenants', {
    /**
     * The tenant a call acts on: the one named by `tenantName` when the caller is back-office staff,
     * else the caller's own (a tenant user naming another tenant is forbidden; an unknown one not found).
     */
    async resolve(actor: Actor, tenantName?: string | null): Promise<TenantRef> {
      return resolveTenant(db, actor, tenantName);
    },

    /** A live (not deleted) tenant by name, or undefined: the tenant of a GraphQL path. */
    async findLive(_caller: Caller, name: string): Promise<TenantRef | undefined> {
      return repo.findLiveTenantByName(db, name);
    },

    /** Live tenants (id and name) the actor may act on, by name; optionally only those with live users. */
    async names(actor: Actor, withUsers: boolean) {
      return repo.liveTenantNames(db, { tenantId: actor.originBackoffice ? null : actor.tenantId, withUsers });
    },

    /**
     * One page of the tenants the actor may see, searched, filtered and sorted (./search.ts). The count stops
     * at the bound (docs/lists.md, Counts): then `total_is_lower_bound` says more than `total` match, and
     * `last_page` is the last page known to exist, the one after the counted matches.
     */
    async page(actor: Actor, q: TenantPageQuery) {
      const page = q.pagination_page ?? 1;
      const limit = q.pagination_limit ?? 4;
      const { ids, total, totalIsLowerBound } = await searchTenants(
        db,
        scopeOf(actor),
        { ...filterOf(q), page, limit },
        { countBound },
      );
      return {
        data: await dtosInOrder(ids),
        total,
        total_is_lower_bound: totalIsLowerBound,
        page,
        limit,
        last_page: Math.max(1, Math.ceil((totalIsLowerBound ? total + 1 : total) / limit)),
      };
    },

    /**
     * Every id of the tenants the actor may see matching the filters, in order; 400 beyond 100,000. The count
     * here is exact, never bounded: the answer holds every matching id, or none.
     */
    async ids(actor: Actor, q: TenantFilterQuery) {
      const { ids, total } = await searchTenants(db, scopeOf(actor), {
        ...filterOf(q),
        page: 1,
        limit: MAX_SELECTED_TENANTS,
      });
      if (total > MAX_SELECTED_TENANTS)
        // The body as a whole is at fault, no one field of it (server/src/rest/domain-errors.ts).
        throw invalid(
          'body',
          `${total} tenants match: at most ${MAX_SELECTED_TENANTS} can be selected at once; narrow the filters`,
        );
      return { ids, total };
    },

    /** The tenants the actor may see matching the filters, as CSV lines read in keyset pages as they are sent. */
    async exportCsv(actor: Actor, q: TenantFilterQuery, language: ExportLanguage) {
      const params = filterOf(q);
      const scope = scopeOf(actor);
      const read = async (cursor: TenantCursor | null): Promise<FormattedPage<TenantCursor>> => {
        const keys = await tenantExportIds(db, scope, params, cursor, CSV_BATCH);
        const rows = await dtosInOrder(keys.map((k) => k.id));
        const last = keys.at(-1);
        return {
          chunks: csvChunks(rows, (t) => [
            t.id,
            t.name,
            t.cnpj,
            t.plan,
            t.userLimit,
            t.ticketLimit,
            t.users_count,
            t.features.join(' '),
            t.template,
            t.pool,
            new Date(t.created_at),
            t.deleted_at === null ? null : new Date(t.deleted_at),
          ]),
          next: keys.length < CSV_BATCH || last === undefined ? null : { value: last.value, id: last.id },
        };
      };
      return pagedCsvLines(TENANT_HEADINGS[language], read);
    },

    /** Creates a customer company (back-office work only) with its feature flags; the CNPJ is stored masked, upper-case. */
    async create(actor: Actor, input: NewTenant): Promise<TenantDto> {
      if (!TENANT_NAME.test(input.name)) throw invalid('name', 'name must be a lower-case slug of 1–63 characters');
      const problem = cnpjProblem(input.cnpj);
      if (problem !== null) throw invalid('cnpj', CNPJ_REFUSALS[problem]);
      if (!SLUG.test(input.template)) throw invalid('template', 'template must be 1–40 characters of a–z 0–9 _ -');
      if (!SLUG.test(input.pool)) throw invalid('pool', 'pool must be 1–40 characters of a–z 0–9 _ -');
      const plan = checkPlan(input.plan);
      const userLimit = checkLimit('userLimit', input.userLimit, 100_000);
      const ticketLimit = checkLimit('ticketLimit', input.ticketLimit, 100_000_000);
      const options = await repo.featureOptions(db);
      const unknown = input.features.filter((f) => !options.includes(f));
      if (unknown.length) throw invalid('features', `unknown feature: ${unknown.join(', ')}`);
      // A clear answer for the common case; the unique index decides races.
      if (await repo.tenantNameTaken(db, input.name)) throw conflict('A tenant with this name already exists', 'name');
      const values = {
        name: input.name,
        // Masked and upper-case, whatever the caller sent (the database's CHECK, migration 0008).
        cnpj: formatCnpj(input.cnpj),
        template: input.template,
        pool: input.pool,
        plan,
        user_limit: userLimit,
        ticket_limit: ticketLimit,
      };
      const id = await audit.transaction(auditWho(actor), async (trx, record) => {
        const created = await repo.insertTenant(trx, values, options, input.features);
        await record({
          operation: 'tenant.create',
          target: { id: created, name: values.name },
          tenantId: created,
          changes: changesOf(null, { ...values, features: [...new Set(input.features)].sort() }, CREATE_FIELDS),
        });
        return created;
      });
      return dto(actor, id);
    },

    /**
     * Changes a tenant's name, CNPJ, template and pool (back-office work only, as creation), with
     * creation's rules on each value; the CNPJ is stored masked, upper-case. A name another tenant
     * has (live or deleted) is a conflict, decided by the index tenants_name_key when two race.
     */
    async update(actor: Actor, input: TenantEdit): Promise<TenantDto> {
      const values = checkAll({
        name: () => {
          if (!TENANT_NAME.test(input.name)) throw invalid('name', 'name must be a lower-case slug of 1–63 characters');
          return input.name;
        },
        cnpj: () => {
          const problem = cnpjProblem(input.cnpj);
          if (problem !== null) throw invalid('cnpj', CNPJ_REFUSALS[problem]);
          return formatCnpj(input.cnpj);
        },
        template: () => {
          if (!SLUG.test(input.template)) throw invalid('template', 'template must be 1–40 characters of a–z 0–9 _ -');
          return input.template;
        },
        pool: () => {
          if (!SLUG.test(input.pool)) throw invalid('pool', 'pool must be 1–40 characters of a–z 0–9 _ -');
          return input.pool;
        },
      });
      const sent = sentVersion(input.version);
      const updated = await audit.transaction(auditWho(actor), async (trx, record) => {
        const row = await repo.lockTenant(trx, input.id);
        if (!row) throw notFound('Tenant not found', 'id');
        // A clear answer for the common case; the unique index decides races.
        if (await repo.tenantNameTakenByOther(trx, values.name, row.id))
          throw conflict('A tenant with this name already exists', 'name');
        const version = await repo.updateTenant(trx, row.id, values, sent);
        if (version === undefined) throw await audit.stale(trx, actor, { type: 'tenant', id: row.id }, sent ?? 0);
        await record({
          operation: 'tenant.update',
          target: { id: row.id, name: values.name },
          tenantId: row.id,
          changes: changesOf(row, values, EDIT_FIELDS),
          version,
        });
        return { id: row.id, renamed: row.name !== values.name };
      });
      // Its sockets reconnect under the new name (contracts/socket.md §5.1).
      if (updated.renamed) tokens.tenantClosed(updated.id, 'renamed');
      return dto(actor, updated.id);
    },

    /**
     * Soft-deletes a tenant (hidden from the list, its name kept); nobody deletes its own tenant. The
     * tenant is closed at once: every session of its users ends on every process (their sockets close),
     * and nobody of it signs in until staff restore it (docs/security.md, Who may do what).
     */
    async remove(actor: Actor, id: number) {
      const tenant = await setDeleted(actor, id, true);
      await tokens.revokeTenant(tenant.id);
      return tenant;
    },

    /** Brings a deleted tenant back: its users sign in again (their old sessions stay ended). */
    async restore(actor: Actor, id: number) {
      return setDeleted(actor, id, false);
    },

    /**
     * Removes a soft-deleted tenant for good: the row goes and, by the schema's foreign keys (every
     * `tenant_id` is `on delete cascade`, server/src/db/migrations/0001-core.ts and 0003-activity.ts),
     * its users with their sessions and codes, instances, links, connections, departments, feature flags
     * and activity go with it; the audit log keeps its records (no foreign key) and records the purge.
     * Only an administrador of the back office purges (403 with a reason for any other staff role); a
     * live tenant is refused (409): it is deleted first, which closes its sessions. Answers the tenant
     * as it was.
     */
    async purge(actor: Actor, id: number): Promise<TenantDto> {
      // Decided on the caller alone, before any record is read: the answer tells nothing of the tenant.
      if (actor.role !== 'administrador') throw forbidden([], 'only an administrador may purge a tenant');
      return audit.transaction(auditWho(actor), async (trx, record) => {
        // Locked: of two racing purges the second waits, then finds no tenant (404).
        const row = await repo.lockTenant(trx, id);
        if (!row) throw notFound('Tenant not found', 'id');
        if (row.deleted_at === null) throw conflict('The tenant is not deleted; delete it before purging it');
        const [full] = await repo.tenantRows(trx, [row.id]);
        if (!full) throw notFound('Tenant not found', 'id');
        // Recorded while the row is there, so the record copies the tenant's name (server/src/audit/trail.ts).
        await record({
          operation: 'tenant.purge',
          target: { id: row.id, name: row.name },
          tenantId: row.id,
          changes: changesOf({ deleted_at: row.deleted_at }, { deleted_at: null }),
        });
        await repo.purgeTenant(trx, row.id);
        return toTenantDto(full);
      });
    },

    /** With `version`, only while the tenant is at it (409 `stale` otherwise; docs/lists.md, Versions). */
    async setPlan(
      actor: Actor,
      input: { id: number; plan: string; user: number; ticket: number; version?: number },
    ): Promise<TenantDto> {
      const plan = checkPlan(input.plan);
      const userLimit = checkLimit('user', input.user, 100_000);
      const ticketLimit = checkLimit('ticket', input.ticket, 100_000_000);
      const values = { plan, user_limit: userLimit, ticket_limit: ticketLimit };
      const sent = sentVersion(input.version);
      await audit.transaction(auditWho(actor), async (trx, record) => {
        const row = await repo.lockTenant(trx, input.id);
        if (!row) throw notFound('Tenant not found', 'id');
        assertSameTenant(actor, row.id);
        const version = await repo.setTenantPlan(trx, row.id, values, sent);
        if (version === undefined) throw await audit.stale(trx, actor, { type: 'tenant', id: row.id }, sent ?? 0);
        await record({
          operation: 'tenant.plan',
          target: { id: row.id, name: row.name },
          tenantId: row.id,
          changes: changesOf(row, values, PLAN_FIELDS),
          version,
        });
      });
      return dto(actor, input.id);
    },

    /**
     * Undoes one recorded change of a tenant (server/src/undo/service.ts) in the undo's transaction: the
     * tenant's row locked, the record's `after` values compared with the tenant's now (any other value:
     * the mismatches, nothing written), then the `before` values put back with the operation's own writes
     * and rules (a name another tenant took since is a conflict; nobody deletes its own tenant).
     */
    async revert(actor: Actor, trx: Transaction<Database>, record: Recorder, step: UndoStep): Promise<RevertOutcome> {
      const row = await repo.lockTenant(trx, step.targetId);
      if (!row) throw notFound('Tenant not found', 'id');
      assertSameTenant(actor, row.id);
      const values = beforeValuesOf(step.changes);
      const target = { id: row.id, name: row.name };
      const deleted = row.deleted_at !== null;
      if (step.operation === 'tenant.delete' || step.operation === 'tenant.restore') {
        const undoDelete = step.operation === 'tenant.delete';
        if (deleted !== undoDelete)
          return {
            mismatches: [
              { field: 'deleted_at', recorded: undoDelete ? 'deleted' : null, current: deleted ? 'deleted' : null },
            ],
          };
        if (!undoDelete && row.id === actor.tenantId) throw conflict('You cannot delete your own tenant');
        const deletedAt = await repo.setTenantDeleted(trx, row.id, !undoDelete);
        if (!undoDelete) await voidResetLinks(trx, { tenantId: row.id });
        await record({
          operation: undoDelete ? 'tenant.restore' : 'tenant.delete',
          target,
          tenantId: row.id,
          changes: changesOf({ deleted_at: row.deleted_at }, { deleted_at: deletedAt }),
        });
        return {
          mismatches: [],
          ...(undoDelete
            ? {}
            : {
                afterCommit: async () => {
                  tokens.tenantClosed(row.id, 'deleted');
                  await tokens.revokeTenant(row.id);
                },
              }),
        };
      }
      const current: Record<string, unknown> = { ...row };
      if (step.operation === 'tenant.feature')
        for (const change of step.changes)
          current[change.field] = await repo.lockTenantFeature(trx, row.id, change.field);
      const mismatches = mismatchesOf(step.changes, current);
      if (deleted) mismatches.push({ field: 'deleted_at', recorded: null, current: 'deleted' });
      if (mismatches.length > 0) return { mismatches };
      switch (step.operation) {
        case 'tenant.update': {
          const set = { name: row.name, cnpj: row.cnpj, template: row.template, pool: row.pool };
          for (const field of EDIT_FIELDS) if (typeof values[field] === 'string') set[field] = values[field];
          if (await repo.tenantNameTakenByOther(trx, set.name, row.id))
            throw conflict('A tenant with this name already exists', 'name');
          const version = await repo.updateTenant(trx, row.id, set);
          await record({
            operation: 'tenant.update',
            target: { id: row.id, name: set.name },
            tenantId: row.id,
            changes: changesOf(row, set, EDIT_FIELDS),
            // The update's own statement raised the version (./repository.ts): the trail must not raise it again.
            ...(version === undefined ? {} : { version }),
          });
          return {
            mismatches: [],
            ...(set.name !== row.name ? { afterCommit: () => tokens.tenantClosed(row.id, 'renamed') } : {}),
          };
        }
        case 'tenant.plan': {
          const set = { plan: row.plan, user_limit: row.user_limit, ticket_limit: row.ticket_limit };
          if (typeof values.plan === 'string') set.plan = checkPlan(values.plan);
          if (typeof values.user_limit === 'number') set.user_limit = values.user_limit;
          if (typeof values.ticket_limit === 'number') set.ticket_limit = values.ticket_limit;
          const version = await repo.setTenantPlan(trx, row.id, set);
          await record({
            operation: 'tenant.plan',
            target,
            tenantId: row.id,
            changes: changesOf(row, set, PLAN_FIELDS),
            ...(version === undefined ? {} : { version }),
          });
          return { mismatches: [] };
        }
        case 'tenant.feature': {
          for (const change of step.changes) {
            const enabled = values[change.field] === true;
            await repo.setTenantFeature(trx, row.id, change.field, enabled);
            await record({
              operation: 'tenant.feature',
              target,
              tenantId: row.id,
              changes: changesOf({ [change.field]: current[change.field] }, { [change.field]: enabled }, [
                change.field,
              ]),
            });
          }
          return { mismatches: [] };
        }
        default:
          throw new Error(`tenants: ${step.operation} is not a tenant operation with an inverse`);
      }
    },

    /** Every feature option with the tenant's setting, each with the feature set's version. */
    async features(_actor: Actor, tenant: TenantRef) {
      // The version first: a change between the two reads then makes a save with it stale (409), never lost.
      const version = await repo.featuresVersion(db, tenant.id);
      const rows = await repo.tenantFeatures(db, tenant.id);
      return rows.map((r) => ({ option: r.option, enabled: r.enabled ?? false, tenantName: tenant.name, version }));
    },

    /**
     * Turns one feature option of the tenant on or off; recorded with the option as the field. With
     * `version`, only while the feature set is at it (409 `stale` otherwise; docs/lists.md, Versions).
     * `mode`: a bulk run's row (../bulk/rows.ts), which refuses or only plans an unchanged row.
     */
    async setFeature(
      actor: Actor,
      tenant: TenantRef,
      option: string,
      enabled: boolean,
      version?: number,
      mode?: RowMode,
    ) {
      const sent = sentVersion(version);
      if (!(await repo.featureOptionExists(db, option))) throw notFound('Feature not found', 'option');
      const raised = await audit.transaction(auditWho(actor), async (trx, record) => {
        const before = await repo.lockTenantFeature(trx, tenant.id, option);
        rowGate(mode, before === enabled, enabled ? 'The feature is already on' : 'The feature is already off');
        const next = await repo.raiseFeaturesVersion(trx, tenant.id, sent);
        if (next === undefined)
          throw await audit.stale(trx, actor, { type: 'tenant', id: tenant.id, features: true }, sent ?? 0);
        await repo.setTenantFeature(trx, tenant.id, option, enabled);
        await record({
          operation: 'tenant.feature',
          target: { id: tenant.id, name: tenant.name },
          tenantId: tenant.id,
          changes: changesOf({ [option]: before }, { [option]: enabled }, [option]),
          version: next,
        });
        return next;
      });
      return { option, enabled, tenantName: tenant.name, version: raised };
    },

    /**
     * A feature turned on or off across tenants (docs/lists.md, Bulk actions): each row through
     * setFeature with its policy, in its own transaction; an unknown feature refuses the whole request
     * (404, as the single action); a deleted tenant is refused (`deleted`), an unknown id `not_found`.
     */
    async featureBulk(
      actor: Actor,
      input: TenantFeatureBulkInput,
      options: { fault?: RowFault | undefined; log?: BulkLog | undefined } = {},
    ): Promise<BulkAnswer> {
      checkIds(input.ids);
      if (!(await repo.featureOptionExists(db, input.option))) throw notFound('Feature not found', 'option');
      const kind = {
        operation: 'tenant.feature-bulk',
        action: `${input.option}:${input.enabled ? 'on' : 'off'}`,
      } as const;
      let batchId: number | null = null;
      if (input.dryRun) {
        if (input.batchId !== undefined) await assertBatch(db, actor, kind, input.batchId);
      } else {
        batchId = await openBatch({ db, audit }, actor, kind, {
          batchId: input.batchId,
          total: input.total ?? input.ids.length,
          changes: [
            { field: 'option', value: input.option },
            { field: 'enabled', value: input.enabled },
          ],
        });
      }
      const mode: RowMode = input.dryRun ? 'dry-run' : 'run';
      const rowActor: Actor = batchId === null ? actor : { ...actor, origin: { ...actor.origin, batchId } };
      const results = await eachRow(input.ids, {
        dryRun: input.dryRun,
        fault: options.fault,
        log: options.log,
        names: async (ids) => new Map((await repo.tenantRows(db, ids)).map((r) => [r.id, r.name])),
        work: async (id) => {
          const [row] = await repo.tenantRows(db, [id]);
          if (!row) throw notFound('Tenant not found', 'id');
          assertSameTenant(actor, row.id);
          if (row.deleted_at !== null) throw conflictCode('deleted', 'The tenant is deleted: restore it first');
          await service.setFeature(
            rowActor,
            { id: row.id, name: row.name },
            input.option,
            input.enabled,
            undefined,
            mode,
          );
        },
      });
      return { batch_id: batchId, results };
    },
  });
  return service;
}

export type TenantsService = ReturnType<typeof createTenantsService>;
