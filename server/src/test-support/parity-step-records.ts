import fc from 'fast-check';
import { DEPARTMENTS } from '../db/seed-random';
import {
  graphqlOutcome,
  HOME,
  restOutcome,
  TENANT_NAMES,
  type PrincipalName,
  type TenantKey,
  type Twin,
} from './parity';
import { UNKNOWN_ID, type Model, type RecordChange, type RecordRef, type Step } from './parity-step-data';

import type { Observation } from './parity-step-helpers';
import { otherTenant } from './parity-step-helpers';
import { anyPrincipalArb, managerArb } from './parity-step-arbitraries';

/**
 * Department and connection changes (contracts/openapi.yaml `departmentCreate`, `departmentUpdate`,
 * `connectionCreate`, `connectionUpdate` ↔ contracts/schema.graphql `createDepartment`,
 * `updateDepartment`, `createConnection`, `updateConnection`): the step runner and its arbitraries.
 * REST names the tenant (`tenantName`), GraphQL acts on the path's; both aim at the same tenant.
 */

type Scope = 'departments' | 'instances' | 'connections';

/** The acting tenant of a step: the caller's own, or the other customer tenant. */
const tenantOf = (who: PrincipalName, tenant: 'own' | 'other'): TenantKey =>
  tenant === 'own' ? HOME[who] : otherTenant(who);

/** The ids of a tenant's records on this twin, by id (the twins hold the same ids: their sequences are reset alike). */
async function idsOf(twin: Twin, scope: Scope, tenant: TenantKey, model: Model): Promise<number[]> {
  const tenantId = model.twins.fixture.tenants[tenant].id;
  const rows = await twin.db.selectFrom(scope).select('id').where('tenant_id', '=', tenantId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

async function resolve(twin: Twin, scope: Scope, tenant: TenantKey, ref: RecordRef, model: Model): Promise<number> {
  if ('unknown' in ref) return UNKNOWN_ID;
  const ids = await idsOf(twin, scope, 'other' in ref ? (tenant === 'a' ? 'b' : 'a') : tenant, model);
  if (ids.length === 0) return UNKNOWN_ID;
  return 'other' in ref ? (ids[0] ?? UNKNOWN_ID) : (ids[ref.own % ids.length] ?? UNKNOWN_ID);
}

/**
 * The change as sent: `version` becomes the record's version on this twin (the twins hold the same one), or
 * one it is not at; an unknown record's is 1.
 */
async function sentChange(twin: Twin, scope: 'departments' | 'connections', id: number, change: RecordChange) {
  const { version, ...rest } = change;
  if (version === undefined) return rest;
  const row = await twin.db.selectFrom(scope).select('version').where('id', '=', id).executeTakeFirst();
  const current = row?.version ?? 1;
  return { ...rest, version: version === 'current' ? current : current > 1 ? current - 1 : current + 1 };
}

/** REST's connection carries its tenant's name; GraphQL's does not (it acts on the path's tenant). */
const connectionValue = (value: unknown) => {
  if (typeof value !== 'object' || value === null) return value;
  const { tenantName: _tenantName, ...rest } = value as Record<string, unknown>;
  return rest;
};

/** Runs a department or connection change on one twin; null for any other step. */
export async function runRecordsStep(step: Step, twin: Twin, model: Model): Promise<Observation | null> {
  const rest = twin.protocol === 'rest';
  switch (step.op) {
    case 'departmentCreate': {
      const tenant = tenantOf(step.who, step.tenant);
      const auth = twin.auth[step.who];
      if (rest) {
        const query = step.tenant === 'own' ? '' : `?tenantName=${TENANT_NAMES[tenant]}`;
        return { create: restOutcome(await twin.rest(auth, 'POST', `/api/departments${query}`, { name: step.name })) };
      }
      return {
        create: graphqlOutcome(
          await twin.graphql(auth, TENANT_NAMES[tenant], 'createDepartment', { name: step.name }),
          'createDepartment',
        ),
      };
    }
    case 'departmentUpdate': {
      const tenant = tenantOf(step.who, step.tenant);
      const auth = twin.auth[step.who];
      const id = await resolve(twin, 'departments', tenant, step.target, model);
      const change = await sentChange(twin, 'departments', id, step.change);
      if (rest) {
        const query = step.tenant === 'own' ? '' : `?tenantName=${TENANT_NAMES[tenant]}`;
        return { update: restOutcome(await twin.rest(auth, 'PATCH', `/api/departments/${id}${query}`, change)) };
      }
      return {
        update: graphqlOutcome(
          await twin.graphql(auth, TENANT_NAMES[tenant], 'updateDepartment', { id, ...change }),
          'updateDepartment',
        ),
      };
    }
    case 'connectionCreate': {
      const tenant = tenantOf(step.who, step.tenant);
      const auth = twin.auth[step.who];
      const instanceId = await resolve(twin, 'instances', tenant, step.instance, model);
      if (rest) {
        const body = { tenantName: TENANT_NAMES[tenant], instance_id: instanceId, name: step.name };
        return { create: restOutcome(await twin.rest(auth, 'POST', '/api/connection', body), connectionValue) };
      }
      return {
        create: graphqlOutcome(
          await twin.graphql(auth, TENANT_NAMES[tenant], 'createConnection', {
            instance_id: instanceId,
            name: step.name,
          }),
          'createConnection',
        ),
      };
    }
    case 'connectionUpdate': {
      const tenant = tenantOf(step.who, step.tenant);
      const auth = twin.auth[step.who];
      const id = await resolve(twin, 'connections', tenant, step.target, model);
      const change = await sentChange(twin, 'connections', id, step.change);
      if (rest) {
        const body = { id, tenantName: TENANT_NAMES[tenant], ...change };
        return { update: restOutcome(await twin.rest(auth, 'POST', '/api/connection/update', body), connectionValue) };
      }
      return {
        update: graphqlOutcome(
          await twin.graphql(auth, TENANT_NAMES[tenant], 'updateConnection', { id, ...change }),
          'updateConnection',
        ),
      };
    }
    default:
      return null;
  }
}

// ------------------------------------------------------------------------------------------------------
// Arbitraries
// ------------------------------------------------------------------------------------------------------

/** Names both protocols accept the shape of: seeded ones (taken), fresh ones, in any case, padded, or blank. */
const shapedName: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom(...DEPARTMENTS, 'Principal', 'Compras', 'Balcão', 'Caixa 2'), fc.boolean(), fc.boolean())
      .map(([name, upper, padded]) => {
        const cased = upper ? name.toUpperCase() : name;
        return padded ? ` ${cased} ` : cased;
      }),
  },
  { weight: 1, arbitrary: fc.constantFrom('   ', 'x'.repeat(80), 'Setor 𝒜 ção') },
);
/**
 * Any name, also ones the REST schema refuses before the tenant is read (empty, over 80): only in the
 * caller's own tenant, where that order of checks cannot tell the protocols apart.
 */
const anyName: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: shapedName },
  { weight: 1, arbitrary: fc.constantFrom('', 'y'.repeat(81)) },
);

const recordRef: fc.Arbitrary<RecordRef> = fc.oneof(
  { weight: 6, arbitrary: fc.nat(5).map<RecordRef>((own) => ({ own })) },
  { weight: 1, arbitrary: fc.constant<RecordRef>({ other: true }) },
  { weight: 1, arbitrary: fc.constant<RecordRef>({ unknown: true }) },
);

/** Mostly no version (the base API); else the current one or a stale one (docs/lists.md, Versions). */
const version: fc.Arbitrary<Pick<RecordChange, 'version'>> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constantFrom<RecordChange['version']>('current', 'stale').map((v) => ({ version: v })) },
);
const change = (name: fc.Arbitrary<string>): fc.Arbitrary<RecordChange> =>
  fc
    .tuple(
      fc.oneof(
        { weight: 2, arbitrary: name.map<RecordChange>((n) => ({ name: n })) },
        { weight: 2, arbitrary: fc.boolean().map<RecordChange>((activated) => ({ activated })) },
        {
          weight: 1,
          arbitrary: fc.tuple(name, fc.boolean()).map<RecordChange>(([n, activated]) => ({ name: n, activated })),
        },
      ),
      version,
    )
    .map(([c, v]) => ({ ...c, ...v }));

/** The acting tenant and the names allowed there (see {@link anyName}). */
const where = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ tenant: 'own' as const, name: anyName }) },
  { weight: 1, arbitrary: fc.constant({ tenant: 'other' as const, name: shapedName }) },
);
const caller = fc.oneof({ weight: 6, arbitrary: managerArb }, { weight: 1, arbitrary: anyPrincipalArb });

export const departmentCreateStep: fc.Arbitrary<Step> = fc
  .tuple(caller, where)
  .chain(([who, w]) => w.name.map<Step>((name) => ({ op: 'departmentCreate', who, tenant: w.tenant, name })));
export const departmentUpdateStep: fc.Arbitrary<Step> = fc
  .tuple(caller, where, recordRef)
  .chain(([who, w, target]) =>
    change(w.name).map<Step>((c) => ({ op: 'departmentUpdate', who, tenant: w.tenant, target, change: c })),
  );
export const connectionCreateStep: fc.Arbitrary<Step> = fc
  .tuple(caller, where, recordRef)
  .chain(([who, w, instance]) =>
    w.name.map<Step>((name) => ({ op: 'connectionCreate', who, tenant: w.tenant, instance, name })),
  );
export const connectionUpdateStep: fc.Arbitrary<Step> = fc
  .tuple(caller, where, recordRef)
  .chain(([who, w, target]) =>
    change(w.name).map<Step>((c) => ({ op: 'connectionUpdate', who, tenant: w.tenant, target, change: c })),
  );
