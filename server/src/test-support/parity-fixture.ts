import { hash as argon2Hash, type Algorithm } from '@node-rs/argon2';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../db/catalog';

/** The fixture both parity twins are seeded with (./parity.ts): tenants, users and the principals that act. */

// ------------------------------------------------------------------------------------------------------
// Constants and fixture
// ------------------------------------------------------------------------------------------------------

/** Password of every user this harness inserts (strong by src/domain/password-strength.ts). */
export const FIXTURE_PASSWORD = 'Parity#Fixture-42';

/** The demo seed is deterministic for a fixed PRNG seed and `now`; both twins get the same. */
export const SEED_NOW = new Date('2026-03-02T15:00:00Z');
export const SEED_PRNG = 20_240_601;

/**
 * argon2id with small parameters for the users the harness and the cases create (server/src/app.ts
 * `hashPassword`); the product's parameters stay in server/src/db/password.ts. The demo logins keep
 * their real hashes (sign-in cost is per stored hash).
 */
export const cheapHash = (password: string): Promise<string> =>
  argon2Hash(password, { algorithm: 2 as Algorithm.Argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });

export type TenantKey = 'backoffice' | 'a' | 'b';
export const TENANT_NAMES: Readonly<Record<TenantKey, string>> = {
  backoffice: 'backoffice',
  a: 'farmacia-central',
  b: 'drogaria-sao-joao',
};

export type FixtureUserKey =
  | 'boAdmin'
  | 'boOp'
  | 'boSpare'
  | 'aAdmin'
  | 'aManager'
  | 'aOp'
  | 'aPlain'
  | 'aBlocked'
  | 'aGone'
  | 'aTwoFactor'
  | 'bAdmin'
  | 'bOp';

/**
 * A role that manages users without being administrador: `users` and every permission of operador, but
 * not `tenants`, `audit` or the roles' permissions. Its holder may give operador and act on operadores,
 * never give administrador or act on one (no way up: src/domain/escalation.ts), so the cases meet those
 * refusals on real rows through both protocols.
 */
export const MANAGER_ROLE = 'gerente-parity';
export const MANAGER_ROUTES: readonly string[] = [
  'users',
  'dashboard-analytics',
  'dashboard-control-panel',
  'dashboard-maria-panel',
  'dashboard-produtivity-report',
  'dashboard-report',
  'dashboard-report-smart',
];

export interface FixtureUserSpec {
  tenant: TenantKey;
  role: string;
  email: string;
  username: string;
  name: string;
  blocked?: boolean;
  deleted?: boolean;
  twoFactor?: boolean;
  /** Linked to the tenant's first department and first instance. */
  linked?: boolean;
}

/** Users the harness adds to the demo seed (the back-office demo logins already exist). */
export const FIXTURE_USERS: Readonly<Record<Exclude<FixtureUserKey, 'boAdmin' | 'boOp'>, FixtureUserSpec>> = {
  boSpare: {
    tenant: 'backoffice',
    role: OPERATOR_ROLE,
    email: 'spare.bo@parity.test',
    username: 'spare.bo',
    name: 'Sílvio Spare',
  },
  aAdmin: { tenant: 'a', role: ADMIN_ROLE, email: 'admin.a@parity.test', username: 'admin.a', name: 'Alice Admin A' },
  aManager: {
    tenant: 'a',
    role: MANAGER_ROLE,
    email: 'manager.a@parity.test',
    username: 'manager.a',
    name: 'Marta Manager A',
  },
  aOp: { tenant: 'a', role: OPERATOR_ROLE, email: 'op.a@parity.test', username: 'op.a', name: 'Otto Operador A' },
  aPlain: {
    tenant: 'a',
    role: OPERATOR_ROLE,
    email: 'plain.a@parity.test',
    username: 'plain.a',
    name: 'Paula Plain A',
    linked: true,
  },
  aBlocked: {
    tenant: 'a',
    role: OPERATOR_ROLE,
    email: 'blocked.a@parity.test',
    username: 'blocked.a',
    name: 'Bruno Blocked A',
    blocked: true,
  },
  aGone: {
    tenant: 'a',
    role: OPERATOR_ROLE,
    email: 'gone.a@parity.test',
    username: 'gone.a',
    name: 'Gil Gone A',
    deleted: true,
  },
  aTwoFactor: {
    tenant: 'a',
    role: OPERATOR_ROLE,
    email: 'tfa.a@parity.test',
    username: 'tfa.a',
    name: 'Tatiana TFA A',
    twoFactor: true,
  },
  // Same username as tenant A's administrator: usernames are unique per tenant only.
  bAdmin: { tenant: 'b', role: ADMIN_ROLE, email: 'admin.b@parity.test', username: 'admin.a', name: 'Beatriz Admin B' },
  bOp: { tenant: 'b', role: OPERATOR_ROLE, email: 'op.b@parity.test', username: 'op.b', name: 'Oscar Operador B' },
};

export interface FixtureUser {
  key: FixtureUserKey;
  id: number;
  email: string;
  username: string;
  name: string;
  tenant: TenantKey;
  roleId: number;
  password: string;
}

export interface TenantInfo {
  key: TenantKey;
  id: number;
  name: string;
  /** Department ids, ascending. */
  departments: number[];
  /** Instance ids, ascending. */
  instances: number[];
}

export interface Fixture {
  tenants: Readonly<Record<TenantKey, TenantInfo>>;
  users: Readonly<Record<FixtureUserKey, FixtureUser>>;
  roles: { admin: number; operator: number; manager: number };
}

/** Who calls: a signed-in fixture user, or a request without a usable token. */
export type PrincipalName =
  'boAdmin' | 'boOp' | 'aAdmin' | 'aManager' | 'aOp' | 'bAdmin' | 'anon' | 'malformed' | 'revoked';
export const SIGNED_IN: readonly PrincipalName[] = ['boAdmin', 'boOp', 'aAdmin', 'aManager', 'aOp', 'bAdmin'];
/** The tenant whose GraphQL path a principal calls (its own; for tokenless requests tenant A's). */
export const HOME: Readonly<Record<PrincipalName, TenantKey>> = {
  boAdmin: 'backoffice',
  boOp: 'backoffice',
  aAdmin: 'a',
  aManager: 'a',
  aOp: 'a',
  bAdmin: 'b',
  anon: 'a',
  malformed: 'a',
  revoked: 'a',
};
/** The fixture user behind a signed-in principal (`revoked` is a logged-out session of aAdmin). */
export const PRINCIPAL_USER: Readonly<Partial<Record<PrincipalName, FixtureUserKey>>> = {
  boAdmin: 'boAdmin',
  boOp: 'boOp',
  aAdmin: 'aAdmin',
  aManager: 'aManager',
  aOp: 'aOp',
  bAdmin: 'bAdmin',
  revoked: 'aAdmin',
};
