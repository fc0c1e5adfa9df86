import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import type { EventBus } from '../events';
import { instanceDto, instanceQuery, loadInstanceDto, type InstanceDto } from '../instances/instance-dto';
import { startSync } from '../instances/sync';
import type { AuthContext } from '../plugins/auth';
import { resolveTenant, type TenantRef } from '../tenants/scope';
import { caller, type Handler, type HandlerDeps } from './types';

/** The instance `id` of the tenant named in the request; 404 when it belongs to another tenant. */
async function targetInstance(db: Kysely<Database>, auth: AuthContext, tenantName: string, id: number) {
  const tenant = await resolveTenant(db, auth, tenantName);
  const row = await db.selectFrom('instances').select(['id', 'tenant_id']).where('id', '=', id).where('tenant_id', '=', tenant.id).executeTakeFirst();
  if (!row) throw notFound('Instance not found');
  return { tenant, row };
}

/** Instance names are unique within a tenant, ignoring case. */
async function assertNameFree(db: Kysely<Database>, tenant: TenantRef, name: string, exceptId?: number): Promise<void> {
  let query = db.selectFrom('instances').select('id').where('tenant_id', '=', tenant.id).where(sql`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw conflict('An instance with this name already exists', 'name');
}

async function publishInstance(db: Kysely<Database>, events: EventBus, id: number): Promise<InstanceDto> {
  const dto = await loadInstanceDto(db, id);
  if (!dto) throw notFound('Instance not found');
  events.publish(dto.tenantName, 'InstanceUpdated', dto);
  return dto;
}

export function instanceHandlers({ db, events }: HandlerDeps) {
  const instanceList: Handler<'instanceList'> = async (request) => {
    const tenant = await resolveTenant(db, caller(request), request.query.tenantName);
    const rows = await instanceQuery(db).where('i.tenant_id', '=', tenant.id).orderBy('i.id').execute();
    return rows.map(instanceDto);
  };

  const instanceCreate: Handler<'instanceCreate'> = async (request, reply) => {
    const body = request.body;
    const tenant = await resolveTenant(db, caller(request), body.tenantName);
    const name = body.name.trim();
    if (!name) throw badRequest('body/name', 'must not be blank');
    await assertNameFree(db, tenant, name);
    const created = await db
      .insertInto('instances')
      .values({ tenant_id: tenant.id, name, is_official: body.isOfficial, is_unlimited: body.isUnlimited })
      .returning('id')
      .executeTakeFirstOrThrow();
    reply.code(201);
    return publishInstance(db, events, created.id);
  };

  const instanceUpdate: Handler<'instanceUpdate'> = async (request) => {
    const body = request.body;
    const { tenant, row } = await targetInstance(db, caller(request), body.tenantName, body.id);
    const set: { name?: string; activated?: boolean; is_official?: boolean; is_unlimited?: boolean } = {};
    if (body.name !== undefined) {
      set.name = body.name.trim();
      if (!set.name) throw badRequest('body/name', 'must not be blank');
      await assertNameFree(db, tenant, set.name, row.id);
    }
    if (body.activated !== undefined) set.activated = body.activated;
    if (body.isOfficial !== undefined) set.is_official = body.isOfficial;
    if (body.isUnlimited !== undefined) set.is_unlimited = body.isUnlimited;
    if (Object.keys(set).length > 0) await db.updateTable('instances').set(set).where('id', '=', row.id).execute();
    return publishInstance(db, events, row.id);
  };

  const instanceSyncMessages: Handler<'instanceSyncMessages'> = async (request, reply) => {
    const body = request.body;
    if (!body.unlimitedSync && body.daysAgo === null) throw badRequest('body/daysAgo', 'is required unless unlimitedSync is true');
    const { tenant, row } = await targetInstance(db, caller(request), body.tenantName, body.id);
    const dto = await startSync(
      { db, events, log: request.log },
      { instanceId: row.id, tenantId: tenant.id, daysAgo: body.unlimitedSync ? null : body.daysAgo },
    );
    if (!dto) throw conflict('A sync of this instance is already running', 'id');
    reply.code(202);
    return dto;
  };

  const connectionList: Handler<'connectionList'> = async (request) => {
    const tenant = await resolveTenant(db, caller(request), request.query.tenantName);
    const rows = await db
      .selectFrom('connections as c')
      .innerJoin('instances as i', 'i.id', 'c.instance_id')
      .select(['c.id', 'c.instance_id', 'i.name as instance_name', 'c.phone', 'c.status', 'c.last_seen_at'])
      .where('c.tenant_id', '=', tenant.id)
      .orderBy('c.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      tenantName: tenant.name,
      instance_id: r.instance_id,
      instance_name: r.instance_name,
      phone: r.phone,
      status: r.status,
      last_seen_at: r.last_seen_at?.toISOString() ?? null,
    }));
  };

  return { instanceList, instanceCreate, instanceUpdate, instanceSyncMessages, connectionList };
}
