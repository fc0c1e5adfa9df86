import { verify as argon2Verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { newTotpSecret } from '../auth/totp';
import { buildApp } from '../app';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../db/catalog';
import { loadConfig } from '../base/config';
import type { Database } from '../db/schema';
import { DEMO_PASSWORD, seedDemo } from '../tooling/seed';
import { openTestDatabase } from './database';
import {
  FIXTURE_PASSWORD,
  FIXTURE_USERS,
  MANAGER_ROLE,
  MANAGER_ROUTES,
  PRINCIPAL_USER,
  SEED_NOW,
  SEED_PRNG,
  SIGNED_IN,
  TENANT_NAMES,
  cheapHash,
} from './parity-fixture';
import type { Fixture, FixtureUser, FixtureUserKey, FixtureUserSpec, TenantInfo, TenantKey } from './parity-fixture';
import type { Protocol } from './parity-outcomes';
import { Twin, stateDiff } from './parity-twin';
import type { State } from './parity-twin';

/** Starting the two parity twins (./parity.ts) on databases of their own, seeded with the same fixture. */

export interface Twins {
  rest: Twin;
  graphql: Twin;
  fixture: Fixture;
  /** Both twins back to the baseline. */
  reset(): Promise<void>;
  /**
   * Reads both twins' rows and compares them; a password hash that changed (or a new user's) must verify
   * with `passwords` (user id → the password the case last set), on each twin. Throws on a difference.
   */
  compare(passwords: ReadonlyMap<number, string>): Promise<void>;
  close(): Promise<void>;
}

async function hashesCheck(
  twin: Twin,
  before: State,
  after: State,
  passwords: ReadonlyMap<number, string>,
): Promise<string[]> {
  const changed: string[] = [];
  for (const [id, now] of after.users) {
    const was = before.users.get(id);
    if (was && was.hash === now.hash) continue;
    changed.push(String(id));
    const expected = passwords.get(id);
    if (expected === undefined)
      throw new Error(
        `${twin.protocol} twin: the password hash of user ${id} changed, but no step set a password for it`,
      );
    if (!(await argon2Verify(now.hash, expected)))
      throw new Error(
        `${twin.protocol} twin: user ${id}'s stored hash does not verify the password the case set (${JSON.stringify(expected)})`,
      );
  }
  return changed;
}

/** The manager role of the fixture (./parity-fixture.ts MANAGER_ROLE), with its permissions. */
async function insertManagerRole(db: Kysely<Database>): Promise<void> {
  const { id } = await db
    .insertInto('roles')
    .values({ name: MANAGER_ROLE, display_name: 'Gerente (paridade)' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const permissions = await db
    .selectFrom('permissions')
    .select('id')
    .where('route_name', 'in', [...MANAGER_ROUTES])
    .orderBy('id')
    .execute();
  if (permissions.length !== MANAGER_ROUTES.length)
    throw new Error('parity: a permission of the manager role is missing');
  await db
    .insertInto('role_permissions')
    .values(permissions.map((p) => ({ role_id: id, permission_id: p.id })))
    .execute();
}

async function insertFixtureUsers(db: Kysely<Database>, hashOf: string): Promise<void> {
  await insertManagerRole(db);
  const roles = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
  for (const spec of Object.values(FIXTURE_USERS)) {
    const tenant = await db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', TENANT_NAMES[spec.tenant])
      .executeTakeFirstOrThrow();
    const department = spec.linked
      ? await db
          .selectFrom('departments')
          .select('id')
          .where('tenant_id', '=', tenant.id)
          .orderBy('id')
          .executeTakeFirst()
      : undefined;
    const { id } = await db
      .insertInto('users')
      .values({
        tenant_id: tenant.id,
        role_id: roles.get(spec.role) ?? 0,
        department_id: department?.id ?? null,
        name: spec.name,
        username: spec.username,
        email: spec.email,
        password_hash: hashOf,
        blocked: spec.blocked ?? false,
        two_factor_enabled: spec.twoFactor ?? false,
        two_factor_secret: spec.twoFactor ? newTotpSecret() : null,
        two_factor_enrolled_at: spec.twoFactor ? SEED_NOW : null,
        origin_backoffice: spec.tenant === 'backoffice',
        created_at: SEED_NOW,
        deleted_at: spec.deleted ? SEED_NOW : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (spec.linked) {
      const instance = await db
        .selectFrom('instances')
        .select('id')
        .where('tenant_id', '=', tenant.id)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('user_instances').values({ user_id: id, instance_id: instance.id }).execute();
    }
  }
}

async function readFixture(db: Kysely<Database>): Promise<Fixture> {
  const tenants = {} as Record<TenantKey, TenantInfo>;
  for (const key of Object.keys(TENANT_NAMES) as TenantKey[]) {
    const row = await db
      .selectFrom('tenants')
      .select(['id', 'name'])
      .where('name', '=', TENANT_NAMES[key])
      .executeTakeFirstOrThrow();
    const departments = await db
      .selectFrom('departments')
      .select('id')
      .where('tenant_id', '=', row.id)
      .orderBy('id')
      .execute();
    const instances = await db
      .selectFrom('instances')
      .select('id')
      .where('tenant_id', '=', row.id)
      .orderBy('id')
      .execute();
    tenants[key] = {
      key,
      id: row.id,
      name: row.name,
      departments: departments.map((d) => d.id),
      instances: instances.map((i) => i.id),
    };
  }
  const roles = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
  const specs: Record<FixtureUserKey, FixtureUserSpec & { password: string }> = {
    boAdmin: {
      tenant: 'backoffice',
      role: ADMIN_ROLE,
      email: 'admin@demo.local',
      username: '',
      name: '',
      password: DEMO_PASSWORD,
    },
    boOp: {
      tenant: 'backoffice',
      role: OPERATOR_ROLE,
      email: 'operador@demo.local',
      username: '',
      name: '',
      password: DEMO_PASSWORD,
    },
    ...(Object.fromEntries(
      Object.entries(FIXTURE_USERS).map(([k, v]) => [k, { ...v, password: FIXTURE_PASSWORD }]),
    ) as Record<Exclude<FixtureUserKey, 'boAdmin' | 'boOp'>, FixtureUserSpec & { password: string }>),
  };
  const users = {} as Record<FixtureUserKey, FixtureUser>;
  for (const [key, spec] of Object.entries(specs) as [FixtureUserKey, FixtureUserSpec & { password: string }][]) {
    const row = await db
      .selectFrom('users')
      .select(['id', 'email', 'username', 'name', 'role_id'])
      .where('email', '=', spec.email)
      .executeTakeFirstOrThrow();
    users[key] = {
      key,
      id: row.id,
      email: row.email,
      username: row.username,
      name: row.name,
      tenant: spec.tenant,
      roleId: row.role_id,
      password: spec.password,
    };
  }
  return {
    tenants,
    users,
    roles: {
      admin: roles.get(ADMIN_ROLE) ?? 0,
      operator: roles.get(OPERATOR_ROLE) ?? 0,
      manager: roles.get(MANAGER_ROLE) ?? 0,
    },
  };
}

/**
 * On PostgreSQL each twin gets a database of its own in the cluster (openTestDatabase then makes its
 * schema in it): Kysely's Migrator looks for its lock table in every schema of a database, so a second
 * migrated schema in the same database would find the first one's and fail.
 */
async function ownDatabase(url: string, protocol: Protocol): Promise<{ url: string; drop(): Promise<void> }> {
  if (!/^postgres(ql)?:\/\//.test(url)) return { url, drop: async () => undefined };
  const name = `parity_${randomBytes(5).toString('hex')}_${protocol}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const scoped = new URL(url);
  scoped.pathname = `/${name}`;
  return { url: scoped.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

async function startTwin(protocol: Protocol, serverUrl: string, fixtureHash: string): Promise<Twin> {
  process.env.LOG_LEVEL = 'silent';
  const own = await ownDatabase(serverUrl, protocol);
  const databaseUrl = own.url;
  const opened = await openTestDatabase(databaseUrl);
  const database = {
    ...opened,
    close: async () => {
      await opened.close();
      await own.drop();
    },
  };
  await seedDemo(database.db, { days: 1, now: SEED_NOW, seed: SEED_PRNG });
  await insertFixtureUsers(database.db, fixtureHash);
  const config = loadConfig({
    databaseUrl,
    seedDemo: true,
    // Two failed sign-ins per account and address, then 429: short cases reach `throttled`.
    loginMaxFailures: 2,
    accessTokenTtl: 3600,
    // A superseded token stays usable for the whole case, however slow the box: the twins run in
    // parallel, and a grace ending between one twin's request and the other's would make them differ
    // for a reason no step chose (a token two rotations back is still refused at once).
    rotationGrace: 3600,
  });
  // No `pg` relay: the twins share a cluster on PostgreSQL, and NOTIFY would cross between them.
  const app = await buildApp({ db: database.db, config, hashPassword: cheapHash });
  return new Twin(protocol, app, database.db, database.close);
}

/**
 * Two twins on `databaseUrl` (`pglite://memory`: two in-memory databases; `postgres://…`: two schemas of
 * that server), the fixture users added, every signed-in principal signed in once through its twin's
 * protocol (and `revoked` signed in, then logged out), and the baseline recorded.
 */
export async function startTwins(databaseUrl: string): Promise<Twins> {
  const fixtureHash = await cheapHash(FIXTURE_PASSWORD);
  const [rest, graphql] = await Promise.all([
    startTwin('rest', databaseUrl, fixtureHash),
    startTwin('graphql', databaseUrl, fixtureHash),
  ]);
  const fixture = await readFixture(rest.db);
  const other = await readFixture(graphql.db);
  if (!isDeepStrictEqual(fixture, other)) throw new Error('the twins were not seeded alike');

  for (const twin of [rest, graphql]) {
    for (const principal of SIGNED_IN) {
      const user = fixture.users[PRINCIPAL_USER[principal] ?? 'aAdmin'];
      const { token, answer } = await twin.signIn(user.email, user.password, TENANT_NAMES[user.tenant]);
      if (!token) throw new Error(`${twin.protocol}: sign-in of ${principal} failed: ${JSON.stringify(answer)}`);
      twin.auth[principal] = `Bearer ${token}`;
    }
    const admin = fixture.users.aAdmin;
    const { token } = await twin.signIn(admin.email, admin.password, TENANT_NAMES.a);
    const logout = await twin.rest(`Bearer ${token}`, 'POST', '/api/auth/logout', {
      data: { email: admin.email },
      ip: null,
    });
    if (logout.status !== 200) throw new Error(`logout: ${JSON.stringify(logout)}`);
    twin.auth.revoked = `Bearer ${token}`;
    await twin.recordBaseline();
  }

  const twins: Twins = {
    rest,
    graphql,
    fixture,
    async reset() {
      await Promise.all([rest.reset(), graphql.reset()]);
    },
    async compare(passwords) {
      const [r, g] = await Promise.all([rest.readState(), graphql.readState()]);
      const diff = stateDiff(r, g);
      if (diff) throw new Error(`rows differ between the twins: ${diff}`);
      const [rc, gc] = await Promise.all([
        hashesCheck(rest, rest.state ?? r, r, passwords),
        hashesCheck(graphql, graphql.state ?? g, g, passwords),
      ]);
      if (!isDeepStrictEqual(rc, gc))
        throw new Error(`password hashes changed for different users: REST ${rc.join(',')} vs GraphQL ${gc.join(',')}`);
      rest.state = r;
      graphql.state = g;
    },
    async close() {
      await Promise.all([rest.close(), graphql.close()]);
    },
  };
  await twins.reset();
  await twins.compare(new Map());
  return twins;
}
