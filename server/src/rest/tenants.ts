import { sql, type Kysely } from 'kysely';
import { cnpjProblem, formatCnpj, type CnpjProblem } from '../../../src/domain/cnpj';
import type { Database } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import type { AuthContext } from '../plugins/auth';
import { assertSameTenant, resolveTenant } from '../tenants/scope';
import { searchTenants } from '../tenants/search';
import { tenantQuery, toTenantDto } from '../tenants/tenant-dto';
import { caller, type Handler, type HandlerDeps } from './types';

/** What the 400 says when a CNPJ passes the contract's pattern but not the rule of src/domain/cnpj.ts. */
const CNPJ_REFUSALS: Readonly<Record<CnpjProblem, string>> = {
  length: 'invalid CNPJ: 12 letters or digits and 2 check digits expected',
  format: 'invalid CNPJ: letters and digits, bare or masked as AA.AAA.AAA/AAAA-DD',
  checkDigitLetter: 'invalid CNPJ: the last two characters are check digits, always digits',
  repeated: 'invalid CNPJ: the first 12 characters are one character repeated',
  checkDigits: 'invalid CNPJ check digits',
};

async function tenantDto(db: Kysely<Database>, auth: AuthContext, id: number) {
  const row = await tenantQuery(db).where('t.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Tenant not found');
  assertSameTenant(auth, row.id);
  return toTenantDto(row);
}

export function tenantHandlers({ db }: HandlerDeps) {
  const tenantList: Handler<'tenantList'> = async (request) => {
    const auth = caller(request);
    let query = db.selectFrom('tenants as t').select(['t.id', 't.name']).where('t.deleted_at', 'is', null).orderBy('t.name');
    if (!auth.originBackoffice) query = query.where('t.id', '=', auth.tenantId);
    if (request.params.filterUsers === 'true') {
      query = query.where(sql<boolean>`exists (select 1 from users u where u.tenant_id = t.id and u.deleted_at is null)`);
    }
    return query.execute();
  };

  const tenantCreate: Handler<'tenantCreate'> = async (request, reply) => {
    // Creating customer companies is back-office work; a tenant's own staff never may.
    if (!caller(request).originBackoffice) throw forbidden(['tenants']);
    const body = request.body;
    const problem = cnpjProblem(body.cnpj);
    if (problem !== null) throw badRequest('body/cnpj', CNPJ_REFUSALS[problem]);
    const exists = await db.selectFrom('tenants').select('id').where('name', '=', body.name).executeTakeFirst();
    if (exists) throw conflict('A tenant with this name already exists', 'name');
    const known = await db.selectFrom('feature_options').select('option').execute();
    const unknown = body.features.filter((f) => !known.some((k) => k.option === f));
    if (unknown.length) throw badRequest('body/features', `unknown feature: ${unknown.join(', ')}`);
    const id = await db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('tenants')
        .values({
          name: body.name,
          // Masked and upper-case, whatever the caller sent (the database's CHECK, migration 0008).
          cnpj: formatCnpj(body.cnpj),
          template: body.template,
          pool: body.pool,
          plan: body.plan,
          user_limit: body.userLimit,
          ticket_limit: body.ticketLimit,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('tenant_features')
        .values(known.map((k) => ({ tenant_id: created.id, option: k.option, enabled: body.features.includes(k.option) })))
        .execute();
      return created.id;
    });
    reply.code(201);
    return tenantDto(db, caller(request), id);
  };

  const setDeleted = (deleted: boolean): Handler<'tenantDelete'> & Handler<'tenantRestore'> => async (request) => {
    const auth = caller(request);
    const row = await db.selectFrom('tenants').select(['id', 'name', 'deleted_at']).where('id', '=', request.body.id).executeTakeFirst();
    if (!row) throw notFound('Tenant not found');
    assertSameTenant(auth, row.id);
    if (deleted && row.id === auth.tenantId) throw conflict('You cannot delete your own tenant');
    if (deleted === (row.deleted_at !== null)) throw conflict(deleted ? 'The tenant is already deleted' : 'The tenant is not deleted');
    await db.updateTable('tenants').set({ deleted_at: deleted ? new Date() : null }).where('id', '=', row.id).execute();
    return tenantDto(db, auth, row.id);
  };

  const tenantSetPlan: Handler<'tenantSetPlan'> = async (request) => {
    const auth = caller(request);
    const body = request.body;
    await tenantDto(db, auth, body.id);
    await db.updateTable('tenants').set({ plan: body.plan, user_limit: body.user, ticket_limit: body.ticket }).where('id', '=', body.id).execute();
    return tenantDto(db, auth, body.id);
  };

  const featureList: Handler<'featureList'> = async (request) => {
    const tenant = await resolveTenant(db, caller(request), request.query.tenantName);
    const rows = await db
      .selectFrom('feature_options as o')
      .leftJoin('tenant_features as f', (join) => join.onRef('f.option', '=', 'o.option').on('f.tenant_id', '=', tenant.id))
      .select(['o.option', 'f.enabled'])
      .orderBy('o.option')
      .execute();
    return rows.map((r) => ({ option: r.option, enabled: r.enabled ?? false, tenantName: tenant.name }));
  };

  const featureUpdate: Handler<'featureUpdate'> = async (request) => {
    const body = request.body;
    const tenant = await resolveTenant(db, caller(request), body.tenantName);
    const option = await db.selectFrom('feature_options').select('option').where('option', '=', body.option).executeTakeFirst();
    if (!option) throw notFound('Feature not found');
    await db
      .insertInto('tenant_features')
      .values({ tenant_id: tenant.id, option: body.option, enabled: body.enabled })
      .onConflict((oc) => oc.columns(['tenant_id', 'option']).doUpdateSet({ enabled: body.enabled, updated_at: new Date() }))
      .execute();
    return { option: body.option, enabled: body.enabled, tenantName: tenant.name };
  };

  const tenantPaginated: Handler<'tenantPaginated'> = async (request) => {
    const auth = caller(request);
    const body = request.body;
    const page = body.pagination_page ?? 1;
    const limit = body.pagination_limit ?? 4;
    const { ids, total } = await searchTenants(
      db,
      { tenantId: auth.originBackoffice ? null : auth.tenantId },
      {
        search: body.search ?? '',
        sort: body.sort_name ?? 'id',
        direction: (body.sort_type ?? 'DESC').toLowerCase() === 'asc' ? 'asc' : 'desc',
        page,
        limit,
        onlyDeleted: body.only_deleted ?? false,
        filterUsers: body.filter_users ?? false,
      },
    );
    const rows = ids.length ? await tenantQuery(db).where('t.id', 'in', ids).execute() : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      data: ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [toTenantDto(row)] : [];
      }),
      total,
      page,
      limit,
      last_page: Math.max(1, Math.ceil(total / limit)),
    };
  };

  return {
    tenantPaginated,
    tenantList,
    tenantCreate,
    tenantDelete: setDeleted(true),
    tenantRestore: setDeleted(false),
    tenantSetPlan,
    featureList,
    featureUpdate,
  };
}
