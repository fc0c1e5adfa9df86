import type { KyselyPlugin } from 'kysely';
import type { Actor } from '../access/caller';
import { createAttentionService } from '../attention/service';
import { loadConfig } from '../base/config';
import { ADMIN_ROLE } from '../db/catalog';
import type { TestApp } from '../test-support/app';
import { issuedBearer } from '../test-support/app';
import { startAttackApp, type AttackApp, type Answer } from '../test-support/attack-kit';
import { validateResponse } from '../test-support/contract';
import { createTestRole, createTestUser, TEST_PASSWORD, type TestUser } from '../test-support/users';

/**
 * An attack by a reviewer who did not write them on the panel's two new reads (docs/panel.md): REST
 * `GET /api/audit/names` (the audit log's filters by name) and GraphQL `attention` (the home), on the
 * embedded database and on PostgreSQL: other principals and tenants, LIKE metacharacters, NUL and
 * non-BMP text, bad parameters, GraphQL document shapes, bursts of identical requests.
 *
 * Found and fixed:
 * - `q` of 51 to 100 non-BMP characters (emoji) was refused as over 100 characters: the service counted
 *   UTF-16 units where the contract's `maxLength: 100` counts characters;
 * - `attention` under 15 aliases (the alias limit; each alias costs 1 in the document's cost) ran every
 *   kind's query 15 times: now asked again while it is read, the same answer;
 * - a tenant whose user limit is 0 (the column allows it) with no user was not at its limit;
 * - GraphQL `auditNames` (its second door) answered 500 to a `\u0000` escape in the document's own
 *   string literal or a variable's default value, which the door's NUL check (on the JSON body) cannot
 *   see: the service now refuses it as bad input on `q`;
 * - locked accounts showed the shortest wait of the addresses at the per-pair limit, where the throttle
 *   refuses the fresh one for almost the whole window and the support desk's person page (the item's
 *   link) says so: the longest now, and the order follows it;
 * - locked accounts listed, to staff holding `users` but not administrador, people the desk then refused
 *   them (an administrador, a user holding a permission they lack, their own account): now only those
 *   whose person page opens for the caller.
 *
 * And what held, kept as tests: a customer's names never hold another tenant's people or staff (LIKE
 * metacharacters, ids), NUL refused with 400, bad parameters 400 with the contract's shape, deleted,
 * blocked and deleted-tenant callers 401, 50 requests at once alike, every document shape of `attention`
 * alike and scoped, batches, GET, directives and cost refused.
 */

type Bearer = { authorization: string };
type Name = { id: number; name: string | null; email: string | null; tenant_name: string | null };

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: an attack on audit names and attention', (_label, postgres) => {
  let kit: AttackApp;
  let t: TestApp;
  let staff: Bearer;
  const tag = postgres ? 'pg' : 'pl';
  let a: { id: number; name: string };
  let b: { id: number; name: string };
  let gone: { id: number; name: string };
  let adminA: TestUser;
  let adminB: TestUser;
  let bearerA: Bearer;
  let bearerB: Bearer;
  let auditOnlyA: Bearer;
  let tenantsOnlyA: Bearer;
  let nothingA: Bearer;
  let staffUser: number;
  let backofficeId: number;

  const names = (bearer: Bearer, query: string) => kit.send('GET', `/api/audit/names?${query}`, bearer);

  const graphql = async (bearer: Bearer, body: Record<string, unknown>, path = 'backoffice'): Promise<Answer> =>
    kit.send('POST', `/${path}/graphql`, bearer, body);

  async function record(values: {
    actor?: { id: number; name: string; email: string; tenantId: number; tenantName: string } | null;
    targetType: string;
    targetId: number;
    targetName: string;
    tenant: { id: number; name: string };
  }) {
    await t.db
      .insertInto('audit_log')
      .values({
        actor_user_id: values.actor?.id ?? null,
        actor_name: values.actor?.name ?? null,
        actor_email: values.actor?.email ?? null,
        actor_tenant_id: values.actor?.tenantId ?? null,
        actor_tenant_name: values.actor?.tenantName ?? null,
        address: null,
        request_id: null,
        operation: 'user.update',
        target_type: values.targetType,
        target_id: values.targetId,
        target_name: values.targetName,
        tenant_id: values.tenant.id,
        tenant_name: values.tenant.name,
        changes: '[]',
        batch_id: null,
      })
      .execute();
  }

  const userActor = (u: TestUser, name: string) => ({
    id: u.id,
    name,
    email: u.email,
    tenantId: u.tenantId,
    tenantName: u.tenantName,
  });

  beforeAll(async () => {
    kit = await startAttackApp(postgres);
    ({ t, staff } = kit);
    a = await kit.createTenant(`painel-a-${tag}`, 3);
    b = await kit.createTenant(`painel-b-${tag}`, 3);
    gone = await kit.createTenant(`painel-apagada-${tag}`, 3);
    backofficeId = (
      await t.db.selectFrom('tenants').select('id').where('name', '=', 'backoffice').executeTakeFirstOrThrow()
    ).id;
    staffUser = (
      await t.db.selectFrom('users').select('id').where('email', '=', 'admin@demo.local').executeTakeFirstOrThrow()
    ).id;
    adminA = await createTestUser(t.db, { email: `adm-a-${tag}@painel.local`, tenant: a.name, role: ADMIN_ROLE });
    adminB = await createTestUser(t.db, { email: `adm-b-${tag}@painel.local`, tenant: b.name, role: ADMIN_ROLE });
    await createTestRole(t.db, `painel-auditoria-${tag}`, ['audit']);
    await createTestRole(t.db, `painel-empresas-${tag}`, ['tenants']);
    await createTestRole(t.db, `painel-nada-${tag}`, []);
    const auditA = await createTestUser(t.db, {
      email: `aud-a-${tag}@painel.local`,
      tenant: a.name,
      role: `painel-auditoria-${tag}`,
    });
    const tenantsA = await createTestUser(t.db, {
      email: `emp-a-${tag}@painel.local`,
      tenant: a.name,
      role: `painel-empresas-${tag}`,
    });
    const nothing = await createTestUser(t.db, {
      email: `nada-a-${tag}@painel.local`,
      tenant: a.name,
      role: `painel-nada-${tag}`,
    });
    bearerA = await issuedBearer(t, adminA.id);
    bearerB = await issuedBearer(t, adminB.id);
    auditOnlyA = await issuedBearer(t, auditA.id);
    tenantsOnlyA = await issuedBearer(t, tenantsA.id);
    nothingA = await issuedBearer(t, nothing.id);
    const staffActor = {
      id: staffUser,
      name: 'Segredo Staff',
      email: 'admin@demo.local',
      tenantId: backofficeId,
      tenantName: 'backoffice',
    };
    // A's records: its administrador's (names with LIKE metacharacters), staff's on A; B's: B's own.
    for (const [tenant, name] of [
      [a, 'Falhou A'],
      [b, 'Falhou B'],
      [b, 'Falhou B2'],
    ] as const)
      await t.db
        .insertInto('instances')
        .values({ tenant_id: tenant.id, name, status: 'failed', activated: true, total_messages: null })
        .execute();
    await record({
      actor: userActor(adminA, 'Ana 100% _A_ \\ barra'),
      targetType: 'user',
      targetId: adminA.id,
      targetName: 'Alvo A',
      tenant: a,
    });
    await record({ actor: staffActor, targetType: 'user', targetId: adminA.id, targetName: 'Alvo A', tenant: a });
    await record({
      actor: userActor(adminB, 'Bruno Segredo B'),
      targetType: 'user',
      targetId: adminB.id,
      targetName: 'Alvo Segredo B',
      tenant: b,
    });
    await record({
      actor: userActor(adminB, 'Bruno Segredo B'),
      targetType: 'tenant',
      targetId: b.id,
      targetName: b.name,
      tenant: b,
    });
  }, 240_000);

  afterAll(async () => {
    await kit?.stop();
  });

  const all = async (bearer: Bearer, query: string): Promise<Name[]> => {
    const got = await names(bearer, query);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(validateResponse('auditNames', 200, got.body)).toEqual({ valid: true, errors: [] });
    return (got.body as { data: Name[] }).data;
  };

  it("a customer's names never hold another tenant's or staff, by any search term", async () => {
    const terms = ['', '%', '_', '\\', '%25', 'Segredo', 'B', 'admin@demo', '@', String(adminB.id), '.*', "'", ' '];
    for (const term of terms) {
      for (const query of [
        `of=actor&limit=50`,
        `of=target&targetType=user&limit=50`,
        `of=target&targetType=tenant&limit=50`,
      ]) {
        const got = await all(bearerA, `${query}&q=${encodeURIComponent(term)}`);
        const text = JSON.stringify(got);
        expect(text, `${query} q=${term}`).not.toContain('Segredo');
        expect(text).not.toContain('demo.local');
        expect(text).not.toContain(b.name);
        for (const n of got) expect([adminA.id, a.id]).toContain(n.id);
      }
    }
    // And the other way: B's administrador reads B's own people only.
    expect((await all(bearerB, 'of=actor&limit=50')).map((n) => n.id)).toEqual([adminB.id]);
    expect((await all(bearerB, 'of=target&targetType=user&limit=50')).map((n) => n.name)).toEqual(['Alvo Segredo B']);
    // And by id.
    expect(await all(bearerA, `of=actor&id=${staffUser}`)).toEqual([]);
    expect(await all(bearerA, `of=actor&id=${adminB.id}`)).toEqual([]);
    expect(await all(bearerA, `of=target&targetType=user&id=${adminB.id}`)).toEqual([]);
    expect(await all(bearerA, `of=target&targetType=tenant&id=${b.id}`)).toEqual([]);
  });

  it('LIKE metacharacters match themselves only', async () => {
    for (const term of ['%', '_', '\\', '100%', '_A_']) {
      const got = await all(staff, `of=actor&limit=50&q=${encodeURIComponent(term)}`);
      for (const n of got) expect(`${n.name} ${n.email}`.toLowerCase(), term).toContain(term.toLowerCase());
      expect(
        got.map((n) => n.id),
        term,
      ).toContain(adminA.id);
    }
  });

  it('NUL, non-BMP, lone-surrogate and over-long search terms: 200 or 400 with the error shape, never 5xx', async () => {
    const cases: [string, number][] = [
      ['%00', 400],
      ['a%00b', 400],
      [encodeURIComponent('😀'.repeat(100)), 200],
      [encodeURIComponent('😀'.repeat(51)), 200],
      [encodeURIComponent('😀'.repeat(101)), 400],
      ['x'.repeat(101), 400],
      ['%ED%A0%80', 200],
      ['%FF%FE', 200],
      [encodeURIComponent('ÁÇÃ ñ ß ǅ İ'), 200],
    ];
    for (const [term, want] of cases) {
      const got = await names(staff, `of=actor&q=${term}`);
      expect(got.status, `${term}: ${JSON.stringify(got.body)}`).toBe(want);
      expect(validateResponse('auditNames', got.status, got.body), term).toEqual({ valid: true, errors: [] });
    }
  });

  it('missing, unknown or out-of-range parameters answer 400 with the contract shape', async () => {
    const bad = [
      '',
      'of=',
      'of=both',
      'of=target',
      'of=target&targetType=nope',
      'of=actor&limit=0',
      'of=actor&limit=51',
      'of=actor&limit=999999999999999999999',
      'of=actor&limit=-1',
      'of=actor&limit=1.5',
      'of=actor&limit=abc',
      'of=actor&id=0',
      'of=actor&id=-5',
      'of=actor&id=abc',
      'of=actor&id=99999999999999999999',
      'of=actor&of=target',
      'of=actor&q=a&q=b',
      'of=actor&limit=1&limit=2',
    ];
    for (const query of bad) {
      const got = await names(staff, query);
      expect(got.status, `${query}: ${JSON.stringify(got.body)}`).toBe(400);
      expect(validateResponse('auditNames', 400, got.body), query).toEqual({ valid: true, errors: [] });
    }
  });

  it('who may ask: no audit permission 403, a deleted or blocked user or a deleted tenant 401', async () => {
    expect((await names(tenantsOnlyA, 'of=actor')).status).toBe(403);
    expect((await names(nothingA, 'of=actor')).status).toBe(403);
    expect((await names(auditOnlyA, 'of=actor')).status).toBe(200);
    const doomed = await createTestUser(t.db, { email: `morto-${tag}@painel.local`, tenant: a.name, role: ADMIN_ROLE });
    const blocked = await createTestUser(t.db, { email: `bloq-${tag}@painel.local`, tenant: a.name, role: ADMIN_ROLE });
    const orphan = await createTestUser(t.db, {
      email: `orfao-${tag}@painel.local`,
      tenant: gone.name,
      role: ADMIN_ROLE,
    });
    const tokens = {
      doomed: await issuedBearer(t, doomed.id),
      blocked: await issuedBearer(t, blocked.id),
      orphan: await issuedBearer(t, orphan.id),
    };
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', doomed.id).execute();
    await t.db.updateTable('users').set({ blocked: true }).where('id', '=', blocked.id).execute();
    await t.db.updateTable('tenants').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    for (const [who, bearer] of Object.entries(tokens)) {
      const rest = await names(bearer, 'of=actor');
      expect(rest.status, `${who} REST`).toBe(401);
      const gql = await graphql(
        bearer,
        { query: '{ attention { __typename } }' },
        who === 'orphan' ? gone.name : a.name,
      );
      expect(gql.status, `${who} GraphQL`).toBe(401);
      expect(JSON.stringify(gql.body), `${who} GraphQL`).not.toContain('"attention":{');
    }
  });

  it('a burst of 50 identical names and attention requests: no 5xx, identical answers', async () => {
    const rest = await Promise.all(Array.from({ length: 50 }, () => names(bearerA, 'of=actor&q=%25')));
    expect(new Set(rest.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(rest.map((r) => JSON.stringify(r.body))).size).toBe(1);
    const gql = await Promise.all(
      Array.from({ length: 50 }, () =>
        graphql(staff, { query: '{ attention { failedSyncs { total items { id } } lockedAccounts { total } } }' }),
      ),
    );
    expect(new Set(gql.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(gql.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  const FULL = '{ total items { id name tenantName instanceName count limit retryAfter } }';
  const KINDS = ['tenantsOverUserLimit', 'failedSyncs', 'disconnectedConnections', 'lockedAccounts'] as const;

  it('attention: every document shape answers the same, scoped to the caller', async () => {
    const plain = await graphql(
      bearerA,
      {
        query: `{ attention { ${KINDS.map((k) => `${k} ${FULL}`).join(' ')} } }`,
      },
      a.name,
    );
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    const want = (plain.body as { data: { attention: Record<string, unknown> } }).data.attention;
    expect(want.lockedAccounts).toBeNull();
    const shapes = [
      `{ attention { ...A } } fragment A on Attention { ${KINDS.map((k) => `${k} ${FULL}`).join(' ')} }`,
      `{ attention { ... on Attention { ${KINDS.map((k) => `${k} ${FULL}`).join(' ')} } } }`,
      `query Q { attention { ...A } } fragment A on Attention { ...B } fragment B on Attention { ${KINDS.map((k) => `${k} ${FULL}`).join(' ')} }`,
      `{ attention @include(if: true) { ${KINDS.map((k) => `${k} @skip(if: false) ${FULL}`).join(' ')} } }`,
    ];
    for (const query of shapes) {
      const got = await graphql(bearerA, { query }, a.name);
      expect(got.status, query).toBe(200);
      expect((got.body as { data: { attention: unknown } }).data.attention, query).toEqual(want);
    }
    // A's own only: no B tenant anywhere.
    expect(JSON.stringify(want)).not.toContain(b.name);
    // Without tenants, nothing but null kinds.
    const none = await graphql(
      auditOnlyA,
      {
        query: `{ attention { ${KINDS.map((k) => `${k} ${FULL}`).join(' ')} } }`,
      },
      a.name,
    );
    // With tenants only: A's items, A's totals, never B's.
    const own = await graphql(
      tenantsOnlyA,
      {
        query: `{ attention { ${KINDS.map((k) => `${k} ${FULL}`).join(' ')} } }`,
      },
      a.name,
    );
    const mine = (
      own.body as { data: { attention: Record<string, { total: number; items: { tenantName: string }[] } | null> } }
    ).data.attention;
    expect(mine.lockedAccounts).toBeNull();
    expect(mine.failedSyncs).toEqual({
      total: 1,
      items: [expect.objectContaining({ name: 'Falhou A', tenantName: a.name })],
    });
    expect(mine.tenantsOverUserLimit?.items.map((i) => i.tenantName)).toEqual([a.name]);
    expect(mine.tenantsOverUserLimit?.total).toBe(1);
    expect(mine.disconnectedConnections).toEqual({ total: 0, items: [] });
    // Staff see B's too.
    const all = await graphql(staff, { query: `{ attention { failedSyncs ${FULL} } }` });
    expect(JSON.stringify(all.body)).toContain('Falhou B');
    expect((none.body as { data: { attention: unknown } }).data.attention).toEqual(
      Object.fromEntries(KINDS.map((k) => [k, null])),
    );
  });

  it('attention: 50 aliases, several operations, directives and cost are refused before anything runs', async () => {
    const aliases = Array.from({ length: 50 }, (_, i) => `a${i}: attention { __typename }`).join(' ');
    const fifty = await graphql(staff, { query: `{ ${aliases} }` });
    expect(fifty.status, JSON.stringify(fifty.body)).toBe(400);
    const costly = Array.from(
      { length: 4 },
      (_, i) => `a${i}: attention { ${KINDS.map((k) => `${k} ${FULL}`).join(' ')} }`,
    ).join(' ');
    const cost = await graphql(staff, { query: `{ ${costly} }` });
    expect(cost.status, JSON.stringify(cost.body)).toBe(400);
    expect(JSON.stringify(cost.body)).toContain('expensive');
    const two = await graphql(staff, {
      query: 'query A { attention { __typename } } query B { attention { __typename } }',
    });
    expect(two.status).toBe(400);
    const bogus = await graphql(staff, { query: '{ attention { failedSyncs(first: 1000000) { total } } }' });
    expect(bogus.status).toBe(400);
    const batch = await kit.send(
      'POST',
      '/backoffice/graphql',
      staff,
      Array.from({ length: 50 }, () => ({ query: '{ attention { failedSyncs { total } } }' })),
    );
    expect(batch.status).toBe(400);
    const get = await kit.send(
      'GET',
      `/backoffice/graphql?query=${encodeURIComponent('{ attention { __typename } }')}`,
      staff,
    );
    expect(get.status).toBe(405);
    const directives = await graphql(staff, {
      query: `{ attention ${'@include(if: true) '.repeat(100)} { failedSyncs { total } } }`,
    });
    expect(directives.status).toBe(400);
    const introspect = await graphql(staff, { query: '{ __type(name: "Attention") { fields { name } } }' });
    expect([200, 400]).toContain(introspect.status);
  });

  it('attention asked under 15 aliases at once reads each kind once, and afresh once answered', async () => {
    let queries = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const service = createAttentionService({
      db: t.db.withPlugin(counting),
      config: {
        loginMaxFailures: 5,
        loginMaxFailuresPerAddress: 20,
        loginMaxFailuresPerAccount: 10,
        loginBackoffSeconds: 60,
        loginWindowSeconds: 900,
      },
    });
    // One request's caller, as GraphQL's context holds it for every alias of the document.
    const actor = {
      kind: 'user',
      userId: staffUser,
      tenantId: backofficeId,
      tenantName: 'backoffice',
      roleId: 0,
      role: ADMIN_ROLE,
      originBackoffice: true,
      permissions: new Set(['tenants', 'users']),
      claims: {},
      origin: { requestId: null, address: null },
    } as unknown as Actor;
    const answers = await Promise.all(Array.from({ length: 15 }, () => service.list(actor)));
    expect(queries).toBe(4);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    await service.list(actor);
    expect(queries).toBe(8);
    // Through GraphQL: 15 aliases answer alike.
    const doc = Array.from({ length: 15 }, (_, i) => `a${i}: attention { failedSyncs { total } }`).join(' ');
    const got = await graphql(staff, { query: `{ ${doc} }` });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    const data = (got.body as { data: Record<string, unknown> }).data;
    expect(new Set(Object.values(data).map((v) => JSON.stringify(v))).size).toBe(1);
  });

  it('a tenant whose limit is 0 (the column allows it) with no user is at its limit', async () => {
    const empty = await kit.createTenant(`painel-zero-${tag}`, 1);
    await t.db.updateTable('tenants').set({ user_limit: 0 }).where('id', '=', empty.id).execute();
    const got = await graphql(staff, { query: `{ attention { tenantsOverUserLimit ${FULL} } }` });
    const kind = (got.body as { data: { attention: { tenantsOverUserLimit: { items: { name: string }[] } } } }).data
      .attention.tenantsOverUserLimit;
    expect(kind.items).toContainEqual(expect.objectContaining({ name: empty.name, count: 0, limit: 0 }));
  });
  // GraphQL `auditNames` (the second door to the same service) and the locked accounts' wait.

  type GqlError = { message: string; extensions?: { code?: string; field?: string } };

  it('GraphQL auditNames: a NUL written in the document itself is bad input, never a 500', async () => {
    // Variables holding U+0000 are refused by the door before anything runs; a `\u0000` escape inside the
    // document's own string literal is only seen once the document is parsed: the door refuses it then
    // (server/src/graphql/request-reading.ts `nulLiteral`), for every field.
    for (const [bearer, path] of [
      [bearerA, a.name],
      [staff, 'backoffice'],
    ] as const) {
      for (const query of [
        '{ auditNames(of: "actor", q: "a\\u0000b") { id } }',
        '{ auditNames(of: "target", targetType: "user", q: "\\u0000") { id } }',
        // A variable's default value is the document's too.
        'query N($q: String = "\\u0000") { n: auditNames(of: "actor", q: $q) { id } }',
      ]) {
        const got = await graphql(bearer, { query }, path);
        const body = got.body as { data?: unknown; errors?: GqlError[] };
        expect(got.status, `${query}: ${JSON.stringify(got.body)}`).toBe(400);
        expect(
          body.errors?.map((e) => e.extensions?.code),
          query,
        ).toEqual(['BAD_USER_INPUT']);
      }
    }
    // A NUL character itself in the document is the door's to refuse (400), as in variables.
    const raw = await graphql(bearerA, { query: '{ auditNames(of: "actor", q: "a\u0000b") { id } }' }, a.name);
    expect(raw.status).toBe(400);
    // REST refuses the same text before the service (the app's NUL check): 400.
    expect((await names(bearerA, 'of=actor&q=a%00b')).status).toBe(400);
  });

  it("GraphQL auditNames: a customer's aliases, fragments and ids never reach another tenant's people or staff", async () => {
    const fields = 'id name email tenant_name';
    const terms = ['', '%', '_', '\\\\', 'Segredo', 'B', '@', 'demo', String(adminB.id), String(staffUser)];
    const doc = [
      ...terms.map((term, i) => `q${i}: auditNames(of: "actor", q: "${term}", limit: 50) { ...N }`),
      `u: auditNames(of: "target", targetType: "user", limit: 50) { ... on AuditName { ${fields} } }`,
      `t: auditNames(of: "target", targetType: "tenant", limit: 50) { ${fields} }`,
      `s: auditNames(of: "actor", id: ${staffUser}) { ${fields} }`,
      `b: auditNames(of: "actor", id: ${adminB.id}) { ${fields} }`,
      `tb: auditNames(of: "target", targetType: "tenant", id: ${b.id}) { ${fields} }`,
    ].join(' ');
    const got = await graphql(bearerA, { query: `{ ${doc} } fragment N on AuditName { ${fields} }` }, a.name);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    const data = (got.body as { data: Record<string, Name[]>; errors?: unknown }).data;
    expect((got.body as { errors?: unknown }).errors).toBeUndefined();
    const text = JSON.stringify(data);
    expect(text).not.toContain('Segredo');
    expect(text).not.toContain('demo.local');
    expect(text).not.toContain(b.name);
    // Actors: A's people only (a refusal earlier in this file is recorded with its A caller as actor).
    for (const [key, list] of Object.entries(data))
      for (const n of list)
        if (key.startsWith('q')) expect(n.tenant_name, `${key} ${JSON.stringify(n)}`).toBe(a.name);
        else expect([adminA.id, a.id], `${key} ${JSON.stringify(n)}`).toContain(n.id);
    expect(data.q0?.map((n) => n.id)).toContain(adminA.id);
    expect([data.s, data.b, data.tb]).toEqual([[], [], []]);
    // Staff, through the same door, do read B's and staff's names: the scope, not the data, held them back.
    const all = await graphql(staff, { query: `{ auditNames(of: "actor", q: "Segredo", limit: 50) { ${fields} } }` });
    expect(JSON.stringify(all.body)).toContain('Bruno Segredo B');
    // Asked on another tenant's path, or without `audit`, or in one document with `attention`: refused whole.
    expect((await graphql(bearerA, { query: '{ auditNames(of: "actor") { id } }' }, b.name)).status).toBe(403);
    const mixed = await graphql(
      tenantsOnlyA,
      { query: '{ attention { __typename } auditNames(of: "actor") { id name } }' },
      a.name,
    );
    expect(mixed.status).toBe(403);
    expect(mixed.body.data ?? null).toBeNull();
    // 50 identical requests at once through this door: alike, no 5xx.
    const burst = await Promise.all(
      Array.from({ length: 50 }, () =>
        graphql(bearerA, { query: '{ auditNames(of: "actor", q: "%") { id name } }' }, a.name),
      ),
    );
    expect(new Set(burst.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(burst.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  // The app's own limits (its config as the test app loads it).
  const { loginWindowSeconds: window, loginMaxFailures: max } = loadConfig({});

  /** `n` counted failures of `email` from `address`, `secondsAgo` ago. */
  async function failures(email: string, n: number, address: string, secondsAgo: number) {
    const at = new Date(Date.now() - secondsAgo * 1000);
    await t.db
      .insertInto('login_attempts')
      .values(
        Array.from({ length: n }, () => ({
          email,
          ip: null,
          remote_address: address,
          address_key: address,
          user_id: null,
          success: false,
          reason: 'wrong_password' as const,
          created_at: at,
        })),
      )
      .execute();
  }

  it('locked accounts: the wait is the longest of the locked addresses, as the support desk and the throttle say', async () => {
    // Two addresses at the per-pair limit: one whose failures leave the window in a minute, one fresh.
    const two = await createTestUser(t.db, { email: `duas-${tag}@painel.local`, tenant: a.name, name: 'Duas Portas' });
    await failures(two.email, max, '198.51.100.1', window - 60);
    await failures(two.email, max, '198.51.100.2', 5);
    // One address only, locked for about five minutes.
    const one = await createTestUser(t.db, { email: `uma-${tag}@painel.local`, tenant: a.name, name: 'Uma Porta' });
    await failures(one.email, max, '198.51.100.3', window - 300);

    const asked = Date.now();
    const got = await graphql(staff, { query: `{ attention { lockedAccounts ${FULL} } }` });
    const items = (
      got.body as { data: { attention: { lockedAccounts: { items: { id: number; retryAfter: number }[] } } } }
    ).data.attention.lockedAccounts.items.filter((i) => i.id === two.id || i.id === one.id);
    // The fresh address refuses `two` for almost the whole window: the longest wait, listed first.
    expect(items.map((i) => i.id)).toEqual([two.id, one.id]);
    const wait = items[0]?.retryAfter ?? 0;
    expect(wait).toBeGreaterThan(window - 60);
    // The person page the item links to says the same wait.
    const desk = await kit.send('GET', `/api/support/users/${two.id}`, staff);
    expect(desk.status, JSON.stringify(desk.body)).toBe(200);
    const deskWait = (desk.body as { throttle: { retryAfter: number } }).throttle.retryAfter;
    // Each answer rounds up to a second, and the wait shrinks by the time taken between them.
    const slack = () => 1 + Math.ceil((Date.now() - asked) / 1000);
    expect(deskWait).toBeLessThanOrEqual(wait);
    expect(wait - deskWait).toBeLessThanOrEqual(slack());
    // And the throttle itself, from the fresh address.
    const signIn = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '198.51.100.2',
      payload: { email: two.email, password: TEST_PASSWORD, ip: null },
    });
    expect(signIn.statusCode).toBe(429);
    const refusedFor = Number(signIn.headers['retry-after']);
    expect(refusedFor).toBeLessThanOrEqual(wait);
    expect(wait - refusedFor).toBeLessThanOrEqual(slack());
  });
  it("locked accounts: only those the caller may act on, as the support desk's person page lets it", async () => {
    // A member of staff holding `users` but not administrador: the desk refuses it an administrador, a user
    // holding a permission it lacks, and its own account (docs/security.md, Who may do what).
    await createTestRole(t.db, `painel-suporte-${tag}`, ['users']);
    await createTestRole(t.db, `painel-relatorios-${tag}`, ['users', 'audit']);
    const desk = await createTestUser(t.db, {
      email: `suporte-${tag}@painel.local`,
      tenant: 'backoffice',
      role: `painel-suporte-${tag}`,
      name: 'Suporte Limitado',
    });
    const deskBearer = await issuedBearer(t, desk.id);
    const people = {
      admin: await createTestUser(t.db, {
        email: `tranc-adm-${tag}@painel.local`,
        tenant: a.name,
        role: ADMIN_ROLE,
        name: 'Trancado Administrador',
      }),
      more: await createTestUser(t.db, {
        email: `tranc-mais-${tag}@painel.local`,
        tenant: a.name,
        role: `painel-relatorios-${tag}`,
        name: 'Trancado Auditoria',
      }),
      peer: await createTestUser(t.db, {
        email: `tranc-par-${tag}@painel.local`,
        tenant: b.name,
        role: `painel-suporte-${tag}`,
        name: 'Trancado Par',
      }),
      none: await createTestUser(t.db, {
        email: `tranc-nada-${tag}@painel.local`,
        tenant: b.name,
        role: `painel-nada-${tag}`,
        name: 'Trancado Nada',
      }),
      own: desk,
    };
    for (const person of Object.values(people)) await failures(person.email, max, '198.51.100.20', 30);

    const lockedFor = async (bearer: Bearer) => {
      const got = await graphql(bearer, { query: `{ attention { lockedAccounts ${FULL} } }` });
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      const kind = (got.body as { data: { attention: { lockedAccounts: { total: number; items: { id: number }[] } } } })
        .data.attention.lockedAccounts;
      return { total: kind.total, ids: kind.items.map((i) => i.id) };
    };
    const mine = Object.values(people).map((p) => p.id);
    // The administrador of staff acts on every one of them but itself (it is not locked).
    const all = await lockedFor(staff);
    for (const id of mine) expect(all.ids, String(id)).toContain(id);
    // The limited desk: exactly those whose person page opens for it.
    const limited = await lockedFor(deskBearer);
    for (const [who, person] of Object.entries(people)) {
      const page = await kit.send('GET', `/api/support/users/${person.id}`, deskBearer);
      expect([200, 403, 409], who).toContain(page.status);
      expect(limited.ids.includes(person.id), `${who}: person page ${page.status}`).toBe(page.status === 200);
    }
    expect(limited.ids.filter((id) => mine.includes(id)).sort()).toEqual([people.peer.id, people.none.id].sort());
    // And the total counts only those.
    expect(limited.total).toBeLessThan(all.total);
  });
});
