import { sql, type Kysely } from 'kysely';
import { formatCnpj, isValidCnpj } from '../../../src/domain/cnpj';
import type { Database } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import type { AuthContext } from '../plugins/auth';
import { assertSameTenant, resolveTenant } from '../tenants/scope';
import { tenantQuery, toTenantDto } from '../tenants/tenant-dto';
import { caller, type Handler, type HandlerDeps } from './types';

/** A search that reads as (part of) a CNPJ: digits, with or without its `.`, `/` and `-`. */
const CNPJ_FRAGMENT = /^[\d./\s-]*\d[\d./\s-]*$/;

/** Contract sort names → columns; the enum in the contract is the allow-list. */
const SORT_COLUMNS = {
  id: 't.id',
  name: 't.name',
  cnpj: 't.cnpj',
  plan: 't.plan',
  userLimit: 't.user_limit',
  ticketLimit: 't.ticket_limit',
  template: 't.template',
  pool: 't.pool',
  created_at: 't.created_at',
  deleted_at: 't.deleted_at',
} as const;

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
    if (!isValidCnpj(body.cnpj)) throw badRequest('body/cnpj', 'invalid CNPJ check digits');
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
    const search = (body.search ?? '').trim();
    const column = SORT_COLUMNS[body.sort_name ?? 'id'];
    const direction = (body.sort_type ?? 'DESC').toLowerCase() === 'asc' ? 'asc' : 'desc';

    const scoped = () => {
      let q = db.selectFrom('tenants as t').where('t.deleted_at', body.only_deleted ? 'is not' : 'is', null);
      if (!auth.originBackoffice) q = q.where('t.id', '=', auth.tenantId);
      if (body.filter_users) q = q.where(sql<boolean>`exists (select 1 from users u where u.tenant_id = t.id and u.deleted_at is null)`);
      return q;
    };
    const base = scoped();
    const withSort = (q: ReturnType<typeof scoped>) => q.select(['t.id', sql.ref(column).as('s')]);
    /** The search's matches with their sort value: one query per searched column, united. */
    let matches: ReturnType<typeof withSort> | null = null;
    /** A search that no tenant can match (a space, and not part of a CNPJ): no query at all. */
    let nothingMatches = false;
    if (search) {
      const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      // Digits are matched against CNPJs only when the search reads as (part of) one: digits with CNPJ
      // punctuation. Otherwise a name with a digit ('loja-2') would match every CNPJ holding a 2.
      const digits = CNPJ_FRAGMENT.test(search) ? search.replace(/\D/g, '') : '';
      // Name and CNPJ are searched through `search_text` (`name || ' ' || cnpj`, migration 0007): one
      // trigram index and a plain LIKE instead of ILIKE on each column (docs/performance.md). Neither
      // part holds a space, so a search with one can match only across the join, never a real tenant.
      const branches = [
        ...(/\s/.test(search) ? [] : [withSort(scoped().where('t.search_text', 'like', sql<string>`lower(${like})`))]),
        // The stored digits-only column, not an expression over cnpj: its trigram index (migration 0004)
        // serves `like '%digits%'`, where the expression forced a scan of every tenant (~0.8 s at 100,000).
        // A union, not an OR: for an OR PostgreSQL prices the two bitmap scans like reading every tenant.
        ...(digits ? [withSort(scoped().where('t.cnpj_digits', 'like', `%${digits}%`))] : []),
      ];
      const [first, ...rest] = branches;
      if (first) matches = rest.reduce((all, next) => all.union(next), first);
      else nothingMatches = true;
    }
    let total: number;
    let ids: { id: number }[];
    if (nothingMatches) {
      total = 0;
      ids = [];
    } else if (matches !== null) {
      const found = matches;
      // One scan of the matches for both the count and the page. Two queries read the trigram matches
      // twice, and the page query often walked the sort column's index instead, filtering row by row
      // until ten matched: ~100 ms when the matches sort late (bench/scale.ts, 100,000 tenants).
      const dir = sql.raw(direction);
      const row = await db
        .with((cte) => cte('m').materialized(), () => found)
        .selectNoFrom([
          sql<number>`(select count(*)::int from m)`.as('total'),
          sql<number[]>`array(select m.id from m order by m.s ${dir}, m.id ${dir} limit ${limit} offset ${(page - 1) * limit})`.as('ids'),
        ])
        .executeTakeFirstOrThrow();
      total = row.total;
      ids = row.ids.map((id) => ({ id: Number(id) }));
    } else {
      total = (await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow()).total;
      ids = await base
        .select('t.id')
        .orderBy(sql.ref(column), direction)
        .orderBy('t.id', direction)
        .limit(limit)
        .offset((page - 1) * limit)
        .execute();
    }
    const rows = ids.length ? await tenantQuery(db).where('t.id', 'in', ids.map((r) => r.id)).execute() : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      data: ids.flatMap((r) => {
        const row = byId.get(r.id);
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
