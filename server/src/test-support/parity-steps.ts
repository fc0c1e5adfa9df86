import fc from 'fast-check';
import {
  agree,
  canonicalList,
  canonicalRole,
  canonicalUser,
  FIXTURE_PASSWORD,
  graphqlOutcome,
  HOME,
  PRINCIPAL_USER,
  restOutcome,
  TENANT_NAMES,
  type Answer,
  type FixtureUserKey,
  type Outcome,
  type PrincipalName,
  type Tally,
  type TenantKey,
  type Twin,
  type Twins,
} from './parity';

/**
 * The steps of the differential cases (server/src/parity/*.test.ts) as plain data, so fast-check prints
 * and shrinks them readably, and how each runs on a twin: the REST twin through contracts/openapi.yaml,
 * the GraphQL twin through contracts/schema.graphql. A step answers one or more named outcomes; the
 * runner compares them pairwise (server/src/test-support/parity.ts `agree`) and then the rows.
 *
 * Values are VALID AT THE PROTOCOL LEVEL for both (right JSON types, no unknown properties, unique
 * instance ids: REST's JSON-schema shape rules are not what is compared) and mix valid and invalid
 * VALUES (lengths, blank, Unicode, patterns, e-mail format and case, weak passwords, unknown
 * references, duplicates, NUL), which both protocols must judge alike.
 */

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
export type RoleRef = 'admin' | 'operator' | 'unknown';

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
export type SignInPassword = 'right' | 'wrong' | 'other-users';
/** Who signs in: a fixture user, the k-th created user, or an address nobody has. */
export type SignInTarget = { fixture: FixtureUserKey } | { created: number } | { unknown: string };

export type Step =
  | {
      op: 'create';
      who: PrincipalName;
      fields: Required<Pick<UserFields, 'username' | 'name' | 'email' | 'password' | 'role'>> & UserFields;
    }
  | { op: 'update'; who: PrincipalName; target: UserRef; form: 'whole' | 'email' | 'name'; fields: UserFields }
  | { op: 'delete'; who: PrincipalName; target: UserRef }
  | { op: 'password'; who: PrincipalName; password: string }
  | { op: 'block'; who: PrincipalName; target: UserRef; blocked: boolean }
  | { op: 'setLimit'; tenant: TenantKey; headroom: number }
  | {
      op: 'signIn';
      target: SignInTarget;
      email: SignInEmail | string;
      password: SignInPassword | string;
      times: number;
    }
  | { op: 'list'; who: PrincipalName; tenant: 'own' | 'other' }
  | { op: 'roles'; who: PrincipalName }
  | { op: 'departments'; who: PrincipalName; tenant: 'own' | 'other' }
  | { op: 'session'; user: SessionUser }
  | { op: 'refresh'; user: SessionUser; token: 'current' | 'previous' }
  | { op: 'use'; user: SessionUser; via: 'rest' | 'graphql'; token: 'current' | 'previous' }
  | { op: 'selfPassword'; password: string }
  | { op: 'logout'; user: SessionUser };

/** Users the refresh cases hold sessions of (aAdmin may change its own password through both protocols). */
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

// ------------------------------------------------------------------------------------------------------
// Running a step on one twin
// ------------------------------------------------------------------------------------------------------

/** What one twin answered to a step: named outcomes, compared by name with the other twin's. */
export type Observation = Record<string, Outcome>;

/** Per twin, per case: sessions of the refresh cases. */
const sessions = new WeakMap<Twin, Map<SessionUser, { current: string | null; previous: string | null }>>();

function sessionsOf(twin: Twin) {
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

const userValue = (body: unknown) => canonicalUser(body);
const userList = (body: unknown) => canonicalList(body, canonicalUser);

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
function resolveFields(twins: Twins, tenant: TenantKey, fields: UserFields): Record<string, unknown> {
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
function pathTenant(who: PrincipalName, target: TenantKey | null): string {
  const home = HOME[who];
  const staff = who === 'boAdmin' || who === 'boOp';
  return TENANT_NAMES[staff && target ? target : home];
}

function otherTenant(who: PrincipalName): TenantKey {
  return HOME[who] === 'a' ? 'b' : 'a';
}

async function currentRow(twin: Twin, id: number) {
  return twin.db
    .selectFrom('users')
    .select(['username', 'name', 'email', 'role_id', 'tenant_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

function emailVariant(email: string, form: SignInEmail | string): string {
  if (form === 'exact') return email;
  if (form === 'upper') return email.toUpperCase();
  if (form === 'mixed') return [...email].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
  // A template around the address: "%s" is replaced by it (surrounding space, a tab…).
  return form.replace('%s', email);
}

/** A sign-in through the twin's own protocol, as an outcome; the token when it succeeded. */
async function signInOutcome(
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
async function whoAmI(
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

function tokenOf(answer: Answer, field: 'logIn' | 'refreshToken' | 'updateUserPassword'): string | null {
  const data = (answer.body as { data?: Record<string, { token?: string } | null> } | null)?.data?.[field];
  return data?.token ?? null;
}

/** Runs one step on one twin. */
export async function runStep(step: Step, twin: Twin, model: Model): Promise<Observation> {
  const { twins } = model;
  const { fixture } = twins;
  const rest = twin.protocol === 'rest';
  const auth = (who: PrincipalName) => twin.auth[who];

  switch (step.op) {
    case 'create': {
      const tenant = HOME[step.who];
      const input = resolveFields(twins, tenant, step.fields);
      if (rest) return { create: restOutcome(await twin.rest(auth(step.who), 'POST', '/api/users', input), userValue) };
      return {
        create: graphqlOutcome(
          await twin.graphql(auth(step.who), TENANT_NAMES[tenant], 'newUser', input),
          'newUser',
          userValue,
        ),
      };
    }

    case 'update': {
      const id = model.userId(step.target, step.who);
      const tenant = model.tenantOf(step.target, step.who) ?? HOME[step.who];
      const all = resolveFields(twins, tenant, step.fields);
      // The contract's three REST forms; GraphQL gets exactly the same arguments.
      const input = step.form === 'whole' ? all : step.form === 'email' ? { email: all.email } : { name: all.name };
      if (rest)
        return { update: restOutcome(await twin.rest(auth(step.who), 'PUT', `/api/users/${id}`, input), userValue) };
      const path = pathTenant(step.who, model.tenantOf(step.target, step.who));
      return {
        update: graphqlOutcome(
          await twin.graphql(auth(step.who), path, 'updateUser', { id, ...input }),
          'updateUser',
          userValue,
        ),
      };
    }

    case 'delete': {
      const id = model.userId(step.target, step.who);
      if (rest)
        return { delete: restOutcome(await twin.rest(auth(step.who), 'DELETE', `/api/users/${id}`), () => true) };
      const path = pathTenant(step.who, model.tenantOf(step.target, step.who));
      return { delete: graphqlOutcome(await twin.graphql(auth(step.who), path, 'deleteUser', { id }), 'deleteUser') };
    }

    case 'password': {
      // REST: the whole object with `password` on oneself (needs `users`); GraphQL: updateUserPassword.
      const key = PRINCIPAL_USER[step.who];
      const self = key ? fixture.users[key] : undefined;
      const tenant = TENANT_NAMES[HOME[step.who]];
      const before = auth(step.who);
      let change: Outcome;
      if (rest) {
        const row = self ? await currentRow(twin, self.id) : undefined;
        const body = row
          ? { username: row.username, name: row.name, email: row.email, role_id: row.role_id, password: step.password }
          : {
              username: 'nobody',
              name: 'Nobody',
              email: 'nobody@parity.test',
              role_id: fixture.roles.admin,
              password: step.password,
            };
        change = restOutcome(
          await twin.rest(before, 'PUT', `/api/users/${self?.id ?? fixture.users.aAdmin.id}`, body),
          userValue,
        );
      } else {
        const answer = await twin.graphql(before, tenant, 'updateUserPassword', { password: step.password });
        change = graphqlOutcome(answer, 'updateUserPassword', (d) => canonicalUser((d as { user: unknown }).user));
        const fresh = tokenOf(answer, 'updateUserPassword');
        if (fresh) {
          // GraphQL's answer carries a fresh session; REST's PUT carries none, so it is left out of the rows compared.
          const fam = JSON.parse(Buffer.from(fresh.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
            fam: string;
          };
          twin.ignoredFamilies.add(fam.fam);
        }
      }
      const observation: Observation = { change };
      // The old token, through both protocols.
      observation.oldTokenRest = await whoAmI(twin, before, 'rest', tenant);
      observation.oldTokenGraphql = await whoAmI(twin, before, 'graphql', tenant);
      if (self) {
        // After a change: the new password signs in and the one before does not, through the twin's own
        // protocol, and the principal goes on with the session the new password gave. After a refusal:
        // the password before still signs in.
        const previous = model.passwords.get(self.id) ?? self.password;
        if (change.ok) {
          const fresh = await signInOutcome(twin, self.email, step.password, tenant);
          observation.newPassword = fresh.outcome;
          if (previous !== step.password)
            observation.oldPassword = (await signInOutcome(twin, self.email, previous, tenant)).outcome;
          if (fresh.token) twin.auth[step.who] = `Bearer ${fresh.token}`;
        } else {
          observation.oldPassword = (await signInOutcome(twin, self.email, previous, tenant)).outcome;
        }
      }
      return observation;
    }

    case 'block': {
      // Only REST blocks (contracts/schema.graphql User.blocked): both twins block through REST; the
      // effect is then read through each twin's own protocol (sign-in, users list).
      const id = model.userId(step.target, step.who);
      return {
        block: restOutcome(
          await twin.rest(auth(step.who), 'PATCH', `/api/users/${id}`, { blocked: step.blocked }),
          userValue,
        ),
      };
    }

    case 'setLimit': {
      // REST only (tenants are managed through REST): the same call on both twins.
      const tenant = fixture.tenants[step.tenant];
      const row = await twin.db
        .selectFrom('tenants')
        .select(['plan', 'ticket_limit'])
        .where('id', '=', tenant.id)
        .executeTakeFirstOrThrow();
      const { n } = await twin.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenant.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      const body = { id: tenant.id, plan: row.plan, user: Number(n) + step.headroom, ticket: row.ticket_limit };
      return {
        setLimit: restOutcome(
          await twin.rest(auth('boAdmin'), 'POST', '/api/tenant/set-plan', body),
          (b) => (b as { userLimit: number }).userLimit,
        ),
      };
    }

    case 'signIn': {
      let email: string;
      let tenant: TenantKey = 'a';
      let own = FIXTURE_PASSWORD;
      if ('fixture' in step.target) {
        const user = fixture.users[step.target.fixture];
        email = user.email;
        tenant = user.tenant;
        own = model.passwords.get(user.id) ?? user.password;
      } else if ('created' in step.target) {
        const created =
          model.created.length === 0 ? undefined : model.created[step.target.created % model.created.length];
        email = created?.email ?? 'nobody@parity.test';
        tenant = created?.tenant ?? 'a';
        own = created ? (model.passwords.get(created.id) ?? created.password) : FIXTURE_PASSWORD;
      } else {
        email = step.target.unknown;
      }
      if ('fixture' in step.target || 'created' in step.target) {
        const id =
          'fixture' in step.target
            ? fixture.users[step.target.fixture].id
            : model.userId({ created: step.target.created }, 'aAdmin');
        const row =
          id === UNKNOWN_ID
            ? undefined
            : await twin.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirst();
        if (row) email = row.email;
      }
      const password =
        step.password === 'right'
          ? own
          : step.password === 'wrong'
            ? 'Wrong#Parity-77'
            : step.password === 'other-users'
              ? fixture.users.aOp.password + '?'
              : step.password;
      const observation: Observation = {};
      for (let i = 0; i < step.times; i++)
        observation[`attempt${i}`] = (
          await signInOutcome(twin, emailVariant(email, step.email), password, TENANT_NAMES[tenant])
        ).outcome;
      return observation;
    }

    case 'list': {
      const tenant = step.tenant === 'own' ? HOME[step.who] : otherTenant(step.who);
      if (rest) {
        const url = step.tenant === 'own' ? '/api/users' : `/api/users?tenantName=${TENANT_NAMES[tenant]}`;
        return { list: restOutcome(await twin.rest(auth(step.who), 'GET', url), userList) };
      }
      return {
        list: graphqlOutcome(await twin.graphql(auth(step.who), TENANT_NAMES[tenant], 'users'), 'users', userList),
      };
    }

    case 'roles': {
      const roles = (b: unknown) => canonicalList(b, canonicalRole);
      if (rest) return { roles: restOutcome(await twin.rest(auth(step.who), 'GET', '/api/roles'), roles) };
      return {
        roles: graphqlOutcome(
          await twin.graphql(auth(step.who), TENANT_NAMES[HOME[step.who]], 'roles'),
          'roles',
          roles,
        ),
      };
    }

    case 'departments': {
      const tenant = step.tenant === 'own' ? HOME[step.who] : otherTenant(step.who);
      const list = (b: unknown) => canonicalList(b);
      if (rest) {
        const url = step.tenant === 'own' ? '/api/departments' : `/api/departments?tenantName=${TENANT_NAMES[tenant]}`;
        return { departments: restOutcome(await twin.rest(auth(step.who), 'GET', url), list) };
      }
      return {
        departments: graphqlOutcome(
          await twin.graphql(auth(step.who), TENANT_NAMES[tenant], 'departments'),
          'departments',
          list,
        ),
      };
    }

    case 'session': {
      const user = fixture.users[step.user];
      const { outcome, token } = await signInOutcome(
        twin,
        user.email,
        model.passwords.get(user.id) ?? user.password,
        TENANT_NAMES[user.tenant],
      );
      sessionsOf(twin).set(step.user, { current: token, previous: null });
      return { session: outcome };
    }

    case 'refresh': {
      // Only GraphQL refreshes (contracts/schema.graphql refreshToken), whichever protocol signed in.
      const session = sessionsOf(twin).get(step.user);
      const token = step.token === 'current' ? session?.current : session?.previous;
      const answer = await twin.graphql(
        token ? `Bearer ${token}` : undefined,
        TENANT_NAMES[fixture.users[step.user].tenant],
        'refreshToken',
      );
      const outcome = graphqlOutcome(answer, 'refreshToken', (d) => ({
        expires_in: (d as { expires_in: number }).expires_in,
      }));
      const next = tokenOf(answer, 'refreshToken');
      if (session && next) sessionsOf(twin).set(step.user, { current: next, previous: token ?? null });
      return { refresh: outcome };
    }

    case 'use': {
      const session = sessionsOf(twin).get(step.user);
      const token = step.token === 'current' ? session?.current : session?.previous;
      return { use: await whoAmI(twin, token, step.via, TENANT_NAMES[fixture.users[step.user].tenant]) };
    }

    case 'logout': {
      // Only REST signs out (the session's family); both twins sign out through REST.
      const session = sessionsOf(twin).get(step.user);
      const user = fixture.users[step.user];
      const token = session?.current;
      return {
        logout: restOutcome(
          await twin.rest(token ? `Bearer ${token}` : undefined, 'POST', '/api/auth/logout', {
            data: { email: user.email },
            ip: null,
          }),
        ),
      };
    }

    case 'selfPassword': {
      // aAdmin's own password through its refresh-case session: REST PUT (it holds `users`) ↔ updateUserPassword.
      const session = sessionsOf(twin).get('aAdmin');
      const user = fixture.users.aAdmin;
      const token = session?.current;
      const authorization = token ? `Bearer ${token}` : undefined;
      if (rest) {
        const row = await currentRow(twin, user.id);
        const body = {
          username: row?.username,
          name: row?.name,
          email: row?.email,
          role_id: row?.role_id,
          password: step.password,
        };
        return {
          selfPassword: restOutcome(await twin.rest(authorization, 'PUT', `/api/users/${user.id}`, body), userValue),
        };
      }
      const answer = await twin.graphql(authorization, TENANT_NAMES.a, 'updateUserPassword', {
        password: step.password,
      });
      const fresh = tokenOf(answer, 'updateUserPassword');
      if (fresh) {
        const fam = JSON.parse(Buffer.from(fresh.split('.')[1] ?? '', 'base64url').toString('utf8')) as { fam: string };
        twin.ignoredFamilies.add(fam.fam);
      }
      return {
        selfPassword: graphqlOutcome(answer, 'updateUserPassword', (d) => canonicalUser((d as { user: unknown }).user)),
      };
    }
  }
}

/** What a step changed in the case model, read off the REST twin's answer once both agreed. */
function applyEffects(step: Step, observation: Observation, model: Model): void {
  const { fixture } = model.twins;
  const okUser = (outcome: Outcome | undefined) =>
    outcome?.ok ? (outcome.value as { id: number; email: string }) : undefined;
  switch (step.op) {
    case 'create': {
      const user = okUser(observation.create);
      if (user) {
        model.created.push({ id: user.id, tenant: HOME[step.who], email: user.email, password: step.fields.password });
        model.passwords.set(user.id, step.fields.password);
      }
      return;
    }
    case 'password': {
      const key = PRINCIPAL_USER[step.who];
      if (key && observation.change?.ok) model.passwords.set(fixture.users[key].id, step.password);
      return;
    }
    case 'selfPassword':
      if (observation.selfPassword?.ok) model.passwords.set(fixture.users.aAdmin.id, step.password);
      return;
    default:
      return;
  }
}

/** Steps that write nothing (no sign-in attempt, no token state): a case of only these needs no reset after it. */
const READ_ONLY: ReadonlySet<Step['op']> = new Set(['list', 'roles', 'departments']);

/**
 * One case: both twins back to the baseline, then every step on both twins (in parallel: they are
 * separate databases), each pair of outcomes compared, the rows compared after each step.
 */
export async function runCase(twins: Twins, steps: readonly Step[], tally: Tally, capability: string): Promise<void> {
  await twins.reset();
  if (steps.some((step) => !READ_ONLY.has(step.op))) {
    twins.rest.dirty = true;
    twins.graphql.dirty = true;
  }
  clearSessions(twins.rest);
  clearSessions(twins.graphql);
  const model = new Model(twins);
  for (const user of Object.values(twins.fixture.users)) model.passwords.set(user.id, user.password);
  for (const [index, step] of steps.entries()) {
    const [r, g] = await Promise.all([runStep(step, twins.rest, model), runStep(step, twins.graphql, model)]);
    const names = [...new Set([...Object.keys(r), ...Object.keys(g)])];
    for (const name of names) {
      const ro = r[name];
      const go = g[name];
      if (!ro || !go) throw new Error(`step ${index} ${JSON.stringify(step)}: "${name}" answered on one twin only`);
      const verdict = agree(ro, go);
      if ('mismatch' in verdict)
        throw new Error(`step ${index} ${JSON.stringify(step)} → ${name}: ${verdict.mismatch}`);
      tally.step(capability, `${name}:${verdict.kind}`);
    }
    applyEffects(step, r, model);
    try {
      await twins.compare(model.passwords);
    } catch (error) {
      throw new Error(`after step ${index} ${JSON.stringify(step)}: ${(error as Error).message}`, { cause: error });
    }
  }
  tally.case(capability);
}

// ------------------------------------------------------------------------------------------------------
// Arbitraries
// ------------------------------------------------------------------------------------------------------

/** Flips the case of letters by the bits of `bits` (0: as given), so shrinking walks back to the plain value. */
const recase = (value: string, bits: number): string =>
  [...value]
    .map((c, i) => ((bits >> (i % 30)) & 1 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c))
    .join('');

const withCase = (values: readonly string[]) =>
  fc.tuple(fc.constantFrom(...values), fc.nat()).map(([v, bits]) => recase(v, bits));

/** Addresses new users take, and fixture addresses (taken, or free again: gone.a was deleted). */
export const FRESH_EMAILS = ['ana@parity.test', 'bia@parity.test', 'caio.x@parity.test', 'duda+1@parity.test'] as const;
export const TAKEN_EMAILS = [
  'op.a@parity.test',
  'admin.b@parity.test',
  'admin@demo.local',
  'spare.bo@parity.test',
  'blocked.a@parity.test',
] as const;
export const FREED_EMAILS = ['gone.a@parity.test'] as const;

/**
 * Each field's values, split by the contracts' VALUE rules (contracts/openapi.yaml `Username`,
 * `PersonName`, `Email`, `Password`, `UserUpdate.image`; the same rules in contracts/schema.graphql's
 * argument descriptions; for passwords also the strength rule of src/domain/password-strength.ts):
 * `good` values break none (a good value may still be taken: duplicates are state, not value), `bad`
 * values break one.
 */
interface Pools<T> {
  good: fc.Arbitrary<T>;
  bad: fc.Arbitrary<T>;
}

const LONGEST_EMAIL = `${'x'.repeat(64)}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(58)}.tt`;

export const EMAIL: Pools<string> = {
  good: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...FRESH_EMAILS) },
    { weight: 3, arbitrary: withCase([...FRESH_EMAILS, ...TAKEN_EMAILS, ...FREED_EMAILS]) },
    { weight: 2, arbitrary: fc.constantFrom(...TAKEN_EMAILS, ...FREED_EMAILS) },
    { weight: 1, arbitrary: fc.constantFrom('a@b.c', "o'brien+tag@parity.test", LONGEST_EMAIL) },
  ),
  bad: fc.constantFrom(
    'no-at-sign',
    'a@b',
    'ana@@parity.test',
    'ana@parity..test',
    'ana@-parity.test',
    'ção@parity.test',
    'an a@parity.test',
    ' ana@parity.test',
    'ana@parity.test ',
    `${LONGEST_EMAIL}t`,
    'ana\u0000@parity.test',
  ),
};

/** Usernames: a small pool (so duplicates happen, in any case), fixture usernames, and values off the pattern. */
export const USERNAME: Pools<string> = {
  good: fc.oneof(
    { weight: 6, arbitrary: withCase(['ana', 'bia.x', 'caio_9', 'duda-1', 'op.a', 'admin.a', 'spare.bo', 'gone.a']) },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9._-]{3,40}$/) },
    { weight: 1, arbitrary: fc.constantFrom('abc', 'a'.repeat(40)) },
  ),
  bad: fc.constantFrom('ab', 'a'.repeat(41), 'a b', 'ação', '', 'ana!', 'ana\u0000', ' ana', 'ana '),
};

/** Names: Unicode (emoji, combining marks, RTL, a lone surrogate), surrounding space, at and past 120 characters, blank. */
export const NAME: Pools<string> = {
  good: fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'Ana Souza',
        'Zoë 👩‍💻 Ñandú',
        'João da Silva',
        'محمد',
        'e\u0301mile',
        '李小龙',
        '\u200bzero',
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
        .filter((v) => v.trim().length > 0 && !v.includes('\u0000')),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '  Ana  ',
        '\tAna\n',
        '\u00a0Ana\u2003',
        'x'.repeat(120),
        '😀'.repeat(120),
        ` ${'y'.repeat(118)} `,
        '\ud800lone',
      ),
    },
  ),
  bad: fc.constantFrom(
    '   ',
    '',
    '\u00a0\u2003',
    '\t\n',
    'x'.repeat(121),
    '😀'.repeat(121),
    ` ${'y'.repeat(119)} `,
    'a\u0000b',
  ),
};

/** Passwords: strong; weak (runs, sequences), short, past 128 (characters, or UTF-16 units), NUL. */
export const PASSWORD: Pools<string> = {
  good: fc.constantFrom(
    'Parity#Pass-1x',
    'Outra$Senha-72',
    'Ünïcødé-Sênha-9',
    'Zz!9Yy@8Xx#7',
    'Ab1#'.repeat(32),
    'Ab1#🔑'.repeat(21),
  ),
  bad: fc.constantFrom(
    'aaaB#9xy',
    'Xy#12345',
    'abcXy#9!',
    'Short1!',
    '',
    'Ab1#'.repeat(32) + 'Z',
    '🔑'.repeat(7),
    '🔑Ab#9'.repeat(22),
    'Pass\u0000word#9',
  ),
};

export const IMAGE: Pools<string | null> = {
  good: fc.constantFrom(
    null,
    'https://cdn.parity.test/a.png',
    'http://parity.test/x?y=1#z',
    `https://parity.test/${'p'.repeat(2048 - 'https://parity.test/'.length)}`,
  ),
  bad: fc.constantFrom(
    'ftp://parity.test/a.png',
    'not a url',
    '/relative.png',
    `https://parity.test/${'p'.repeat(2049 - 'https://parity.test/'.length)}`,
  ),
};

export const roleArb: fc.Arbitrary<RoleRef> = fc.constantFrom<RoleRef>(
  'operator',
  'operator',
  'operator',
  'admin',
  'admin',
  'unknown',
);

export const departmentArb: fc.Arbitrary<DepartmentRef> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<DepartmentRef>({ none: true }) },
  { weight: 4, arbitrary: fc.nat(3).map<DepartmentRef>((own) => ({ own })) },
  { weight: 1, arbitrary: fc.constantFrom<DepartmentRef>({ other: true }, { unknown: true }) },
);

export const instancesArb: fc.Arbitrary<InstancesRef> = fc
  .tuple(
    fc.uniqueArray(fc.nat(3), { maxLength: 3 }),
    fc.constantFrom<'other' | 'unknown' | undefined>(undefined, undefined, undefined, 'other', 'unknown'),
  )
  .map(([own, extra]) => (extra === undefined ? { own } : { own, extra }));

/** How many fields of one step may hold a bad value. */
export const MAX_BAD_FIELDS = 4;

type TextField = 'username' | 'name' | 'email' | 'password' | 'image';
const POOLS: Readonly<Record<TextField, Pools<string | null>>> = {
  username: USERNAME,
  name: NAME,
  email: EMAIL,
  password: PASSWORD,
  image: IMAGE,
};

/** Good values for `fields`, then (one case in two) up to `maxBad` of them replaced by bad ones. */
function textFields<K extends TextField>(fields: readonly K[], maxBad: number): fc.Arbitrary<Record<K, string>> {
  const record = (model: [K, fc.Arbitrary<string | null>][]) =>
    fc.record(Object.fromEntries(model) as Record<string, fc.Arbitrary<string>>) as unknown as fc.Arbitrary<
      Record<K, string>
    >;
  const good = record(fields.map((f) => [f, POOLS[f].good]));
  if (maxBad === 0) return good;
  const bad = fc
    .uniqueArray(fc.constantFrom(...fields), { minLength: 1, maxLength: maxBad })
    .chain((which) => record(which.map((f) => [f, POOLS[f].bad])));
  return fc
    .tuple(good, fc.oneof({ weight: 1, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: bad }))
    .map(([g, b]) => ({ ...g, ...b }));
}

export const createFieldsArb = fc
  .tuple(
    textFields(['username', 'name', 'email', 'password'] as const, MAX_BAD_FIELDS),
    roleArb,
    fc.option(departmentArb, { nil: undefined }),
    fc.option(instancesArb, { nil: undefined }),
  )
  .map(([text, role, department, instances]) => ({
    ...text,
    role,
    ...(department === undefined ? {} : { department }),
    ...(instances === undefined ? {} : { instances }),
  }));

/** Fields of an update: all good (`maxBad` 0), or up to `maxBad` bad values. */
export function updateFieldsArb(maxBad: number): fc.Arbitrary<UserFields> {
  return fc
    .tuple(
      textFields(['username', 'name', 'email', 'image'] as const, maxBad),
      roleArb,
      fc.boolean(),
      fc.option(departmentArb, { nil: undefined }),
      fc.option(instancesArb, { nil: undefined }),
    )
    .map(([{ image, ...text }, role, withImage, department, instances]) => ({
      ...text,
      role,
      ...(withImage ? { image: image as string | null } : {}),
      ...(department === undefined ? {} : { department }),
      ...(instances === undefined ? {} : { instances }),
    }));
}

/** A password for the password cases: mostly good, sometimes bad. */
export const passwordArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: PASSWORD.good },
  { weight: 1, arbitrary: PASSWORD.bad },
);

/** Callers: mostly the ones who may, sometimes ones who may not, or nobody. */
export const managerArb: fc.Arbitrary<PrincipalName> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom<PrincipalName>('boAdmin', 'aAdmin', 'aAdmin', 'bAdmin') },
  { weight: 2, arbitrary: fc.constantFrom<PrincipalName>('aOp', 'boOp') },
  { weight: 1, arbitrary: fc.constantFrom<PrincipalName>('anon', 'malformed', 'revoked') },
);

export const anyPrincipalArb: fc.Arbitrary<PrincipalName> = fc.constantFrom<PrincipalName>(
  'boAdmin',
  'boOp',
  'aAdmin',
  'aOp',
  'bAdmin',
  'anon',
  'malformed',
  'revoked',
);

export const userRefArb: fc.Arbitrary<UserRef> = fc.oneof(
  { weight: 4, arbitrary: fc.nat(5).map<UserRef>((created) => ({ created })) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom<FixtureUserKey>('aOp', 'aPlain', 'aBlocked', 'aTwoFactor', 'boSpare', 'bOp', 'aAdmin')
      .map<UserRef>((fixture) => ({ fixture })),
  },
  { weight: 1, arbitrary: fc.constantFrom<UserRef>({ self: true }, { unknown: true }, { fixture: 'aGone' }) },
);

export const createStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('create' as const),
  who: managerArb,
  fields: createFieldsArb,
});
/** A create by an administrator with a valid value set: cases need users to act on. */
export const plainCreateStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('create' as const),
  who: fc.constantFrom<PrincipalName>('aAdmin', 'boAdmin', 'bAdmin'),
  fields: fc.record({
    username: fc.constantFrom('nova', 'nina.x', 'noa_9', 'nilo-1'),
    name: fc.constantFrom('Nova Pessoa', '  Nina  ', 'Noá 😀'),
    email: fc.constantFrom('nova@parity.test', 'nina@parity.test', 'noa@parity.test', 'Nilo@Parity.Test'),
    password: fc.constantFrom('Nova#Senha-71', 'Outra$Senha-72'),
    role: fc.constantFrom<RoleRef>('operator', 'admin'),
    department: departmentArb,
    instances: fc.record({ own: fc.uniqueArray(fc.nat(3), { maxLength: 2 }) }),
  }),
});
const formArb = fc.constantFrom<'whole' | 'email' | 'name'>('whole', 'whole', 'email', 'name');

/**
 * Targets each administrator can see (its own tenant; back-office staff: every tenant), other than
 * itself. The update cases never delete these, so an update with a bad value always finds its target.
 */
const VISIBLE: Readonly<Record<'boAdmin' | 'aAdmin' | 'bAdmin', readonly FixtureUserKey[]>> = {
  boAdmin: ['aOp', 'aPlain', 'aBlocked', 'aTwoFactor', 'boSpare', 'bOp'],
  aAdmin: ['aOp', 'aPlain', 'aBlocked', 'aTwoFactor'],
  bAdmin: ['bOp'],
};

/** An administrator changing a user it can see, with bad values among the good ones. */
const badValueUpdate: fc.Arbitrary<Step> = fc
  .constantFrom<'boAdmin' | 'aAdmin' | 'bAdmin'>('boAdmin', 'aAdmin', 'aAdmin', 'bAdmin')
  .chain((who) =>
    fc.record({
      op: fc.constant('update' as const),
      who: fc.constant<PrincipalName>(who),
      target: fc.constantFrom(...VISIBLE[who]).map<UserRef>((fixture) => ({ fixture })),
      form: formArb,
      fields: updateFieldsArb(MAX_BAD_FIELDS),
    }),
  );

/** Callers without `users` (operators) and without a usable token, on any target, good and bad values alike: 403 or 401 first. */
const unprivilegedUpdate = (who: fc.Arbitrary<PrincipalName>): fc.Arbitrary<Step> =>
  fc.record({
    op: fc.constant('update' as const),
    who,
    target: userRefArb,
    form: formArb,
    fields: updateFieldsArb(MAX_BAD_FIELDS),
  });

/** Updates: any caller on any target (created users, fixtures, itself, deleted or unknown ids), good and bad values. */
export const updateStep: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('update' as const),
      who: fc.oneof(
        { weight: 3, arbitrary: managerArb },
        { weight: 1, arbitrary: fc.constantFrom<PrincipalName>('aOp', 'boOp') },
      ),
      target: userRefArb,
      form: formArb,
      fields: updateFieldsArb(MAX_BAD_FIELDS),
    }),
  },
  { weight: 3, arbitrary: badValueUpdate },
  { weight: 1, arbitrary: unprivilegedUpdate(fc.constantFrom<PrincipalName>('aOp', 'boOp')) },
);

/**
 * A caller editing its own record: operators lack `users`, so only their own name and e-mail (REST's
 * one-field forms); the whole object names the role, 403 without `users` whatever the values.
 */
export const selfEditStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('update' as const),
  who: fc.constantFrom<PrincipalName>('aOp', 'aOp', 'boOp', 'aAdmin'),
  target: fc.constant<UserRef>({ self: true }),
  form: fc.constantFrom<'whole' | 'email' | 'name'>('whole', 'email', 'name', 'name'),
  fields: updateFieldsArb(MAX_BAD_FIELDS),
});

export const deleteStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('delete' as const),
  who: managerArb,
  target: userRefArb,
});
/** Targets of deletes in cases that also update with bad values: never a user of VISIBLE. */
const sparingTargetArb: fc.Arbitrary<UserRef> = fc.oneof(
  { weight: 3, arbitrary: fc.nat(5).map<UserRef>((created) => ({ created })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<UserRef>(
      { self: true },
      { unknown: true },
      { fixture: 'aGone' },
      { fixture: 'aAdmin' },
      { fixture: 'bAdmin' },
    ),
  },
);
export const deleteStepSparingVisible: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('delete' as const),
  who: managerArb,
  target: sparingTargetArb,
});
export const setLimitStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('setLimit' as const),
  tenant: fc.constantFrom<TenantKey>('a', 'a', 'backoffice'),
  headroom: fc.nat(2),
});
/** Users a block case blocks and signs in: fixture users with their own passwords, users it created, itself. */
const blockTargetArb: fc.Arbitrary<UserRef> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom<FixtureUserKey>('aOp', 'aPlain', 'aBlocked', 'bOp', 'boSpare')
      .map<UserRef>((fixture) => ({ fixture })),
  },
  { weight: 1, arbitrary: fc.nat(2).map<UserRef>((created) => ({ created })) },
  { weight: 1, arbitrary: fc.constantFrom<UserRef>({ self: true }, { unknown: true }, { fixture: 'aGone' }) },
);
export const blockStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('block' as const),
  who: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<PrincipalName>('aAdmin', 'boAdmin') },
    { weight: 1, arbitrary: fc.constantFrom<PrincipalName>('bAdmin', 'aOp') },
  ),
  target: blockTargetArb,
  blocked: fc.constantFrom(true, true, false),
});
/** Sign-in of the users a block case blocks, right or wrong password. */
export const blockSignInStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('signIn' as const),
  target: fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .constantFrom<FixtureUserKey>('aOp', 'aPlain', 'aBlocked', 'bOp', 'boSpare')
        .map<SignInTarget>((fixture) => ({ fixture })),
    },
    { weight: 1, arbitrary: fc.nat(2).map<SignInTarget>((created) => ({ created })) },
  ),
  email: fc.constantFrom<SignInEmail>('exact', 'upper'),
  password: fc.constantFrom<SignInPassword>('right', 'right', 'wrong'),
  times: fc.integer({ min: 1, max: 2 }),
});
export const listStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('list' as const),
  who: anyPrincipalArb,
  tenant: fc.constantFrom<'own' | 'other'>('own', 'own', 'other'),
});
export const rolesStep: fc.Arbitrary<Step> = fc.record({ op: fc.constant('roles' as const), who: anyPrincipalArb });
export const departmentsStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('departments' as const),
  who: anyPrincipalArb,
  tenant: fc.constantFrom<'own' | 'other'>('own', 'other'),
});

/** Sign-in targets: active, blocked, deleted, two-factor, the demo administrator (a real argon2id hash), created users, unknown addresses. */
export const signInTargetArb: fc.Arbitrary<SignInTarget> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .constantFrom<FixtureUserKey>('aOp', 'aPlain', 'aBlocked', 'aGone', 'aTwoFactor', 'bOp', 'boSpare')
      .map<SignInTarget>((fixture) => ({ fixture })),
  },
  // These two cost a full argon2id verification each (a real hash; a dummy one for unknown addresses).
  { weight: 1, arbitrary: fc.constant<SignInTarget>({ fixture: 'boAdmin' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<SignInTarget>({ unknown: 'nobody@parity.test' }, { unknown: 'Nobody@Parity.Test' }),
  },
);
export const signInStep = (emails: fc.Arbitrary<string>, passwords: fc.Arbitrary<string>): fc.Arbitrary<Step> =>
  fc.record({
    op: fc.constant('signIn' as const),
    target: signInTargetArb,
    email: emails,
    password: passwords,
    times: fc.integer({ min: 1, max: 3 }),
  });
/** The address as stored, in upper or mixed case, with surrounding space, or malformed ("%s" is the address); passwords right, wrong, empty, too long. */
export const signInEmailForms: fc.Arbitrary<SignInEmail | string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<SignInEmail | string>('exact', 'exact', 'upper', 'mixed') },
  { weight: 1, arbitrary: fc.constantFrom(' %s', '%s ', '\t%s', 'x%s@', '%s\u0000') },
);
export const signInPasswords: fc.Arbitrary<SignInPassword | string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<SignInPassword | string>('right', 'right', 'wrong', 'other-users') },
  { weight: 1, arbitrary: fc.constantFrom('', 'Ab1#'.repeat(32) + 'Z') },
);

export const passwordStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('password' as const),
  who: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom<PrincipalName>('aAdmin', 'aAdmin', 'bAdmin') },
    { weight: 1, arbitrary: fc.constant<PrincipalName>('boAdmin') },
    { weight: 1, arbitrary: fc.constantFrom<PrincipalName>('anon', 'malformed', 'revoked') },
  ),
  password: passwordArb,
});

const sessionUserArb = fc.constantFrom<SessionUser>('aAdmin', 'aAdmin', 'aOp', 'aPlain');
export const sessionStep: fc.Arbitrary<Step> = fc.record({ op: fc.constant('session' as const), user: sessionUserArb });
export const refreshSteps: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: sessionStep },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('refresh' as const),
      user: sessionUserArb,
      token: fc.constantFrom<'current' | 'previous'>('current', 'current', 'previous'),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('use' as const),
      user: sessionUserArb,
      via: fc.constantFrom<'rest' | 'graphql'>('rest', 'graphql'),
      token: fc.constantFrom<'current' | 'previous'>('current', 'current', 'previous'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('block' as const),
      who: fc.constant<PrincipalName>('boAdmin'),
      target: fc.constantFrom<FixtureUserKey>('aOp', 'aPlain', 'aAdmin').map<UserRef>((fixture) => ({ fixture })),
      blocked: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('delete' as const),
      who: fc.constant<PrincipalName>('boAdmin'),
      target: fc.constantFrom<FixtureUserKey>('aOp', 'aPlain').map<UserRef>((fixture) => ({ fixture })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('selfPassword' as const),
      password: fc.constantFrom('Nova#Senha-71', 'Nova#Senha-71', 'Xy#12345'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('logout' as const), user: sessionUserArb }) },
);

/** Every step kind an ordering case may use: principals of every sort, inputs good or bad. */
export const orderingStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), who: anyPrincipalArb, fields: createFieldsArb }),
  fc.record({
    op: fc.constant('update' as const),
    who: anyPrincipalArb,
    target: userRefArb,
    form: formArb,
    fields: updateFieldsArb(MAX_BAD_FIELDS),
  }),
  unprivilegedUpdate(fc.constantFrom<PrincipalName>('aOp', 'boOp', 'anon', 'malformed', 'revoked')),
  badValueUpdate,
  selfEditStep,
  fc.record({ op: fc.constant('delete' as const), who: anyPrincipalArb, target: sparingTargetArb }),
  fc.record({
    op: fc.constant('password' as const),
    who: fc.constantFrom<PrincipalName>('boAdmin', 'aAdmin', 'bAdmin', 'anon', 'malformed', 'revoked'),
    password: passwordArb,
  }),
  listStep,
  rolesStep,
  departmentsStep,
);

/** A case: a short sequence of steps. */
export const sequence = (step: fc.Arbitrary<Step>, maxLength = 4) => fc.array(step, { minLength: 1, maxLength });
