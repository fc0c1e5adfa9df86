import { PRINCIPAL_USER, type FixtureUserKey, type PrincipalName, type TenantKey, type Twins } from './parity';

/** The steps of the differential cases as plain data (./parity-steps.ts), and the case model they act on. */

// ------------------------------------------------------------------------------------------------------
// Step data
// ------------------------------------------------------------------------------------------------------

/** A user a step aims at: a fixture user, the k-th user created in this case (modulo), the caller, or an id nobody has. */
export type UserRef = { fixture: FixtureUserKey } | { created: number } | { self: true } | { unknown: true };
/** A department: none (null), the acting tenant's i-th, another tenant's, or an id nobody has. */
export type DepartmentRef = { none: true } | { own: number } | { other: true } | { unknown: true };
/** Instances: some of the acting tenant's (by index, de-duplicated), plus one of another tenant's or an unknown id. */
export interface InstancesRef {
  own: number[];
  extra?: 'other' | 'unknown';
}
/** A role to give: administrador, operador, the fixture's manager role (./parity-fixture.ts MANAGER_ROLE), or an id nobody has. */
export type RoleRef = 'admin' | 'operator' | 'manager' | 'unknown';
/** A department, instance or connection: the acting tenant's i-th (modulo), one of another tenant, or an id nobody has. */
export type RecordRef = { own: number } | { other: true } | { unknown: true };
/** A rename, an (de)activation, or both. */
export interface RecordChange {
  name?: string;
  activated?: boolean;
  /** Sent with the record's version as the twin holds it now, or a past (or, at 1, a future) one: stale (docs/lists.md, Versions). */
  version?: 'current' | 'stale';
}

export interface UserFields {
  username?: string;
  name?: string;
  email?: string;
  password?: string;
  role?: RoleRef;
  image?: string | null;
  department?: DepartmentRef;
  instances?: InstancesRef;
}

export type SignInEmail = 'exact' | 'upper' | 'mixed';
/**
 * The current password a change of one's own credentials is proven with (server/src/auth/current-password.ts):
 * the caller's own as the case last set it, a wrong one, or none sent.
 */
export type CurrentPassword = 'right' | 'wrong' | 'missing';
export type SignInPassword = 'right' | 'wrong' | 'other-users';
/** Who signs in: a fixture user, the k-th created user, or an address nobody has. */
export type SignInTarget = { fixture: FixtureUserKey } | { created: number } | { unknown: string };

export type Step =
  | {
      op: 'create';
      who: PrincipalName;
      fields: Required<Pick<UserFields, 'username' | 'name' | 'email' | 'password' | 'role'>> & UserFields;
    }
  /** `current`: the current password sent with the whole and e-mail forms (REST UserNameOnly has no such field). */
  | {
      op: 'update';
      who: PrincipalName;
      target: UserRef;
      form: 'whole' | 'email' | 'name';
      fields: UserFields;
      current?: CurrentPassword;
    }
  | { op: 'delete'; who: PrincipalName; target: UserRef }
  /** One's own new password, proven with `current` (GraphQL updateUserPassword: the only way, on both twins). */
  | { op: 'password'; who: PrincipalName; password: string; current: CurrentPassword }
  /** Another user's new password, set by `who` (REST whole-object PUT: the only way, on both twins). */
  | { op: 'setPassword'; who: PrincipalName; target: UserRef; password: string }
  | { op: 'block'; who: PrincipalName; target: UserRef; blocked: boolean }
  /** REST `PATCH /api/user-settings/{id}` ↔ GraphQL `updateUserSettings`. */
  | {
      op: 'twoFactor';
      who: PrincipalName;
      target: UserRef;
      settings: { two_factor_enabled?: boolean; two_factor_enrolment_required?: boolean };
    }
  | { op: 'setLimit'; tenant: TenantKey; headroom: number }
  | {
      op: 'signIn';
      target: SignInTarget;
      email: SignInEmail | string;
      password: SignInPassword | string;
      times: number;
    }
  | { op: 'list'; who: PrincipalName; tenant: 'own' | 'other' }
  /** One page of the users list, filtered and sorted on the server (REST `userPage` ↔ GraphQL `usersPage`). */
  | {
      op: 'page';
      who: PrincipalName;
      tenant: 'own' | 'other';
      filter: {
        /** One user by id: a user of either tenant, an unknown id, or 0 (out of range). */
        id?: UserRef | { zero: true };
        q?: string;
        role?: RoleRef;
        blocked?: boolean;
        online?: boolean;
        twoFactor?: boolean;
        department?: 'none';
      };
      sort: 'name' | 'email' | 'role' | 'department' | 'presence';
      dir: 'asc' | 'desc';
      page: number;
      limit: number;
    }
  | { op: 'roles'; who: PrincipalName }
  | { op: 'departments'; who: PrincipalName; tenant: 'own' | 'other' }
  /** Department and connection changes in the caller's own tenant or the other one (./parity-step-records.ts). */
  | { op: 'departmentCreate'; who: PrincipalName; tenant: 'own' | 'other'; name: string }
  | { op: 'departmentUpdate'; who: PrincipalName; tenant: 'own' | 'other'; target: RecordRef; change: RecordChange }
  | { op: 'connectionCreate'; who: PrincipalName; tenant: 'own' | 'other'; instance: RecordRef; name: string }
  | { op: 'connectionUpdate'; who: PrincipalName; tenant: 'own' | 'other'; target: RecordRef; change: RecordChange }
  | { op: 'session'; user: SessionUser }
  | { op: 'refresh'; user: SessionUser; token: 'current' | 'previous' }
  | { op: 'use'; user: SessionUser; via: 'rest' | 'graphql'; token: 'current' | 'previous' }
  | { op: 'selfPassword'; password: string; current: CurrentPassword }
  | { op: 'logout'; user: SessionUser };

/** Users the refresh cases hold sessions of (aAdmin changes its own password in them, keeping its session). */
export type SessionUser = 'aAdmin' | 'aOp' | 'aPlain';

// ------------------------------------------------------------------------------------------------------
// The case model (shared by both twins, changed only after both answered alike)
// ------------------------------------------------------------------------------------------------------

export interface CreatedUser {
  id: number;
  tenant: TenantKey;
  email: string;
  password: string;
}

export class Model {
  readonly created: CreatedUser[] = [];
  /** User id → the password the case last set (fixture users: their fixture password). */
  readonly passwords = new Map<number, string>();

  constructor(readonly twins: Twins) {}

  /** The id a reference names for a caller (UNKNOWN_ID when there is none). */
  userId(ref: UserRef, who: PrincipalName): number {
    const { users } = this.twins.fixture;
    if ('fixture' in ref) return users[ref.fixture].id;
    if ('self' in ref) {
      const key = PRINCIPAL_USER[who];
      return key ? users[key].id : UNKNOWN_ID;
    }
    if ('created' in ref)
      return this.created.length === 0
        ? UNKNOWN_ID
        : (this.created[ref.created % this.created.length]?.id ?? UNKNOWN_ID);
    return UNKNOWN_ID;
  }

  /** The password a principal's user has now in the case (its fixture one until a step changed it); null without a user. */
  passwordOf(who: PrincipalName): string | null {
    const key = PRINCIPAL_USER[who];
    if (!key) return null;
    const user = this.twins.fixture.users[key];
    return this.passwords.get(user.id) ?? user.password;
  }

  /** The value a step sends as `current_password` (undefined: none sent). */
  currentPassword(who: PrincipalName, current: CurrentPassword | undefined): string | undefined {
    if (current === undefined || current === 'missing') return undefined;
    if (current === 'wrong') return WRONG_PASSWORD;
    return this.passwordOf(who) ?? WRONG_PASSWORD;
  }

  /** The tenant a reference's user belongs to (null for an unknown id). */
  tenantOf(ref: UserRef, who: PrincipalName): TenantKey | null {
    if ('fixture' in ref) return this.twins.fixture.users[ref.fixture].tenant;
    if ('self' in ref) {
      const key = PRINCIPAL_USER[who];
      return key ? this.twins.fixture.users[key].tenant : null;
    }
    if ('created' in ref)
      return this.created.length === 0 ? null : (this.created[ref.created % this.created.length]?.tenant ?? null);
    return null;
  }
}

/** A valid id (contracts: `Id`, 1…2^31−1) no record has. */
export const UNKNOWN_ID = 2_147_483_647;

/** A strong password no user of the cases has. */
export const WRONG_PASSWORD = 'Wrong#Parity-77';
