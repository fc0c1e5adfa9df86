import type { LightMyRequestResponse } from 'fastify';
import { VIEW_COLUMNS, VIEWS_PER_LIST, type SavedView } from '../../../src/domain/views';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser } from '../test-support/users';

// Saved views (docs/lists.md, Views; contracts/openapi.yaml viewList, viewCreate, viewUpdate, viewDelete),
// through REST as an owner and as an attacker would use them: another user's view, a list whose route the
// caller lacks, hostile names and states, the limit, the default switched by racing requests.
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  let other: { authorization: string };
  let usersOnly: { authorization: string };
  let customerAdmin: { authorization: string };
  let n = 0;
  const unique = (prefix: string) => `${prefix} ${label} ${++n}`;

  const call = (
    headers: { authorization: string },
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> =>
    t.app.fastify.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  const list = async (headers: { authorization: string }, name: string) => {
    const response = await call(headers, 'GET', `/api/views?list=${name}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ data: SavedView[] }>();
    expect(validateResponse('viewList', 200, body)).toEqual({ valid: true, errors: [] });
    return body.data;
  };

  const create = async (
    headers: { authorization: string },
    body: { list: string; name: string; state?: unknown; is_default?: boolean },
  ) => {
    const response = await call(headers, 'POST', '/api/views', { state: { query: '', columns: [] }, ...body });
    expect(response.statusCode, response.body).toBe(201);
    const view = response.json<SavedView>();
    expect(validateResponse('viewCreate', 201, view)).toEqual({ valid: true, errors: [] });
    return view;
  };

  const defaults = async (headers: { authorization: string }, name: string) =>
    (await list(headers, name)).filter((v) => v.is_default).map((v) => v.id);

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    admin = await t.auth('admin@demo.local');
    const second = await createTestUser(t.db, {
      email: 'outra.admin@views.local',
      tenant: 'backoffice',
      role: 'administrador',
    });
    other = await issuedBearer(t, second.id);
    await createTestRole(t.db, 'so-usuarios-views', ['users']);
    const narrow = await createTestUser(t.db, {
      email: 'so.usuarios@views.local',
      tenant: 'backoffice',
      role: 'so-usuarios-views',
    });
    usersOnly = await issuedBearer(t, narrow.id);
    await t.db
      .insertInto('tenants')
      .values({
        name: 'views-cliente',
        cnpj: '11.222.333/0001-81',
        template: 't',
        pool: 'p',
        plan: 'starter',
        user_limit: 5,
        ticket_limit: 10,
      })
      .execute();
    const customer = await createTestUser(t.db, {
      email: 'admin@views-cliente.local',
      tenant: 'views-cliente',
      role: 'administrador',
      originBackoffice: false,
    });
    customerAdmin = await issuedBearer(t, customer.id);
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  describe('the owner', () => {
    it('saves a view, finds it listed by name, renames it, replaces its state and deletes it', async () => {
      const name = unique('Bloqueados');
      const created = await create(admin, {
        list: 'users',
        name: `  ${name}  `,
        state: { query: '?blocked=true&sort=email', columns: ['presence', 'department'] },
      });
      expect(created).toMatchObject({
        list: 'users',
        name,
        is_default: false,
        // The leading `?` dropped, the columns in the table's order.
        state: { query: 'blocked=true&sort=email', columns: ['department', 'presence'] },
      });
      expect((await list(admin, 'users')).find((v) => v.id === created.id)).toEqual(created);
      expect((await list(admin, 'tenants')).map((v) => v.id)).not.toContain(created.id);

      const renamed = await call(admin, 'PUT', `/api/views/${created.id}`, {
        name: `${name} (novo)`,
        state: { query: 'q=ana', columns: [] },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(validateResponse('viewUpdate', 200, renamed.json())).toEqual({ valid: true, errors: [] });
      expect(renamed.json()).toMatchObject({ name: `${name} (novo)`, state: { query: 'q=ana', columns: [] } });

      const deleted = await call(admin, 'DELETE', `/api/views/${created.id}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(validateResponse('viewDelete', 200, deleted.json())).toEqual({ valid: true, errors: [] });
      expect((await list(admin, 'users')).map((v) => v.id)).not.toContain(created.id);
      expect((await call(admin, 'DELETE', `/api/views/${created.id}`)).statusCode).toBe(404);
    });

    it('keeps names unique per user and list ignoring case: 409 view_name_taken; other lists and users are free', async () => {
      const name = unique('Minha visão');
      const first = await create(admin, { list: 'tenants', name });
      const again = await call(admin, 'POST', '/api/views', {
        list: 'tenants',
        name: name.toUpperCase(),
        state: { query: '', columns: [] },
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: 'view_name_taken', field: 'name' });
      expect(validateResponse('viewCreate', 409, again.json())).toEqual({ valid: true, errors: [] });
      await create(admin, { list: 'audit', name });
      await create(other, { list: 'tenants', name });
      const second = await create(admin, { list: 'tenants', name: `${name} 2` });
      const rename = await call(admin, 'PUT', `/api/views/${second.id}`, { name: ` ${name.toLowerCase()} ` });
      expect(rename.statusCode).toBe(409);
      expect(rename.json()).toMatchObject({ error: 'view_name_taken' });
      // Its own name, in another case, is no conflict.
      const recase = await call(admin, 'PUT', `/api/views/${first.id}`, { name: name.toUpperCase() });
      expect(recase.statusCode, recase.body).toBe(200);
    });

    it('makes one view the default at a time: setting another clears the first; false leaves none', async () => {
      const a = await create(admin, { list: 'audit', name: unique('A'), is_default: true });
      expect(await defaults(admin, 'audit')).toEqual([a.id]);
      const b = await create(admin, { list: 'audit', name: unique('B'), is_default: true });
      expect(await defaults(admin, 'audit')).toEqual([b.id]);
      const switched = await call(admin, 'PUT', `/api/views/${a.id}`, { is_default: true });
      expect(switched.json()).toMatchObject({ is_default: true });
      expect(await defaults(admin, 'audit')).toEqual([a.id]);
      await call(admin, 'PUT', `/api/views/${a.id}`, { is_default: false });
      expect(await defaults(admin, 'audit')).toEqual([]);
      // Another user's default of the same list is untouched by the caller's switches.
      const theirs = await create(other, { list: 'audit', name: unique('Deles'), is_default: true });
      await call(admin, 'PUT', `/api/views/${b.id}`, { is_default: true });
      expect(await defaults(other, 'audit')).toEqual([theirs.id]);
    });

    it('keeps at most 50 views per list: the 51st answers 409 view_limit_reached; another list is free', async () => {
      const fresh = await createTestUser(t.db, {
        email: `limite.${label.toLowerCase()}@views.local`,
        tenant: 'backoffice',
        role: 'administrador',
      });
      const headers = await issuedBearer(t, fresh.id);
      for (let i = 0; i < VIEWS_PER_LIST; i++) await create(headers, { list: 'users', name: `Visão ${i}` });
      const over = await call(headers, 'POST', '/api/views', {
        list: 'users',
        name: 'Mais uma',
        state: { query: '', columns: [] },
      });
      expect(over.statusCode).toBe(409);
      expect(over.json()).toMatchObject({ error: 'view_limit_reached' });
      await create(headers, { list: 'tenants', name: 'Mais uma' });
      expect(await list(headers, 'users')).toHaveLength(VIEWS_PER_LIST);
    });
  });

  describe('state', () => {
    const attempt = (state: unknown, list = 'users') =>
      call(admin, 'POST', '/api/views', { list, name: unique('Estado'), state });

    it.each([
      ['the identifying column', { query: '', columns: ['name'] }],
      ['the actions column', { query: '', columns: ['actions'] }],
      ['a column of another list', { query: '', columns: ['cnpj'] }],
      ['an unknown column', { query: '', columns: ['password_hash'] }],
      ['a column twice', { query: '', columns: ['email', 'email'] }],
      ['a query of 2,001 characters', { query: 'q='.padEnd(2001, 'a'), columns: [] }],
      ['a query with a line break', { query: 'q=a\r\nb', columns: [] }],
      ['more than 4 KB as JSON', { query: `q=${'€'.repeat(1500)}`, columns: [] }],
      ['a field that is not part of a state', { query: '', columns: [], hidden: ['email'] }],
      ['no state', null],
    ])('refuses %s (400), saving nothing', async (_what, state) => {
      const before = (await list(admin, 'users')).length;
      const response = await attempt(state);
      expect(response.statusCode, response.body).toBe(400);
      expect(validateResponse('viewCreate', 400, response.json())).toEqual({ valid: true, errors: [] });
      expect(await list(admin, 'users')).toHaveLength(before);
    });

    it('accepts every hideable column of each list, and a query of exactly 2,000 characters', async () => {
      for (const name of ['users', 'tenants', 'audit'] as const) {
        const columns = [...VIEW_COLUMNS[name].hideable];
        const view = await create(admin, {
          list: name,
          name: unique('Todas'),
          state: { query: 'q='.padEnd(2000, 'b'), columns },
        });
        expect(view.state.columns).toEqual(columns);
        expect(view.state.query).toHaveLength(2000);
      }
    });

    it('checks a new state against the view’s own list', async () => {
      const view = await create(admin, { list: 'tenants', name: unique('Empresas') });
      const bad = await call(admin, 'PUT', `/api/views/${view.id}`, { state: { query: '', columns: ['email'] } });
      expect(bad.statusCode).toBe(400);
      const good = await call(admin, 'PUT', `/api/views/${view.id}`, {
        state: { query: 'plan=starter', columns: ['cnpj'] },
      });
      expect(good.statusCode, good.body).toBe(200);
    });
  });

  describe('hostile names', () => {
    it('keeps a formula as plain text, answered exactly as sent', async () => {
      for (const formula of ['=HYPERLINK("http://evil.example","x")', "+cmd|' /C calc'!A0", '@SUM(1+1)', '-2+3']) {
        const view = await create(admin, { list: 'users', name: formula });
        expect(view.name).toBe(formula);
        expect((await list(admin, 'users')).find((v) => v.id === view.id)?.name).toBe(formula);
      }
    });

    it.each([
      ['a right-to-left override', 'Ativos\u202Etxt.exe'],
      ['a zero-width space', 'Ati\u200Bvos'],
      ['a byte-order mark inside', 'Ati\uFEFFvos'],
      ['a line break', 'Ativos\nBloqueados'],
      ['a NUL', 'Ativos\u0000'],
      ['only spaces', '   '],
      ['61 characters', 'x'.repeat(61)],
      ['10 KB', 'x'.repeat(10_240)],
    ])('refuses %s (400)', async (_what, name) => {
      const response = await call(admin, 'POST', '/api/views', {
        list: 'users',
        name,
        state: { query: '', columns: [] },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(validateResponse('viewCreate', 400, response.json())).toEqual({ valid: true, errors: [] });
    });

    it('accepts right-to-left scripts, emoji joined by ZWJ, and 60 characters counted as characters', async () => {
      for (const name of ['مستخدمون محظورون', 'עובדים', '👩‍💻 Equipe', '😀'.repeat(60)]) {
        const view = await create(admin, { list: 'tenants', name });
        expect(view.name).toBe(name);
      }
    });

    it('takes a decomposed name as the same name as its composed form (NFC)', async () => {
      const composed = unique('Visão');
      await create(admin, { list: 'users', name: composed });
      const response = await call(admin, 'POST', '/api/views', {
        list: 'users',
        name: composed.normalize('NFD'),
        state: { query: '', columns: [] },
      });
      expect(response.statusCode).toBe(409);
    });
  });

  describe('as an attacker', () => {
    it("another user's view is unknown: not listed, 404 to update and delete, and left as it was", async () => {
      const theirs = await create(other, { list: 'users', name: unique('Segredo'), is_default: true });
      expect((await list(admin, 'users')).map((v) => v.id)).not.toContain(theirs.id);
      for (const change of [{ name: 'Roubada' }, { is_default: true }, { state: { query: 'q=x', columns: [] } }]) {
        const response = await call(admin, 'PUT', `/api/views/${theirs.id}`, change);
        expect(response.statusCode, response.body).toBe(404);
      }
      expect((await call(admin, 'DELETE', `/api/views/${theirs.id}`)).statusCode).toBe(404);
      expect((await call(customerAdmin, 'DELETE', `/api/views/${theirs.id}`)).statusCode).toBe(404);
      expect((await list(other, 'users')).find((v) => v.id === theirs.id)).toEqual(theirs);
    });

    it("answers an unknown id as it answers another user's (404)", async () => {
      expect((await call(admin, 'PUT', '/api/views/999999', { name: 'x' })).statusCode).toBe(404);
      expect((await call(admin, 'DELETE', '/api/views/999999')).statusCode).toBe(404);
    });

    it("a user without the list's route cannot list, create or change its views (403), but deletes its own", async () => {
      const own = await create(usersOnly, { list: 'users', name: unique('Permitida') });
      for (const name of ['tenants', 'audit']) {
        expect((await call(usersOnly, 'GET', `/api/views?list=${name}`)).statusCode).toBe(403);
        const created = await call(usersOnly, 'POST', '/api/views', {
          list: name,
          name: 'Proibida',
          state: { query: '', columns: [] },
        });
        expect(created.statusCode, created.body).toBe(403);
        expect(validateResponse('viewCreate', 403, created.json())).toEqual({ valid: true, errors: [] });
      }
      // A view of a list kept from when the role still had its route: changed only with the route, deleted without.
      const kept = await t.db
        .insertInto('saved_views')
        .values({
          user_id: (
            await t.db
              .selectFrom('users')
              .select('id')
              .where('email', '=', 'so.usuarios@views.local')
              .executeTakeFirstOrThrow()
          ).id,
          list: 'audit',
          name: 'De antes',
          name_key: 'de antes',
          state: JSON.stringify({ query: '', columns: [] }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect((await call(usersOnly, 'PUT', `/api/views/${kept.id}`, { is_default: true })).statusCode).toBe(403);
      expect((await call(usersOnly, 'DELETE', `/api/views/${kept.id}`)).statusCode).toBe(200);
      expect((await call(usersOnly, 'DELETE', `/api/views/${own.id}`)).statusCode).toBe(200);
    });

    it('a customer tenant’s administrador keeps views of its own, unseen by staff', async () => {
      const mine = await create(customerAdmin, { list: 'tenants', name: unique('Cliente') });
      expect((await list(admin, 'tenants')).map((v) => v.id)).not.toContain(mine.id);
      expect((await call(admin, 'PUT', `/api/views/${mine.id}`, { name: 'Staff' })).statusCode).toBe(404);
    });

    it('refuses a list that is not one (400) and a signed-out caller (401)', async () => {
      expect((await call(admin, 'GET', '/api/views?list=roles')).statusCode).toBe(400);
      expect(
        (await call(admin, 'POST', '/api/views', { list: 'roles', name: 'x', state: { query: '', columns: [] } }))
          .statusCode,
      ).toBe(400);
      expect((await t.app.fastify.inject({ method: 'GET', url: '/api/views?list=users' })).statusCode).toBe(401);
    });

    it("a purged user's views go with it; a soft-deleted user's stay until then", async () => {
      const gone = await createTestUser(t.db, {
        email: `some.${label.toLowerCase()}@views.local`,
        tenant: 'backoffice',
        role: 'administrador',
      });
      await create(await issuedBearer(t, gone.id), { list: 'users', name: 'Minha' });
      const count = async () =>
        Number(
          (
            await t.db
              .selectFrom('saved_views')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('user_id', '=', gone.id)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect((await call(admin, 'DELETE', `/api/users/${gone.id}`)).statusCode).toBe(200);
      expect(await count()).toBe(1);
      const purged = await call(admin, 'POST', '/api/users/purge', { id: gone.id });
      expect(purged.statusCode, purged.body).toBe(200);
      expect(await count()).toBe(0);
    });
  });

  describe('concurrency', () => {
    const N = 12;

    it(`${N} racing "set default" requests on ${N} views leave exactly one default`, async () => {
      const views = [];
      for (let i = 0; i < N; i++)
        views.push(await create(admin, { list: 'users', name: unique('Corrida'), is_default: i === 0 }));
      const answers = await Promise.all(
        views.map((v) => call(admin, 'PUT', `/api/views/${v.id}`, { is_default: true })),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(views.map(() => 200));
      const left = await defaults(admin, 'users');
      expect(left).toHaveLength(1);
      expect(views.map((v) => v.id)).toContain(left[0]);
    });

    it(`${N} racing creates with one name give one view and ${N - 1} view_name_taken`, async () => {
      const name = unique('Mesmo nome');
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          call(admin, 'POST', '/api/views', {
            list: 'tenants',
            name: i % 2 ? name : name.toLowerCase(),
            state: { query: '', columns: [] },
            is_default: true,
          }),
        ),
      );
      const codes = answers.map((a) => (a.statusCode === 409 ? a.json<{ error: string }>().error : a.statusCode));
      expect(codes.filter((c) => c === 201)).toHaveLength(1);
      expect(codes.filter((c) => c === 'view_name_taken')).toHaveLength(N - 1);
      expect(await defaults(admin, 'tenants')).toHaveLength(1);
    });

    it('racing creates never pass the limit of 50', async () => {
      const fresh = await createTestUser(t.db, {
        email: `corrida.${label.toLowerCase()}@views.local`,
        tenant: 'backoffice',
        role: 'administrador',
      });
      const headers = await issuedBearer(t, fresh.id);
      for (let i = 0; i < VIEWS_PER_LIST - 3; i++) await create(headers, { list: 'audit', name: `V${i}` });
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          call(headers, 'POST', '/api/views', { list: 'audit', name: `Nova ${i}`, state: { query: '', columns: [] } }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(3);
      expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(N - 3);
      expect(await list(headers, 'audit')).toHaveLength(VIEWS_PER_LIST);
    });
  });
});
