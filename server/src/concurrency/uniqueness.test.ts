import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../test-support/app';
import { roleId, tenantId } from '../test-support/lookups';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';

/**
 * The second click, the retried request, two staff on one screen: N identical requests at once.
 * Uniqueness is the database's (unique indexes), a violation is the contract's conflict in one place
 * (server/src/base/domain-error.ts), and the user limit is counted under the tenant's row lock
 * (server/src/users/service.ts). So for every create or rename with a uniqueness rule, 16 parallel
 * identical requests give exactly one success and the contract's conflict for the rest, never a 5xx
 * and never a duplicate row; 16 parallel creations against a tenant one below its user limit never
 * exceed it. On PostgreSQL (a connection pool: real concurrency) and on PGlite (one connection: the
 * same answers, serialised).
 *
 * Department names are unique in a tenant and connection names in an instance (migration 0013): their
 * creates and renames have cases here too.
 * A role deleted while users are given it: server/src/concurrency/role-delete.test.ts.
 */

const N = 16;
const GRAPHQL = '/backoffice/graphql';

type Answer = { status: number; body: unknown };

const NEW_USER = `mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!) {
  newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id) { id }
}`;

function answerOf(response: LightMyRequestResponse): Answer {
  let body: unknown = response.body;
  try {
    body = response.json();
  } catch {
    // not JSON: kept as text for the failure message
  }
  return { status: response.statusCode, body };
}

/** A GraphQL answer's first error code, or 'ok'. */
function graphqlOutcome(answer: Answer): string {
  const errors = (answer.body as { errors?: { extensions?: { code?: string; field?: string } }[] }).errors;
  const first = errors?.[0]?.extensions;
  return first ? `${first.code}${first.field ? `:${first.field}` : ''}` : 'ok';
}

function tally(outcomes: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: %i identical requests at once', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  let operatorRole: number;

  const rest = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: Record<string, unknown>) =>
    t.app.fastify.inject({ method, url, payload, headers: admin }).then(answerOf);
  const graphql = (query: string, variables: Record<string, unknown>) =>
    t.app.fastify
      .inject({ method: 'POST', url: GRAPHQL, payload: { query, variables }, headers: admin })
      .then(answerOf);
  const restOutcome = (answer: Answer) => {
    const field = (answer.body as { field?: string }).field;
    return `${answer.status}${answer.status === 409 && field ? `:${field}` : ''}`;
  };

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ ...(cluster ? { databaseUrl: cluster.url } : {}), seed: { days: 1 } });
    admin = await t.auth('admin@demo.local');
    operatorRole = await roleId(t.db, 'operador');
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const user = (i: number, email: string) => ({
    username: `corrida.${i}`,
    name: `Corrida ${i}`,
    email,
    password: 'Corrida#Segura!9',
    role_id: operatorRole,
  });

  it('user create with one e-mail, REST and GraphQL mixed: one 201, the rest the e-mail conflict, one row', async () => {
    const email = `mesmo.email.${postgres ? 'pg' : 'pgl'}@demo.local`;
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        i % 2 === 0
          ? rest('POST', '/api/users', user(i, i % 4 === 0 ? email : email.toUpperCase()))
          : graphql(NEW_USER, user(i, email)),
      ),
    );
    const outcomes = answers.map((a, i) => (i % 2 === 0 ? restOutcome(a) : graphqlOutcome(a)));
    const wins = outcomes.filter((o) => o === '201' || o === 'ok');
    expect(wins, JSON.stringify(tally(outcomes))).toHaveLength(1);
    for (const outcome of outcomes) expect(['201', 'ok', '409:email', 'BAD_USER_INPUT:email']).toContain(outcome);
    const rows = await t.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
      .where('deleted_at', 'is', null)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('user create with one username in a tenant: one success, the rest the username conflict', async () => {
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        rest('POST', '/api/users', {
          ...user(100 + i, `nome.igual.${i}@demo.local`),
          username: i % 2 ? 'Nome.Igual' : 'nome.igual',
        }),
      ),
    );
    const outcomes = answers.map(restOutcome);
    expect(tally(outcomes)).toEqual({ '201': 1, '409:username': N - 1 });
  });

  it('sixteen different users renamed to one e-mail at once: one keeps it, the rest the e-mail conflict', async () => {
    const ids: number[] = [];
    for (let i = 0; i < N; i += 1) {
      const created = await rest('POST', '/api/users', user(200 + i, `renomear.${i}@demo.local`));
      expect(created.status).toBe(201);
      ids.push((created.body as { id: number }).id);
    }
    const target = `alvo.${postgres ? 'pg' : 'pgl'}@demo.local`;
    const answers = await Promise.all(ids.map((id) => rest('PUT', `/api/users/${id}`, { email: target })));
    expect(tally(answers.map(restOutcome))).toEqual({ '200': 1, '409:email': N - 1 });
    const rows = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', target)
      .where('deleted_at', 'is', null)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('user creations against a tenant one below its user limit, REST and GraphQL mixed: exactly one more user', async () => {
    const backoffice = await tenantId(t.db, 'backoffice');
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('tenant_id', '=', backoffice)
            .where('deleted_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const plan = await rest('POST', '/api/tenant/set-plan', {
      id: backoffice,
      plan: 'enterprise',
      user: before + 1,
      ticket: 1000,
    });
    expect(plan.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        i % 2 === 0
          ? rest('POST', '/api/users', user(300 + i, `limite.${i}@demo.local`))
          : graphql(NEW_USER, user(300 + i, `limite.${i}@demo.local`)),
      ),
    );
    const outcomes = answers.map((a, i) => (i % 2 === 0 ? restOutcome(a) : graphqlOutcome(a)));
    expect(
      outcomes.filter((o) => o === '201' || o === 'ok'),
      JSON.stringify(tally(outcomes)),
    ).toHaveLength(1);
    for (const outcome of outcomes) expect(['201', 'ok', '409:role_id', 'USER_LIMIT_REACHED']).toContain(outcome);
    expect(await count()).toBe(before + 1);
    // Room again for the other cases of this file.
    expect(
      (await rest('POST', '/api/tenant/set-plan', { id: backoffice, plan: 'enterprise', user: 100_000, ticket: 1000 }))
        .status,
    ).toBe(200);
  });

  it('tenant create with one name: one 201, the rest 409 name, one row', async () => {
    const tenant = {
      name: 'corrida-de-tenants',
      cnpj: '12.ABC.345/01DE-35',
      features: ['chat'],
      template: 'pharmacy',
      pool: 'pool-a',
      userLimit: 5,
      plan: 'starter',
      ticketLimit: 100,
    };
    const answers = await Promise.all(Array.from({ length: N }, () => rest('POST', '/api/tenant', tenant)));
    expect(tally(answers.map(restOutcome))).toEqual({ '201': 1, '409:name': N - 1 });
    expect(await t.db.selectFrom('tenants').select('id').where('name', '=', tenant.name).execute()).toHaveLength(1);
  });

  it('sixteen tenants renamed to one name at once: one 200, the rest 409 name, one row', async () => {
    const ids: number[] = [];
    for (let i = 0; i < N; i += 1) {
      const created = await rest('POST', '/api/tenant', {
        name: `renomear-tenant-${i}`,
        cnpj: '11.222.333/0001-81',
        features: [],
        template: 'pharmacy',
        pool: 'pool-a',
        userLimit: 5,
        plan: 'starter',
        ticketLimit: 100,
      });
      expect(created.status).toBe(201);
      ids.push((created.body as { id: number }).id);
    }
    const answers = await Promise.all(
      ids.map((id) =>
        rest('POST', '/api/tenant/update', {
          id,
          name: 'tenant-renomeado',
          cnpj: '11.222.333/0001-81',
          template: 'pharmacy',
          pool: 'pool-a',
        }),
      ),
    );
    expect(tally(answers.map(restOutcome))).toEqual({ '200': 1, '409:name': N - 1 });
    expect(await t.db.selectFrom('tenants').select('id').where('name', '=', 'tenant-renomeado').execute()).toHaveLength(
      1,
    );
  });

  it('role create with one name: one 201, the rest 409 name, one row', async () => {
    const answers = await Promise.all(
      Array.from({ length: N }, () => rest('POST', '/api/roles', { name: 'corrida', display_name: 'Corrida' })),
    );
    expect(tally(answers.map(restOutcome))).toEqual({ '201': 1, '409:name': N - 1 });
    expect(await t.db.selectFrom('roles').select('id').where('name', '=', 'corrida').execute()).toHaveLength(1);
  });

  it('instance create with one name (any case): one 201, the rest 409 name, one row', async () => {
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        rest('POST', '/api/instance', {
          name: i % 2 ? 'WhatsApp Corrida' : 'whatsapp corrida',
          tenantName: 'backoffice',
          isOfficial: false,
          isUnlimited: false,
        }),
      ),
    );
    expect(tally(answers.map(restOutcome))).toEqual({ '201': 1, '409:name': N - 1 });
    const rows = await t.db
      .selectFrom('instances')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['name']), '=', 'whatsapp corrida'))
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('sixteen instances renamed to one name at once: one 200, the rest 409 name', async () => {
    const ids: number[] = [];
    for (let i = 0; i < N; i += 1) {
      const created = await rest('POST', '/api/instance', {
        name: `Renomear ${i}`,
        tenantName: 'backoffice',
        isOfficial: false,
        isUnlimited: false,
      });
      expect(created.status).toBe(201);
      ids.push((created.body as { id: number }).id);
    }
    const answers = await Promise.all(
      ids.map((id) => rest('POST', '/api/instance/update', { id, tenantName: 'backoffice', name: 'Mesmo Nome' })),
    );
    expect(tally(answers.map(restOutcome))).toEqual({ '200': 1, '409:name': N - 1 });
  });

  it('department create with one name (any case), REST and GraphQL mixed: one success, the rest the name conflict, one row', async () => {
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        i % 2 === 0
          ? rest('POST', '/api/departments', { name: i % 4 ? 'Departamento Corrida' : 'departamento corrida' })
          : graphql('mutation c($name: String!) { createDepartment(name: $name) { id } }', {
              name: 'DEPARTAMENTO CORRIDA',
            }),
      ),
    );
    const outcomes = answers.map((a, i) => (i % 2 === 0 ? restOutcome(a) : graphqlOutcome(a)));
    expect(
      outcomes.filter((o) => o === '201' || o === 'ok'),
      JSON.stringify(tally(outcomes)),
    ).toHaveLength(1);
    for (const outcome of outcomes) expect(['201', 'ok', '409:name', 'BAD_USER_INPUT:name']).toContain(outcome);
    const rows = await t.db
      .selectFrom('departments')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['name']), '=', 'departamento corrida'))
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('sixteen departments renamed to one name at once: one 200, the rest 409 name, one row', async () => {
    const ids: number[] = [];
    for (let i = 0; i < N; i += 1) {
      const created = await rest('POST', '/api/departments', { name: `Departamento ${i}` });
      expect(created.status).toBe(201);
      ids.push((created.body as { id: number }).id);
    }
    const answers = await Promise.all(
      ids.map((id) => rest('PATCH', `/api/departments/${id}`, { name: 'Mesmo Setor' })),
    );
    expect(tally(answers.map(restOutcome))).toEqual({ '200': 1, '409:name': N - 1 });
    const rows = await t.db
      .selectFrom('departments')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['name']), '=', 'mesmo setor'))
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('connection create with one name (any case) in one instance: one 201, the rest 409 name, one row', async () => {
    const instance = (
      await rest('POST', '/api/instance', {
        name: 'Canal das conexões',
        tenantName: 'backoffice',
        isOfficial: false,
        isUnlimited: false,
      })
    ).body as { id: number };
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        rest('POST', '/api/connection', {
          tenantName: 'backoffice',
          instance_id: instance.id,
          name: i % 2 ? 'Conexao Corrida' : 'CONEXAO CORRIDA',
        }),
      ),
    );
    expect(tally(answers.map(restOutcome))).toEqual({ '201': 1, '409:name': N - 1 });
    const rows = await t.db.selectFrom('connections').select('id').where('instance_id', '=', instance.id).execute();
    expect(rows).toHaveLength(1);

    const ids: number[] = [];
    for (let i = 0; i < N; i += 1) {
      const created = await rest('POST', '/api/connection', {
        tenantName: 'backoffice',
        instance_id: instance.id,
        name: `Conexão ${i}`,
      });
      expect(created.status).toBe(201);
      ids.push((created.body as { id: number }).id);
    }
    const renames = await Promise.all(
      ids.map((id) => rest('POST', '/api/connection/update', { id, tenantName: 'backoffice', name: 'Mesma Conexão' })),
    );
    expect(tally(renames.map(restOutcome))).toEqual({ '200': 1, '409:name': N - 1 });
  });
});
