import type { Kysely, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { LoginResult, LoginInput } from '../auth/login';
import type { TokenService } from '../auth/tokens';
import type { ServerConfig } from '../config';
import { hashPassword } from '../db/password';
import { passwordRefusal } from '../users/password-policy';
import type { Database, UsersTable } from '../db/schema';
import { allows, type AuthContext } from '../plugins/auth';
import { loadUserDtos, permittedRoutesOf, type UserDto } from '../users/user-dto';
import { badInput, forbidden, invalidCredentials, invalidTwoFactorCode, notFound, tooManyAttempts, twoFactorRequired, unauthenticated, userLimitReached } from './errors';
import type { GqlRole, GqlUser, GqlUserInstance, GraphqlContext, MutationResolvers, QueryResolvers } from './types';

export interface ResolverDeps {
  db: Kysely<Database>;
  config: ServerConfig;
  tokens: TokenService;
  login: (input: LoginInput) => Promise<LoginResult>;
}

/** Route permissions of the operations (schema descriptions, "Permission: route `x`"). */
const USERS = ['users'] as const;
const ROLES = ['roles-list', 'roles-edit', 'users'] as const;

const USERNAME = /^[A-Za-z0-9._-]{3,40}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function signedIn(ctx: GraphqlContext): AuthContext {
  if (!ctx.auth) throw unauthenticated();
  return ctx.auth;
}

function permitted(ctx: GraphqlContext, routes: readonly string[]): AuthContext {
  const auth = signedIn(ctx);
  if (!allows(auth, routes)) throw forbidden(`Forbidden: needs route permission ${routes.map((r) => `\`${r}\``).join(' or ')}`);
  return auth;
}

const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id;

/** The contract's User: links ascending by link id, route names ascending. */
function toUser(dto: UserDto): GqlUser {
  return {
    id: dto.id,
    name: dto.name,
    username: dto.username,
    email: dto.email,
    image: dto.image,
    isConnected: dto.isConnected,
    blocked: dto.blocked,
    twoFactorEnabled: dto.twoFactorEnabled,
    tenantName: dto.tenantName,
    origin_backoffice: dto.origin_backoffice,
    role: { id: dto.role.id, name: dto.role.name, display_name: dto.role.display_name, has_permission_routes: [...dto.role.has_permission_routes].sort() },
    userDepartment: dto.userDepartment ? { id: dto.userDepartment.id, name: dto.userDepartment.name, activated: dto.userDepartment.activated } : null,
    userInstances: dto.userInstances
      .map((l) => ({ id: l.id, instance: { id: l.instance.id, name: l.instance.name, activated: l.instance.activated } }))
      .sort(byId),
  };
}

function isUniqueViolation(error: unknown): error is { constraint?: string } {
  return typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === '23505';
}

// --- argument rules (schema descriptions) ---

function checkUsername(value: string): string {
  if (!USERNAME.test(value)) throw badInput('username', 'username must be 3–40 characters of A–Z a–z 0–9 . _ -');
  return value;
}

function checkName(value: string): string {
  const name = value.trim();
  if (name.length < 1 || name.length > 120) throw badInput('name', 'name must be 1–120 characters');
  return name;
}

function checkEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw badInput('email', 'email must be a valid address of at most 254 characters');
  return email;
}

function checkPassword(value: string): string {
  const refusal = passwordRefusal(value);
  if (refusal) throw badInput('password', refusal);
  return value;
}

function checkImage(value: string): string {
  let ok = value.length <= 2048;
  if (ok) {
    try {
      const url = new URL(value);
      ok = url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      ok = false;
    }
  }
  if (!ok) throw badInput('image', 'image must be an absolute http(s) URL of at most 2048 characters');
  return value;
}

export function createResolvers({ db, config, tokens, login }: ResolverDeps): { Query: QueryResolvers; Mutation: MutationResolvers } {
  async function usersOf(filter: { ids?: readonly number[]; tenantId?: number }): Promise<GqlUser[]> {
    return (await loadUserDtos(db, filter)).map(toUser);
  }

  async function userById(id: number): Promise<GqlUser> {
    const [user] = await usersOf({ ids: [id] });
    if (!user) throw notFound('id', 'User not found');
    return user;
  }

  /** A live user of the path's tenant, else NOT_FOUND on `field`. */
  async function tenantUser(ctx: GraphqlContext, id: number, field: string) {
    const row = await db
      .selectFrom('users')
      .select(['id', 'tenant_id'])
      .where('id', '=', id)
      .where('tenant_id', '=', ctx.tenant.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound(field, 'User not found in this tenant');
    return row;
  }

  async function checkUsernameFree(tenantId: number, username: string, exceptId?: number) {
    let query = db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .where('deleted_at', 'is', null);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    if (await query.executeTakeFirst()) throw badInput('username', 'username is already taken in this tenant');
  }

  /** E-mail addresses log in across the installation, so they are unique among all live users. */
  async function checkEmailFree(email: string, exceptId?: number) {
    let query = db.selectFrom('users').select('id').where(sql`lower(email)`, '=', email).where('deleted_at', 'is', null);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    if (await query.executeTakeFirst()) throw badInput('email', 'a user with this email already exists');
  }

  async function checkRole(roleId: number) {
    const role = await db.selectFrom('roles').select('id').where('id', '=', roleId).executeTakeFirst();
    if (!role) throw notFound('role_id', 'No such role');
  }

  async function checkDepartment(tenantId: number, departmentId: number) {
    const dep = await db.selectFrom('departments').select('id').where('id', '=', departmentId).where('tenant_id', '=', tenantId).executeTakeFirst();
    if (!dep) throw notFound('user_department_id', 'No such department in this tenant');
  }

  async function checkInstances(tenantId: number, ids: readonly number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const found = await db.selectFrom('instances').select('id').where('id', 'in', unique).where('tenant_id', '=', tenantId).execute();
    if (found.length !== unique.length) throw notFound('chosen_instances', 'An instance does not belong to this tenant');
    return unique;
  }

  function rethrowUnique(error: unknown): never {
    if (isUniqueViolation(error)) {
      if (error.constraint?.includes('username')) throw badInput('username', 'username is already taken in this tenant');
      throw badInput('email', 'a user with this email already exists');
    }
    throw error;
  }

  const Query: QueryResolvers = {
    async users(_parent, _args, ctx) {
      permitted(ctx, USERS);
      return (await usersOf({ tenantId: ctx.tenant.id })).sort(byId);
    },

    async userInfos(_parent, _args, ctx) {
      const auth = signedIn(ctx);
      const [user] = await usersOf({ ids: [auth.userId] });
      if (!user) throw unauthenticated();
      return user;
    },

    async userInstances(_parent, args, ctx) {
      permitted(ctx, USERS);
      const user = await tenantUser(ctx, args.user_id, 'user_id');
      const rows = await db
        .selectFrom('user_instances as ui')
        .innerJoin('instances as i', 'i.id', 'ui.instance_id')
        .select(['ui.id', 'i.id as instance_id', 'i.name', 'i.activated'])
        .where('ui.user_id', '=', user.id)
        .orderBy('ui.id')
        .execute();
      return rows.map((r): GqlUserInstance => ({ id: r.id, instance: { id: r.instance_id, name: r.name, activated: r.activated } }));
    },

    async instances(_parent, args, ctx) {
      signedIn(ctx);
      let query = db.selectFrom('instances').select(['id', 'name', 'activated']).where('tenant_id', '=', ctx.tenant.id).orderBy('id');
      const remove = args.remove_ids ?? [];
      if (remove.length > 0) query = query.where('id', 'not in', remove);
      return query.execute();
    },

    async onlineUsers(_parent, args, ctx) {
      signedIn(ctx);
      let query = db
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', ctx.tenant.id)
        .where('deleted_at', 'is', null)
        .where('is_connected', '=', true);
      if (args.user_id != null) query = query.where('id', '!=', args.user_id);
      if (args.instance_id != null) {
        const instanceId = args.instance_id;
        query = query.where((eb) =>
          eb.exists(eb.selectFrom('user_instances as ui').select('ui.id').whereRef('ui.user_id', '=', 'users.id').where('ui.instance_id', '=', instanceId)),
        );
      }
      const ids = (await query.execute()).map((r) => r.id);
      const users = await usersOf({ ids, tenantId: ctx.tenant.id });
      return users.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    },

    async roles(_parent, _args, ctx) {
      permitted(ctx, ROLES);
      const rows = await db.selectFrom('roles').select(['id', 'name', 'display_name']).orderBy('id').execute();
      const roles: GqlRole[] = [];
      for (const row of rows) {
        const routes = await permittedRoutesOf(db, row.id, row.name);
        roles.push({ id: row.id, name: row.name, display_name: row.display_name, has_permission_routes: [...new Set(routes)].sort() });
      }
      return roles;
    },

    async departments(_parent, _args, ctx) {
      signedIn(ctx);
      return db.selectFrom('departments').select(['id', 'name', 'activated']).where('tenant_id', '=', ctx.tenant.id).orderBy('name').orderBy('id').execute();
    },
  };

  const Mutation: MutationResolvers = {
    async logIn(_parent, args, ctx) {
      const result = await login({ email: args.email, password: args.password, ip: null, remoteAddress: ctx.remoteAddress, tenantId: ctx.tenant.id, otp: args.otp ?? null });
      if (!result.ok) {
        if (result.reason === 'throttled') throw tooManyAttempts(result.retryAfter);
        if (result.reason === 'two_factor_required') throw twoFactorRequired();
        if (result.reason === 'invalid_two_factor_code') throw invalidTwoFactorCode();
        throw invalidCredentials();
      }
      return { token: result.token, expires_in: result.expiresIn, user: toUser(result.user) };
    },

    async refreshToken(_parent, _args, ctx) {
      const auth = signedIn(ctx);
      // The preHandler let an expired-but-refreshable token through only because this is the sole root
      // field. Losing the compare-and-swap (a concurrent refresh won) answers 401 `Unauthorized`.
      const next = await tokens.rotate(auth.claims);
      if (!next) throw unauthenticated();
      return { token: next.token, expires_in: next.expiresIn };
    },

    async connected(_parent, _args, ctx) {
      const auth = signedIn(ctx);
      await db.updateTable('users').set({ is_connected: true }).where('id', '=', auth.userId).execute();
      return true;
    },

    async disconnected(_parent, _args, ctx) {
      const auth = signedIn(ctx);
      await db.updateTable('users').set({ is_connected: false }).where('id', '=', auth.userId).execute();
      return true;
    },

    async newUser(_parent, args, ctx) {
      permitted(ctx, USERS);
      const tenantId = ctx.tenant.id;
      const username = checkUsername(args.username);
      const name = checkName(args.name);
      const email = checkEmail(args.email);
      const password = checkPassword(args.password);
      await checkUsernameFree(tenantId, username);
      await checkEmailFree(email);
      await checkRole(args.role_id);
      if (args.user_department_id != null) await checkDepartment(tenantId, args.user_department_id);
      const instances = await checkInstances(tenantId, args.chosen_instances ?? []);
      const passwordHash = await hashPassword(password);

      let id: number;
      try {
        id = await db.transaction().execute(async (trx) => {
          // The tenant row lock serialises concurrent creations against the user limit.
          const tenant = await trx.selectFrom('tenants').select('user_limit').where('id', '=', tenantId).forUpdate().executeTakeFirstOrThrow();
          const { n } = await trx
            .selectFrom('users')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('tenant_id', '=', tenantId)
            .where('deleted_at', 'is', null)
            .executeTakeFirstOrThrow();
          if (n >= tenant.user_limit) throw userLimitReached(tenant.user_limit);
          const created = await trx
            .insertInto('users')
            .values({
              tenant_id: tenantId,
              role_id: args.role_id,
              department_id: args.user_department_id ?? null,
              name,
              username,
              email,
              password_hash: passwordHash,
              origin_backoffice: ctx.tenant.name === config.backofficeTenant,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          if (instances.length > 0) {
            await trx.insertInto('user_instances').values(instances.map((instance_id) => ({ user_id: created.id, instance_id }))).execute();
          }
          return created.id;
        });
      } catch (error) {
        rethrowUnique(error);
      }
      return userById(id);
    },

    async updateUser(_parent, args, ctx) {
      // Anyone may change their OWN name, username, e-mail and avatar; role, department and instances
      // (and anyone else's record) need the `users` permission.
      const auth = signedIn(ctx);
      const ownProfile = args.id === auth.userId && args.role_id === undefined && args.user_department_id === undefined && args.chosen_instances === undefined;
      if (!ownProfile) permitted(ctx, USERS);
      const target = await tenantUser(ctx, args.id, 'id');
      const tenantId = ctx.tenant.id;
      const set: Updateable<UsersTable> = {};
      if (args.username !== undefined) {
        if (args.username === null) throw badInput('username', 'username cannot be null');
        set.username = checkUsername(args.username);
      }
      if (args.name !== undefined) {
        if (args.name === null) throw badInput('name', 'name cannot be null');
        set.name = checkName(args.name);
      }
      if (args.email !== undefined) {
        if (args.email === null) throw badInput('email', 'email cannot be null');
        set.email = checkEmail(args.email);
      }
      if (args.image !== undefined) set.image = args.image === null ? null : checkImage(args.image);
      if (args.role_id !== undefined && args.role_id === null) throw badInput('role_id', 'role_id cannot be null');
      if (set.username !== undefined) await checkUsernameFree(tenantId, set.username, target.id);
      if (set.email !== undefined) await checkEmailFree(set.email, target.id);
      if (args.role_id != null) {
        await checkRole(args.role_id);
        set.role_id = args.role_id;
      }
      if (args.user_department_id !== undefined) {
        if (args.user_department_id !== null) await checkDepartment(tenantId, args.user_department_id);
        set.department_id = args.user_department_id;
      }
      const instances = args.chosen_instances === undefined ? undefined : await checkInstances(tenantId, args.chosen_instances ?? []);

      try {
        await db.transaction().execute(async (trx) => {
          if (Object.keys(set).length > 0) await trx.updateTable('users').set(set).where('id', '=', target.id).execute();
          if (instances !== undefined) {
            let removal = trx.deleteFrom('user_instances').where('user_id', '=', target.id);
            if (instances.length > 0) removal = removal.where('instance_id', 'not in', instances);
            await removal.execute();
            if (instances.length > 0) {
              await trx
                .insertInto('user_instances')
                .values(instances.map((instance_id) => ({ user_id: target.id, instance_id })))
                .onConflict((oc) => oc.columns(['user_id', 'instance_id']).doNothing())
                .execute();
            }
          }
        });
      } catch (error) {
        rethrowUnique(error);
      }
      return userById(target.id);
    },

    async updateUserPassword(_parent, args, ctx) {
      const auth = signedIn(ctx);
      const passwordHash = await hashPassword(checkPassword(args.password));
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', auth.userId).execute();
      await tokens.revokeUser(auth.userId);
      const { token_version } = await db.selectFrom('users').select('token_version').where('id', '=', auth.userId).executeTakeFirstOrThrow();
      const session = await tokens.issue(auth.userId, token_version);
      const [user] = await usersOf({ ids: [auth.userId] });
      if (!user) throw unauthenticated();
      return { token: session.token, expires_in: session.expiresIn, user };
    },

    async deleteUser(_parent, args, ctx) {
      const auth = permitted(ctx, USERS);
      const target = await tenantUser(ctx, args.id, 'id');
      if (target.id === auth.userId) throw badInput('id', 'You cannot delete yourself');
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('user_instances').where('user_id', '=', target.id).execute();
        await trx.updateTable('users').set({ deleted_at: new Date(), is_connected: false }).where('id', '=', target.id).execute();
      });
      await tokens.revokeUser(target.id);
      return true;
    },

    async disconnectUser(_parent, args, ctx) {
      permitted(ctx, USERS);
      const target = await tenantUser(ctx, args.user_id, 'user_id');
      await db.updateTable('users').set({ is_connected: false }).where('id', '=', target.id).execute();
      await tokens.revokeUser(target.id);
      return true;
    },

    async deleteUserInstance(_parent, args, ctx) {
      permitted(ctx, USERS);
      const link = await db
        .selectFrom('user_instances as ui')
        .innerJoin('users as u', 'u.id', 'ui.user_id')
        .select('ui.id')
        .where('ui.id', '=', args.id)
        .where('u.tenant_id', '=', ctx.tenant.id)
        .where('u.deleted_at', 'is', null)
        .executeTakeFirst();
      if (!link) throw notFound('id', 'No such user–instance link in this tenant');
      await db.deleteFrom('user_instances').where('id', '=', link.id).execute();
      return true;
    },
  };

  return { Query, Mutation };
}
