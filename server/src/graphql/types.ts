import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  AttentionQuery,
  AuditNamesQuery,
  AuditRecordsQuery,
  ConnectionsQuery,
  DepartmentsQuery,
  InstancesQuery,
  LogInMutation,
  RefreshTokenMutation,
  RolesQuery,
  UpdateUserPasswordMutation,
  UpdateUserSettingsMutation,
  UserInfosQuery,
  UsersPageQuery,
} from '../../../src/generated/graphql';
import type { AuditOrigin } from '../audit/trail';
import type { Actor } from '../access/caller';
import type { TenantRef } from '../tenants/scope';

/**
 * Hand-written resolver types for contracts/schema.graphql. Object shapes come from the generated
 * operation types (those operations select every field, so their result types are the full object
 * types); argument types are written out after input coercion (lists are always arrays here).
 */

/** With the record's `version` (docs/lists.md, Versions), which not every operation of the SPA selects. */
type Versioned<T> = T & { version: number };
type SessionUser = UserInfosQuery['userInfos'];
export type GqlRole = Versioned<RolesQuery['roles'][number]>;
export type GqlDepartment = Versioned<DepartmentsQuery['departments'][number]>;
export type GqlConnection = Versioned<ConnectionsQuery['connections'][number]>;
export type GqlInstance = Versioned<InstancesQuery['instances'][number]>;
export type GqlUserInstance = { id: number; instance: GqlInstance };
export type GqlUser = Versioned<Omit<SessionUser, 'role' | 'userDepartment' | 'userInstances'>> & {
  role: Versioned<SessionUser['role']>;
  userDepartment: Versioned<NonNullable<SessionUser['userDepartment']>> | null;
  userInstances: GqlUserInstance[];
};
export type GqlAuthPayload = UpdateUserPasswordMutation['updateUserPassword'];
export type GqlTokenPayload = RefreshTokenMutation['refreshToken'];
export type GqlLogInPayload = LogInMutation['logIn'];
export type GqlUserSettings = UpdateUserSettingsMutation['updateUserSettings'];
export type GqlAuditPage = AuditRecordsQuery['auditRecords'];
export type GqlAuditName = AuditNamesQuery['auditNames'][number];
export type GqlAttention = AttentionQuery['attention'];
export type GqlUserPage = Omit<UsersPageQuery['usersPage'], 'data'> & { data: GqlUser[] };

/** What the route's preHandler resolved, handed to every resolver. */
export interface GraphqlContext {
  /** The caller; null only for operations that need no token (`logIn`, introspection). */
  auth: Actor | null;
  /** The tenant of the path (`/{tenant}/graphql`): existing, not deleted, and the caller's or the caller is staff. */
  tenant: TenantRef;
  /** The connection's own address. */
  remoteAddress: string;
  /** The request's `User-Agent` (null when none), kept with a session a `logIn` begins. */
  userAgent: string | null;
  /** The request's id and address, for the audit log (server/src/audit/trail.ts). */
  origin: AuditOrigin;
}

export interface ServerContext extends GraphqlContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

export type NoArgs = Record<string, never>;

export interface QueryArgs {
  users: NoArgs;
  usersPage: {
    filter?: {
      q?: string | null;
      role?: number | null;
      department?: string | null;
      blocked?: boolean | null;
      online?: boolean | null;
      twoFactor?: boolean | null;
    } | null;
    sort?: {
      field?: 'name' | 'email' | 'role' | 'department' | 'presence' | null;
      direction?: 'asc' | 'desc' | null;
    } | null;
    page?: number | null;
    limit?: number | null;
  };
  userInfos: NoArgs;
  userInstances: { user_id: number };
  instances: { remove_ids?: number[] | null };
  onlineUsers: { user_id?: number | null; instance_id?: number | null };
  roles: NoArgs;
  departments: NoArgs;
  connections: NoArgs;
  auditRecords: {
    from?: string | null;
    to?: string | null;
    actorId?: number | null;
    tenantId?: number | null;
    operation?: string[] | null;
    targetType?: string | null;
    targetId?: number | null;
    after?: string | null;
    limit?: number | null;
  };
  auditNames: {
    of: string;
    targetType?: string | null;
    q?: string | null;
    id?: number | null;
    limit?: number | null;
  };
  attention: NoArgs;
}

export interface QueryResults {
  users: GqlUser[];
  usersPage: GqlUserPage;
  userInfos: GqlUser;
  userInstances: GqlUserInstance[];
  instances: GqlInstance[];
  onlineUsers: GqlUser[];
  roles: GqlRole[];
  departments: GqlDepartment[];
  connections: GqlConnection[];
  auditRecords: GqlAuditPage;
  auditNames: GqlAuditName[];
  attention: GqlAttention;
}

export interface MutationArgs {
  logIn: {
    email: string;
    password: string;
    remember?: boolean | null;
    otp?: string | null;
    newPassword?: string | null;
  };
  refreshToken: NoArgs;
  connected: NoArgs;
  disconnected: NoArgs;
  newUser: {
    username: string;
    name: string;
    email: string;
    password: string;
    role_id: number;
    user_department_id?: number | null;
    chosen_instances?: number[] | null;
  };
  /** `undefined` = omitted (unchanged); `null` = explicit null. */
  updateUser: {
    id: number;
    username?: string | null;
    name?: string | null;
    image?: string | null;
    email?: string | null;
    role_id?: number | null;
    user_department_id?: number | null;
    chosen_instances?: number[] | null;
    current_password?: string | null;
    version?: number | null;
  };
  updateUserPassword: { password: string; current_password?: string | null };
  deleteUser: { id: number };
  disconnectUser: { user_id: number };
  deleteUserInstance: { id: number };
  /** `undefined` or null = unchanged. */
  updateUserSettings: {
    user_id: number;
    two_factor_enabled?: boolean | null;
    two_factor_enrolment_required?: boolean | null;
  };
  createDepartment: { name: string };
  /** `undefined` or null = unchanged. */
  updateDepartment: { id: number; name?: string | null; activated?: boolean | null; version?: number | null };
  createConnection: { instance_id: number; name: string };
  /** `undefined` or null = unchanged. */
  updateConnection: { id: number; name?: string | null; activated?: boolean | null; version?: number | null };
}

export interface MutationResults {
  logIn: GqlLogInPayload;
  refreshToken: GqlTokenPayload;
  connected: boolean;
  disconnected: boolean;
  newUser: GqlUser;
  updateUser: GqlUser;
  updateUserPassword: GqlAuthPayload;
  deleteUser: boolean;
  disconnectUser: boolean;
  deleteUserInstance: boolean;
  updateUserSettings: GqlUserSettings;
  createDepartment: GqlDepartment;
  updateDepartment: GqlDepartment;
  createConnection: GqlConnection;
  updateConnection: GqlConnection;
}

export type Resolver<Args, Result> = (parent: unknown, args: Args, context: GraphqlContext) => Promise<Result>;

export type QueryResolvers = { [K in keyof QueryArgs]: Resolver<QueryArgs[K], QueryResults[K]> };
export type MutationResolvers = { [K in keyof MutationArgs]: Resolver<MutationArgs[K], MutationResults[K]> };
