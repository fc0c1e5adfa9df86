import {
  canonicalList,
  canonicalUser,
  graphqlOutcome,
  HOME,
  restOutcome,
  TENANT_NAMES,
  type Answer,
  type Kind,
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
      fields.role === 'admin'
        ? fixture.roles.admin
        : fields.role === 'operator'
          ? fixture.roles.operator
          : fields.role === 'manager'
            ? fixture.roles.manager
            : 9999;
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

/** The session claims of a token (its payload, unverified: the server verified it when it answered it). */
export function sessionOf(token: string): { sub: string; fam: string; rxp: number; jti: string } {
  const bare = token.startsWith('Bearer ') ? token.slice('Bearer '.length) : token;
  return JSON.parse(Buffer.from(bare.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    sub: string;
    fam: string;
    rxp: number;
    jti: string;
  };
}

/**
 * A user's own new password through GraphQL updateUserPassword (contracts/schema.graphql: the only way
 * to it, on either twin). On success it answers a new token of the SAME session (family and end of the
 * refresh window kept: server/src/users/service.ts changeOwnPassword); anything else is a broken promise
 * the twins could agree on, so it is thrown here. Answers the outcome and the new token.
 */
export async function changeOwnPassword(
  twin: Twin,
  authorization: string | undefined,
  tenant: string,
  password: string,
  current: string | undefined,
): Promise<{ outcome: Outcome; token: string | null }> {
  const answer = await twin.graphql(authorization, tenant, 'updateUserPassword', {
    password,
    ...(current === undefined ? {} : { current_password: current }),
  });
  const outcome = graphqlOutcome(answer, 'updateUserPassword', (d) => canonicalUser((d as { user: unknown }).user));
  const token = tokenOf(answer, 'updateUserPassword');
  if (outcome.ok) {
    if (!token || !authorization) throw new Error(`updateUserPassword answered no token: ${outcome.wire}`);
    const before = sessionOf(authorization);
    const after = sessionOf(token);
    if (after.fam !== before.fam || after.rxp !== before.rxp || after.sub !== before.sub)
      throw new Error(
        `${twin.protocol} twin: updateUserPassword answered a token of another session (${JSON.stringify(before)} → ${JSON.stringify(after)})`,
      );
  }
  return { outcome, token };
}

/**
 * Signs `email` in once more through the twin's own protocol, as another session of the same user whose
 * end a step then checks; its outcome goes in `observation` (`<name>SignIn`). The token, or null when the
 * sign-in was refused (blocked, throttled…: the twins must refuse it alike, and the step reads no session).
 */
export async function otherSession(
  twin: Twin,
  email: string,
  password: string,
  tenant: string,
  observation: Observation,
  name = 'other',
): Promise<string | null> {
  const { outcome, token } = await signInOutcome(twin, email, password, tenant);
  observation[`${name}SignIn`] = outcome;
  return token;
}

/**
 * A rule the step's effect must meet on this twin, whatever the other twin did. Where a step acts the
 * same way on both twins (a password set, a block, a two-factor reset: through REST on both, as only
 * REST has them) and reads an effect that does not depend on the protocol (a session of the user ended
 * or not), the twins run the same server and would agree on a wrong effect too: there the step states
 * the rule (server/src/users/service.ts, server/src/auth/tokens.ts revokeOtherFamilies) and this checks it. `undefined`: not observed.
 */
export function expectOutcome(twin: Twin, what: string, outcome: Outcome | undefined, kind: Kind | 'ok'): void {
  if (outcome === undefined) return;
  const met = kind === 'ok' ? outcome.ok : !outcome.ok && outcome.kinds.includes(kind);
  if (!met) throw new Error(`${twin.protocol} twin: ${what}: expected ${kind}, got ${outcome.wire}`);
}

/**
 * Another session of a user, signed in before a change, read through both protocols after it: ended
 * (401) when `ends`, still on otherwise. `name` is the observation's prefix (`<name>Rest`, `<name>Graphql`).
 */
export async function readOtherSession(
  twin: Twin,
  token: string,
  tenant: string,
  observation: Observation,
  name: string,
  ends: boolean,
  why: string,
): Promise<void> {
  const viaRest = await whoAmI(twin, token, 'rest', tenant);
  const viaGraphql = await whoAmI(twin, token, 'graphql', tenant);
  observation[`${name}Rest`] = viaRest;
  observation[`${name}Graphql`] = viaGraphql;
  const kind = ends ? 'unauthenticated' : 'ok';
  expectOutcome(twin, `${why}: the session through REST`, viaRest, kind);
  expectOutcome(twin, `${why}: the session through GraphQL`, viaGraphql, kind);
}
