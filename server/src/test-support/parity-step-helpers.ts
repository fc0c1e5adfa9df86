import {
  canonicalList,
  canonicalUser,
  graphqlOutcome,
  HOME,
  restOutcome,
  TENANT_NAMES,
  type Answer,
  type Outcome,
  type PrincipalName,
  type TenantKey,
  type Twin,
  type Twins,
} from './parity';
import { type SessionUser, type SignInEmail, UNKNOWN_ID, type UserFields } from './parity-step-data';

/** What the step runners (./parity-step-users.ts, ./parity-step-sessions.ts) share: sessions, canonical values, sign-in. */

// ------------------------------------------------------------------------------------------------------
// Running a step on one twin
// ------------------------------------------------------------------------------------------------------

/** What one twin answered to a step: named outcomes, compared by name with the other twin's. */
export type Observation = Record<string, Outcome>;

/** Per twin, per case: sessions of the refresh cases. */
const sessions = new WeakMap<Twin, Map<SessionUser, { current: string | null; previous: string | null }>>();

export function sessionsOf(twin: Twin) {
  let map = sessions.get(twin);
  if (!map) {
    map = new Map();
    sessions.set(twin, map);
  }
  return map;
}

export function clearSessions(twin: Twin): void {
  sessionsOf(twin).clear();
}

export const userValue = (body: unknown) => canonicalUser(body);
export const userList = (body: unknown) => canonicalList(body, canonicalUser);

function restLoginValue(body: unknown): unknown {
  const b = body as {
    expires_in: number;
    origin_backoffice: boolean;
    has_permission_routes: string[];
    user: unknown;
    token_type: string;
  };
  return {
    expires_in: b.expires_in,
    origin_backoffice: b.origin_backoffice,
    routes: [...b.has_permission_routes].sort(),
    user: canonicalUser(b.user),
  };
}

function graphqlLoginValue(data: unknown): unknown {
  const d = data as {
    expires_in: number;
    user: { origin_backoffice: boolean; role: { has_permission_routes: string[] } };
  };
  return {
    expires_in: d.expires_in,
    origin_backoffice: d.user.origin_backoffice,
    routes: [...d.user.role.has_permission_routes].sort(),
    user: canonicalUser(d.user),
  };
}

/** Resolves the acting tenant's references in a set of fields into the contract's values, in one key order for both protocols. */
export function resolveFields(twins: Twins, tenant: TenantKey, fields: UserFields): Record<string, unknown> {
  const { fixture } = twins;
  const own = fixture.tenants[tenant];
  const other = fixture.tenants[tenant === 'b' ? 'a' : 'b'];
  const out: Record<string, unknown> = {};
  if (fields.username !== undefined) out.username = fields.username;
  if (fields.name !== undefined) out.name = fields.name;
  if (fields.image !== undefined) out.image = fields.image;
  if (fields.email !== undefined) out.email = fields.email;
  if (fields.password !== undefined) out.password = fields.password;
  if (fields.role !== undefined)
    out.role_id =
      fields.role === 'admin' ? fixture.roles.admin : fields.role === 'operator' ? fixture.roles.operator : 9999;
  if (fields.department !== undefined) {
    const d = fields.department;
    out.user_department_id =
      'none' in d
        ? null
        : 'own' in d
          ? (own.departments[d.own % own.departments.length] ?? UNKNOWN_ID)
          : 'other' in d
            ? (other.departments[0] ?? UNKNOWN_ID)
            : UNKNOWN_ID;
  }
  if (fields.instances !== undefined) {
    const ids = [...new Set(fields.instances.own.map((i) => own.instances[i % own.instances.length] ?? UNKNOWN_ID))];
    if (fields.instances.extra === 'other') ids.push(other.instances[0] ?? UNKNOWN_ID);
    if (fields.instances.extra === 'unknown') ids.push(UNKNOWN_ID - 1);
    out.chosen_instances = ids;
  }
  return out;
}

/** The tenant whose GraphQL path a step uses: the caller's own; back-office staff act in the target's tenant. */
export function pathTenant(who: PrincipalName, target: TenantKey | null): string {
  const home = HOME[who];
  const staff = who === 'boAdmin' || who === 'boOp';
  return TENANT_NAMES[staff && target ? target : home];
}

export function otherTenant(who: PrincipalName): TenantKey {
  return HOME[who] === 'a' ? 'b' : 'a';
}

export async function currentRow(twin: Twin, id: number) {
  return twin.db
    .selectFrom('users')
    .select(['username', 'name', 'email', 'role_id', 'tenant_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function emailVariant(email: string, form: SignInEmail | string): string {
  if (form === 'exact') return email;
  if (form === 'upper') return email.toUpperCase();
  if (form === 'mixed') return [...email].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
  // A template around the address: "%s" is replaced by it (surrounding space, a tab…).
  return form.replace('%s', email);
}

/** A sign-in through the twin's own protocol, as an outcome; the token when it succeeded. */
export async function signInOutcome(
  twin: Twin,
  email: string,
  password: string,
  tenant: string,
): Promise<{ outcome: Outcome; token: string | null }> {
  const { token, answer } = await twin.signIn(email, password, tenant);
  const outcome =
    twin.protocol === 'rest' ? restOutcome(answer, restLoginValue) : graphqlOutcome(answer, 'logIn', graphqlLoginValue);
  return { outcome, token };
}

/** "Who am I" with a token, through REST or GraphQL (on either twin: a token must behave the same in both protocols). */
export async function whoAmI(
  twin: Twin,
  token: string | null | undefined,
  via: 'rest' | 'graphql',
  tenant: string,
): Promise<Outcome> {
  const authorization = token ? (token.startsWith('Bearer ') ? token : `Bearer ${token}`) : undefined;
  if (via === 'rest')
    return restOutcome(await twin.rest(authorization, 'GET', '/api/auth/userInfo'), (b) =>
      canonicalUser((b as { user: unknown }).user),
    );
  return graphqlOutcome(await twin.graphql(authorization, tenant, 'userInfos'), 'userInfos', userValue);
}

export function tokenOf(answer: Answer, field: 'logIn' | 'refreshToken' | 'updateUserPassword'): string | null {
  const data = (answer.body as { data?: Record<string, { token?: string } | null> } | null)?.data?.[field];
  return data?.token ?? null;
}
