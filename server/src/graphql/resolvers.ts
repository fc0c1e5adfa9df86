import { anonymous } from '../access/caller';
import type { ConnectionDto } from '../instances/service';
import type { RoleDto } from '../roles/service';
import { checkAll, DomainError, invalid, unauthenticated } from '../base/domain-error';
import { checkUserFilter } from '../users/list';
import type { UserPatch } from '../users/service';
import type { UserDto } from '../db/user-dto';
import type { GraphqlDeps } from './index';
import type { GqlConnection, GqlRole, GqlUser, GraphqlContext, MutationResolvers, QueryResolvers } from './types';

/**
 * GraphQL resolvers: read the arguments, call the domain services (server/src/services.ts) with the
 * caller, shape the answer as contracts/schema.graphql says. The route's guard (./index.ts) filtered
 * identity, the path's tenant and each root field's policy before the document was read; the service
 * decides again (server/src/access/policies.ts), so a resolver trusts nothing it was not given.
 * Refusals are domain errors, turned into the contract's codes in one place (./domain-errors.ts).
 */

function signedIn(ctx: GraphqlContext) {
  if (!ctx.auth) throw unauthenticated();
  return ctx.auth;
}

const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id;

/** The contract's User: links ascending by link id, route names ascending. */
function toUser(dto: UserDto): GqlUser {
  return {
    id: dto.id,
    version: dto.version,
    name: dto.name,
    username: dto.username,
    email: dto.email,
    image: dto.image,
    isConnected: dto.isConnected,
    blocked: dto.blocked,
    twoFactorEnabled: dto.twoFactorEnabled,
    twoFactorEnrolmentRequired: dto.twoFactorEnrolmentRequired,
    tenantName: dto.tenantName,
    origin_backoffice: dto.origin_backoffice,
    role: {
      id: dto.role.id,
      name: dto.role.name,
      display_name: dto.role.display_name,
      has_permission_routes: [...dto.role.has_permission_routes].sort(),
      version: dto.role.version,
    },
    userDepartment: dto.userDepartment
      ? {
          id: dto.userDepartment.id,
          name: dto.userDepartment.name,
          activated: dto.userDepartment.activated,
          version: dto.userDepartment.version,
        }
      : null,
    userInstances: dto.userInstances
      .map((l) => ({
        id: l.id,
        instance: {
          id: l.instance.id,
          name: l.instance.name,
          activated: l.instance.activated,
          version: l.instance.version,
        },
      }))
      .sort(byId),
  };
}

/** The contract's Connection: REST's without `tenantName` (GraphQL acts on the path's tenant). */
const toConnection = (c: ConnectionDto): GqlConnection => ({
  id: c.id,
  instance_id: c.instance_id,
  instance_name: c.instance_name,
  name: c.name,
  activated: c.activated,
  phone: c.phone,
  status: c.status,
  last_seen_at: c.last_seen_at,
  version: c.version,
});

const toRole = (role: RoleDto): GqlRole => ({
  id: role.id,
  name: role.name,
  display_name: role.display_name,
  has_permission_routes: role.has_permission_routes,
  version: role.version,
});

/** The services name a target user `id`; some operations call that argument `user_id`. */
async function asArgument<T>(field: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DomainError && error.details.field === 'id')
      throw new DomainError(error.kind, error.message, { ...error.details, field });
    throw error;
  }
}

export function createResolvers({ services }: GraphqlDeps): { Query: QueryResolvers; Mutation: MutationResolvers } {
  const { auth, users, roles, departments, instances, audit, attention } = services;
  /** GraphQL acts on the path's tenant only. */
  const inTenant = (ctx: GraphqlContext) => ({ tenantId: ctx.tenant.id });

  const Query: QueryResolvers = {
    async users(_parent, _args, ctx) {
      return (await users.list(signedIn(ctx), ctx.tenant)).map(toUser).sort(byId);
    },

    /** The same service, filters and order as REST `GET /api/users/page`, on the path's tenant. */
    async usersPage(_parent, args, ctx) {
      // Every bad argument at once, as REST's schema refuses them (server/src/test-support/parity-suite.ts).
      const { filter, page, limit } = checkAll({
        filter: () => checkUserFilter(args.filter ?? {}),
        page: () => {
          const page = args.page ?? 1;
          if (!Number.isInteger(page) || page < 1 || page > 1_000_000)
            throw invalid('page', 'page must be a whole number from 1 to 1000000');
          return page;
        },
        limit: () => {
          const limit = args.limit ?? 25;
          if (!Number.isInteger(limit) || limit < 1 || limit > 100)
            throw invalid('limit', 'limit must be a whole number from 1 to 100');
          return limit;
        },
      });
      const order = { sort: args.sort?.field ?? 'name', dir: args.sort?.direction ?? 'asc' } as const;
      const answer = await users.page(signedIn(ctx), ctx.tenant, filter, order, page, limit);
      return { ...answer, data: answer.data.map(toUser) };
    },

    async userInfos(_parent, _args, ctx) {
      return toUser(await users.me(signedIn(ctx)));
    },

    async userInstances(_parent, args, ctx) {
      return asArgument('user_id', () => users.instanceLinks(signedIn(ctx), inTenant(ctx), args.user_id));
    },

    async instances(_parent, args, ctx) {
      return instances.summaries(signedIn(ctx), ctx.tenant, args.remove_ids ?? []);
    },

    async onlineUsers(_parent, args, ctx) {
      const online = (
        await users.online(signedIn(ctx), ctx.tenant, { exceptUserId: args.user_id, instanceId: args.instance_id })
      ).map(toUser);
      return online.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    },

    async roles(_parent, _args, ctx) {
      return (await roles.list(signedIn(ctx))).map(toRole);
    },

    async departments(_parent, _args, ctx) {
      return departments.list(signedIn(ctx), ctx.tenant);
    },

    async connections(_parent, _args, ctx) {
      return (await instances.connections(signedIn(ctx), ctx.tenant)).map(toConnection);
    },

    /** The same service, scope and refusals as REST `GET /api/audit`; the caller's tenant decides the scope. */
    async auditRecords(_parent, args, ctx) {
      return audit.list(signedIn(ctx), args);
    },

    /** The same service, scope and refusals as REST `GET /api/audit/names` (its answer's `data`). */
    async auditNames(_parent, args, ctx) {
      return (await audit.names(signedIn(ctx), args)).data;
    },

    /** What needs attention now (docs/panel.md, Home): the service decides each kind and the scope. */
    async attention(_parent, _args, ctx) {
      return attention.list(signedIn(ctx));
    },
  };

  const Mutation: MutationResolvers = {
    async logIn(_parent, args, ctx) {
      const session = await auth.signIn(
        anonymous(ctx.origin),
        {
          email: args.email,
          password: args.password,
          ip: null,
          remoteAddress: ctx.remoteAddress,
          origin: ctx.origin,
          tenantId: ctx.tenant.id,
          otp: args.otp ?? null,
          remember: args.remember === true,
          newPassword: args.newPassword ?? null,
          userAgent: ctx.userAgent,
        },
        'newPassword',
      );
      return {
        token: session.token,
        expires_in: session.expiresIn,
        user: toUser(session.user),
        recovery_codes: session.recoveryCodes,
      };
    },

    async refreshToken(_parent, _args, ctx) {
      // The guard let an expired-but-refreshable token through only because this is the sole root field.
      const next = await auth.refresh(signedIn(ctx));
      return { token: next.token, expires_in: next.expiresIn };
    },

    async connected(_parent, _args, ctx) {
      await users.setConnected(signedIn(ctx), true);
      return true;
    },

    async disconnected(_parent, _args, ctx) {
      await users.setConnected(signedIn(ctx), false);
      return true;
    },

    async newUser(_parent, args, ctx) {
      return toUser(await users.create(signedIn(ctx), ctx.tenant, args));
    },

    async updateUser(_parent, args, ctx) {
      const patch: UserPatch = {
        username: args.username,
        name: args.name,
        email: args.email,
        image: args.image,
        role_id: args.role_id,
        user_department_id: args.user_department_id,
        // null: no instances, like an empty list.
        chosen_instances: args.chosen_instances === undefined ? undefined : (args.chosen_instances ?? []),
        current_password: args.current_password,
        version: args.version,
      };
      return toUser(await users.update(signedIn(ctx), inTenant(ctx), args.id, patch));
    },

    async updateUserPassword(_parent, args, ctx) {
      const session = await users.changeOwnPassword(signedIn(ctx), args.password, args.current_password);
      return { token: session.token, expires_in: session.expiresIn, user: toUser(session.user) };
    },

    async deleteUser(_parent, args, ctx) {
      await users.remove(signedIn(ctx), inTenant(ctx), args.id);
      return true;
    },

    async disconnectUser(_parent, args, ctx) {
      await asArgument('user_id', () => users.disconnect(signedIn(ctx), inTenant(ctx), args.user_id));
      return true;
    },

    async updateUserSettings(_parent, args, ctx) {
      return asArgument('user_id', () =>
        users.updateSettings(signedIn(ctx), inTenant(ctx), args.user_id, {
          two_factor_enabled: args.two_factor_enabled ?? undefined,
          two_factor_enrolment_required: args.two_factor_enrolment_required ?? undefined,
        }),
      );
    },

    async deleteUserInstance(_parent, args, ctx) {
      await users.removeInstanceLink(signedIn(ctx), ctx.tenant, args.id);
      return true;
    },

    async createDepartment(_parent, args, ctx) {
      return departments.create(signedIn(ctx), ctx.tenant, { name: args.name });
    },

    async updateDepartment(_parent, args, ctx) {
      return departments.update(signedIn(ctx), ctx.tenant, args.id, {
        name: args.name ?? undefined,
        activated: args.activated ?? undefined,
        version: args.version,
      });
    },

    async createConnection(_parent, args, ctx) {
      return toConnection(
        await instances.createConnection(signedIn(ctx), ctx.tenant, { instance_id: args.instance_id, name: args.name }),
      );
    },

    async updateConnection(_parent, args, ctx) {
      return toConnection(
        await instances.updateConnection(signedIn(ctx), ctx.tenant, args.id, {
          name: args.name ?? undefined,
          activated: args.activated ?? undefined,
          version: args.version,
        }),
      );
    },
  };

  return { Query, Mutation };
}
