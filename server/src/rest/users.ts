import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { createTwoFactor } from '../auth/two-factor';
import type { Database } from '../db/schema';
import { hashPassword } from '../db/password';
import { passwordRefusal } from '../users/password-policy';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import type { AuthContext } from '../plugins/auth';
import { allows } from '../plugins/auth';
import { assertSameTenant, resolveTenant } from '../tenants/scope';
import { loadUserDtos } from '../users/user-dto';
import { caller, type Handler, type HandlerDeps } from './types';

async function targetUser(db: Kysely<Database>, auth: AuthContext, id: number) {
  const row = await db.selectFrom('users').select(['id', 'tenant_id']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!row) throw notFound('User not found');
  assertSameTenant(auth, row.tenant_id);
  return row;
}

async function userDto(db: Kysely<Database>, id: number) {
  const [dto] = await loadUserDtos(db, { ids: [id] });
  if (!dto) throw notFound('User not found');
  return dto;
}

/** Role, department and instances must exist, and the last two belong to the user's tenant. */
async function checkRefs(
  db: Kysely<Database>,
  tenantId: number,
  refs: { role_id?: number; user_department_id?: number | null; chosen_instances?: readonly number[] },
) {
  if (refs.role_id !== undefined) {
    const role = await db.selectFrom('roles').select('id').where('id', '=', refs.role_id).executeTakeFirst();
    if (!role) throw badRequest('body/role_id', 'no such role');
  }
  if (refs.user_department_id != null) {
    const dep = await db.selectFrom('departments').select('id').where('id', '=', refs.user_department_id).where('tenant_id', '=', tenantId).executeTakeFirst();
    if (!dep) throw badRequest('body/user_department_id', 'no such department in this tenant');
  }
  if (refs.chosen_instances?.length) {
    const found = await db.selectFrom('instances').select('id').where('id', 'in', [...refs.chosen_instances]).where('tenant_id', '=', tenantId).execute();
    if (found.length !== new Set(refs.chosen_instances).size) throw badRequest('body/chosen_instances', 'an instance does not belong to this tenant');
  }
}

async function emailTaken(db: Kysely<Database>, email: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where(sql`lower(email)`, '=', email.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

export function userHandlers({ db, tokens }: HandlerDeps) {
  const twoFactor = createTwoFactor(db);
  const userList: Handler<'userList'> = async (request) => {
    const tenant = await resolveTenant(db, caller(request), request.query.tenantName);
    return loadUserDtos(db, { tenantId: tenant.id });
  };

  const userFindByEmail: Handler<'userFindByEmail'> = async (request) => {
    const auth = caller(request);
    const row = await db
      .selectFrom('users')
      .select(['id', 'name', 'email', 'tenant_id'])
      .where(sql`lower(email)`, '=', request.body.email.toLowerCase())
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row || (!auth.originBackoffice && row.tenant_id !== auth.tenantId)) throw notFound('User not found');
    return { id: row.id, name: row.name, email: row.email };
  };

  const userIsFuncionalUser: Handler<'userIsFuncionalUser'> = async (request) => ({ is_funcional_user: !caller(request).originBackoffice });

  const userCreate: Handler<'userCreate'> = async (request, reply) => {
    const auth = caller(request);
    const body = request.body;
    const refusal = passwordRefusal(body.password);
    if (refusal) throw badRequest('body/password', refusal);
    const tenantId = auth.tenantId;
    await checkRefs(db, tenantId, body);
    if (await emailTaken(db, body.email)) throw conflict('A user with this email already exists', 'email');
    const tenant = await db.selectFrom('tenants').select(['user_limit', 'name']).where('id', '=', tenantId).executeTakeFirstOrThrow();
    const { n } = await db.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).where('tenant_id', '=', tenantId).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    if (n >= tenant.user_limit) throw conflict('The tenant has reached its user limit', 'role_id');
    const id = await db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('users')
        .values({
          tenant_id: tenantId,
          role_id: body.role_id,
          department_id: body.user_department_id ?? null,
          name: body.name,
          username: body.username,
          email: body.email.toLowerCase(),
          password_hash: await hashPassword(body.password),
          origin_backoffice: auth.originBackoffice && auth.tenantId === tenantId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (body.chosen_instances?.length) {
        await trx.insertInto('user_instances').values(body.chosen_instances.map((instance_id) => ({ user_id: created.id, instance_id }))).execute();
      }
      return created.id;
    });
    reply.code(201);
    return userDto(db, id);
  };

  const userUpdate: Handler<'userUpdate'> = async (request) => {
    const auth = caller(request);
    const target = await targetUser(db, auth, request.params.id);
    const body = request.body;
    // Anyone may change their OWN name or e-mail (the name-only and email-only forms); the whole
    // object (role, department, instances, username, password) and other users need `users`.
    if (!allows(auth, ['users']) && !(target.id === auth.userId && !('role_id' in body))) throw forbidden(['users']);
    const refusal = 'role_id' in body && body.password !== undefined ? passwordRefusal(body.password) : null;
    if (refusal) throw badRequest('body/password', refusal);
    if ('email' in body && body.email !== undefined && (await emailTaken(db, body.email, target.id))) {
      throw conflict('A user with this email already exists', 'email');
    }
    if ('role_id' in body) await checkRefs(db, target.tenant_id, body);
    await db.transaction().execute(async (trx) => {
      const set: Record<string, unknown> = {};
      if ('name' in body) set['name'] = body.name;
      if ('email' in body) set['email'] = body.email.toLowerCase();
      if ('role_id' in body) {
        set['username'] = body.username;
        set['role_id'] = body.role_id;
        if (body.image !== undefined) set['image'] = body.image;
        if (body.user_department_id !== undefined) set['department_id'] = body.user_department_id;
        if (body.password !== undefined) set['password_hash'] = await hashPassword(body.password);
        if (body.chosen_instances !== undefined) {
          await trx.deleteFrom('user_instances').where('user_id', '=', target.id).execute();
          if (body.chosen_instances.length) {
            await trx.insertInto('user_instances').values(body.chosen_instances.map((instance_id) => ({ user_id: target.id, instance_id }))).execute();
          }
        }
      }
      await trx.updateTable('users').set(set).where('id', '=', target.id).execute();
    });
    if ('role_id' in body && body.password !== undefined) await tokens.revokeUser(target.id);
    return userDto(db, target.id);
  };

  const userSetBlocked: Handler<'userSetBlocked'> = async (request) => {
    const auth = caller(request);
    const target = await targetUser(db, auth, request.params.id);
    if (target.id === auth.userId && request.body.blocked) throw conflict('You cannot block yourself');
    await db.updateTable('users').set({ blocked: request.body.blocked }).where('id', '=', target.id).execute();
    if (request.body.blocked) await tokens.revokeUser(target.id);
    return userDto(db, target.id);
  };

  const userDelete: Handler<'userDelete'> = async (request) => {
    const auth = caller(request);
    const target = await targetUser(db, auth, request.params.id);
    if (target.id === auth.userId) throw conflict('You cannot delete yourself');
    await db.updateTable('users').set({ deleted_at: new Date(), is_connected: false }).where('id', '=', target.id).execute();
    await tokens.revokeUser(target.id);
    return { message: 'Deleted' };
  };

  /**
   * The two-factor toggle of SPEC §7, kept consistent with enrolment (contract): ON only for an enrolled
   * user (enrolling already turns it on, so this is a no-op or 409), OFF is an administrator's reset.
   */
  const userSettingsUpdate: Handler<'userSettingsUpdate'> = async (request) => {
    const auth = caller(request);
    const target = await targetUser(db, auth, request.params.id);
    const admin = allows(auth, ['users']);
    if (target.id !== auth.userId && !admin) throw forbidden(['users']);
    if (request.body.two_factor_enabled) {
      const row = await db.selectFrom('users').select(['two_factor_enabled']).where('id', '=', target.id).executeTakeFirstOrThrow();
      if (!row.two_factor_enabled) {
        throw conflict('Two-factor can only be turned on by the user, by enrolling an authenticator app on the two-factor screen', 'two_factor_enabled');
      }
      return { user_id: target.id, two_factor_enabled: true };
    }
    // Turning it off without a code is a reset: only with the `users` permission (a user turns its own off
    // with POST /api/two-factor/disable and a code, so a stolen session alone cannot).
    if (!admin) throw forbidden(['users']);
    await twoFactor.reset(target.id);
    return { user_id: target.id, two_factor_enabled: false };
  };

  return { userList, userFindByEmail, userIsFuncionalUser, userCreate, userUpdate, userSetBlocked, userDelete, userSettingsUpdate };
}
