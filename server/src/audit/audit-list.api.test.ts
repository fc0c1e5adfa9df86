import { readFileSync } from 'node:fs';
import type { AuditOperation } from '../../../src/domain/audit';
import { ADMIN_ROLE } from '../db/catalog';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { formulaLead, parseCsv } from '../test-support/csv';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser } from '../test-support/users';
import type { AuditPageDto, AuditRecordDto } from './service';
import { writeAudit, type AuditWho } from './trail';

// GET /api/audit (contracts/openapi.yaml, auditList): filters, scope, cursor paging, CSV, refusals; and
// the masking of staff identity for readers who are not staff through REST, its CSV and GraphQL.
// Records are written with the trail's writer about two tenants of this file's own, so records other
// code writes meanwhile (sign-ins) never reach the filtered answers checked exactly here.
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let tenantAdmin: { authorization: string };
  let operador: { authorization: string };
  let mine: { id: number; name: string };
  let other: { id: number; name: string };
  let staffId: number;

  async function createTenant(name: string, cnpj: string) {
    return t.db
      .insertInto('tenants')
      .values({ name, cnpj, template: 't', pool: 'p', plan: 'starter', user_limit: 5, ticket_limit: 10 })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
  }

  const bearer = (email: string) => issuedBearer(t, email);

  const url = (query: Record<string, string | number | readonly string[] | undefined>) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query))
      if (v !== undefined) for (const one of [v].flat()) params.append(k, String(one));
    return `/api/audit?${params.toString()}`;
  };

  async function list(headers: Record<string, string>, query: Parameters<typeof url>[0]) {
    const response = await t.app.fastify.inject({ method: 'GET', url: url(query), headers });
    return response;
  }

  async function page(query: Parameters<typeof url>[0], headers = staff): Promise<AuditPageDto> {
    const response = await list(headers, query);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<AuditPageDto>();
    expect(validateResponse('auditList', 200, body)).toEqual({ valid: true, errors: [] });
    return body;
  }

  function who(actorId: number | null, tenantId: number): AuditWho {
    return {
      actor: actorId === null ? null : { userId: actorId, tenantId },
      origin: { requestId: 'req-audit', address: '203.0.113.7' },
    };
  }

  async function write(
    operation: AuditOperation,
    tenant: { id: number; name: string } | null,
    options: { actor?: number | null; targetId?: number | null; targetName?: string | null } = {},
  ) {
    const written = await writeAudit(t.db, who(options.actor ?? staffId, 1), {
      operation,
      target: { id: options.targetId ?? tenant?.id ?? null, name: options.targetName ?? tenant?.name ?? null },
      tenantId: tenant?.id ?? null,
      changes: [{ field: 'plan', before: '"starter"', after: '"enterprise"' }],
    });
    return written.id;
  }

  const ids = (records: readonly AuditRecordDto[]) => records.map((r) => r.id);

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    staff = await bearer('admin@demo.local');
    operador = await bearer('operador@demo.local');
    staffId = (
      await t.db.selectFrom('users').select('id').where('email', '=', 'admin@demo.local').executeTakeFirstOrThrow()
    ).id;
    mine = await createTenant('auditoria-minha', '11.222.333/0001-81');
    other = await createTenant('auditoria-outra', '11.444.777/0001-61');
    await createTestUser(t.db, {
      email: 'admin-cliente@auditoria.local',
      tenant: mine.name,
      role: ADMIN_ROLE,
      originBackoffice: false,
    });
    tenantAdmin = await bearer('admin-cliente@auditoria.local');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  describe('GET /api/audit', () => {
    it('answers a page newest first that validates against the contract, with the record as written', async () => {
      const first = await write('tenant.plan', mine);
      const second = await write('tenant.feature', mine);
      const body = await page({ tenantId: mine.id, operation: ['tenant.plan', 'tenant.feature'] });
      expect(ids(body.data)).toEqual([second, first]);
      expect(body.next).toBeNull();
      expect(body.data[1]).toMatchObject({
        id: first,
        actor_user_id: staffId,
        actor_email: 'admin@demo.local',
        actor_tenant_id: 1,
        address: '203.0.113.7',
        request_id: 'req-audit',
        operation: 'tenant.plan',
        target_type: 'tenant',
        target_id: mine.id,
        target_name: mine.name,
        tenant_id: mine.id,
        tenant_name: mine.name,
        changes: [{ field: 'plan', before: '"starter"', after: '"enterprise"' }],
      });
      expect(new Date(body.data[1]?.at ?? '').toISOString()).toBe(body.data[1]?.at);
    });

    it('filters by operation, target, actor and time, each on its own and together', async () => {
      const tenant = await createTenant('auditoria-filtros', '45.723.174/0001-10');
      const actor = (
        await createTestUser(t.db, { email: 'filtro@auditoria.local', tenant: 'backoffice', role: ADMIN_ROLE })
      ).id;
      const a = await write('user.create', tenant, { targetId: 901, targetName: 'Ana' });
      const b = await write('user.update', tenant, { targetId: 901, targetName: 'Ana', actor });
      const c = await write('user.update', tenant, { targetId: 902, targetName: 'Bia' });
      const d = await write('department.create', tenant, { targetId: 901, targetName: 'Vendas' });
      const base = { tenantId: tenant.id };
      expect(ids((await page(base)).data)).toEqual([d, c, b, a]);
      expect(ids((await page({ ...base, operation: 'user.update' })).data)).toEqual([c, b]);
      expect(ids((await page({ ...base, operation: ['user.create', 'department.create'] })).data)).toEqual([d, a]);
      expect(ids((await page({ ...base, targetType: 'user' })).data)).toEqual([c, b, a]);
      expect(ids((await page({ ...base, targetType: 'user', targetId: 901 })).data)).toEqual([b, a]);
      expect(ids((await page({ ...base, targetId: 901 })).data)).toEqual([d, b, a]);
      expect(ids((await page({ ...base, actorId: actor })).data)).toEqual([b]);
      expect(ids((await page({ actorId: actor })).data)).toEqual([b]);
      const atOf = async (id: number) =>
        (await t.db.selectFrom('audit_log').select('at').where('id', '=', id).executeTakeFirstOrThrow()).at;
      const from = new Date(new Date(await atOf(a)).getTime() + 0);
      const future = new Date(Date.now() + 3_600_000).toISOString();
      expect(ids((await page({ ...base, from: from.toISOString(), to: future })).data)).toEqual([d, c, b, a]);
      expect(ids((await page({ ...base, to: from.toISOString() })).data)).toEqual([]);
      expect(ids((await page({ ...base, from: future })).data)).toEqual([]);
    });

    it('shows staff every tenant, a tenant administrator only their own whatever tenantId says, and refuses operador', async () => {
      const inMine = await write('tenant.update', mine);
      const inOther = await write('tenant.update', other);
      const role = await write('role.rename', null, { targetId: 2, targetName: 'operador' });
      const staffView = ids((await page({ operation: ['tenant.update', 'role.rename'] })).data);
      expect(staffView).toEqual(expect.arrayContaining([inMine, inOther, role]));

      const own = await page({ limit: 200 }, tenantAdmin);
      expect(own.data.length).toBeGreaterThan(0);
      expect(new Set(own.data.map((r) => r.tenant_id))).toEqual(new Set([mine.id]));
      expect(ids(own.data)).toContain(inMine);
      const asked = await page({ tenantId: other.id, operation: 'tenant.update' }, tenantAdmin);
      expect(ids(asked.data)).toEqual([inMine]);

      const refused = await list(operador, {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: 'Forbidden', required_permission: ['audit'] });
      expect((await list(operador, { from: 'nonsense' })).statusCode).toBe(403);
      expect((await list({}, {})).statusCode).toBe(401);
    });

    it('pages by cursor: every record exactly once, newest first, even with records written between pages', async () => {
      const tenant = await createTenant('auditoria-paginas', '60.701.190/0001-04');
      const before: number[] = [];
      for (let i = 0; i < 23; i++) before.push(await write('instance.update', tenant, { targetId: i + 1 }));
      const seen: number[] = [];
      let after: string | undefined;
      let pages = 0;
      const during: number[] = [];
      for (;;) {
        const body = await page({ tenantId: tenant.id, limit: 5, after });
        seen.push(...ids(body.data));
        pages++;
        // A record written between pages is newer than every page still to come.
        during.push(await write('instance.update', tenant, { targetId: 100 + pages }));
        if (body.next === null) break;
        expect(body.data).toHaveLength(5);
        after = body.next;
      }
      expect(pages).toBe(5);
      expect(seen).toEqual([...before].reverse());
      const fresh = await page({ tenantId: tenant.id, limit: 200 });
      expect(ids(fresh.data)).toEqual([...during].reverse().concat([...before].reverse()));
      // A full last page: `next` points past it and the following page is empty.
      const exact = await page({ tenantId: tenant.id, limit: 28 });
      expect(exact.next).toBeNull();
      const short = await page({ tenantId: tenant.id, limit: 27 });
      expect(short.next).not.toBeNull();
      expect(ids((await page({ tenantId: tenant.id, after: short.next ?? '' })).data)).toEqual([before[0]]);
    });

    it.each([
      ['from', { from: 'yesterday' }],
      ['to', { to: '2026-13-01T00:00:00Z' }],
      ['to', { from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' }],
      ['to', { from: '2026-11-02T00:00:00Z', to: '2026-11-02T00:00:00Z' }],
      ['after', { after: 'abc' }],
      ['after', { after: '0' }],
      ['after', { after: '99999999999' }],
      ['after', { after: 'x'.repeat(41) }],
      ['limit', { limit: 0 }],
      ['limit', { limit: 201 }],
      ['limit', { limit: 'ten' }],
      ['operation', { operation: 'tenant.fly' }],
      ['targetType', { targetType: 'planet' }],
      ['actorId', { actorId: 0 }],
      ['tenantId', { tenantId: -2 }],
      ['targetId', { targetId: 'x' }],
    ] as const)('refuses a bad %s with 400 naming it: %j', async (field, query) => {
      const response = await list(staff, query);
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json<{ message: string; errors: { field: string; message: string }[] }>();
      expect(body.message).toBe('Validation failed');
      // An item of a list is named by its place (`query/operation.0`).
      expect(body.errors.some((e) => e.field === `query/${field}` || e.field.startsWith(`query/${field}.`))).toBe(true);
      expect(validateResponse('auditList', 400, body)).toEqual({ valid: true, errors: [] });
    });

    it('refuses a bad query asking for CSV too, before anything is sent', async () => {
      const response = await t.app.fastify.inject({
        method: 'GET',
        url: url({ to: 'soon' }),
        headers: { ...staff, accept: 'text/csv' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/json/);
    });
  });

  // docs/security.md §3: a reader who is not staff never learns who of the provider's staff acted on its
  // tenant, nor from where; staff readers see everything. The page and the CSV alike.
  describe('staff identity, masked for a reader who is not staff', () => {
    let scene: {
      tenant: number;
      staffRecord: number;
      ownRecord: number;
      systemRecord: number;
      ownActor: number;
      backoffice: number;
    };
    const STAFF_ADDRESS = '192.0.2.44';
    const OWN_ADDRESS = '198.51.100.61';

    beforeAll(async () => {
      const tenant = await createTenant('auditoria-mascara', '27.865.757/0001-02');
      const ownActor = (
        await createTestUser(t.db, {
          email: 'admin-mascara@auditoria.local',
          tenant: tenant.name,
          role: ADMIN_ROLE,
          originBackoffice: false,
        })
      ).id;
      const backoffice = (
        await t.db.selectFrom('tenants').select('id').where('name', '=', 'backoffice').executeTakeFirstOrThrow()
      ).id;
      const entry = (operation: AuditOperation) => ({
        operation,
        target: { id: tenant.id, name: tenant.name },
        tenantId: tenant.id,
        changes: [{ field: 'plan', before: '"starter"', after: '"enterprise"' }],
      });
      const staffRecord = (
        await writeAudit(
          t.db,
          {
            actor: { userId: staffId, tenantId: backoffice },
            origin: { requestId: 'req-staff-7', address: STAFF_ADDRESS },
          },
          entry('tenant.plan'),
        )
      ).id;
      const ownRecord = (
        await writeAudit(
          t.db,
          {
            actor: { userId: ownActor, tenantId: tenant.id },
            origin: { requestId: 'req-own-7', address: OWN_ADDRESS },
          },
          entry('tenant.update'),
        )
      ).id;
      const systemRecord = (
        await writeAudit(t.db, { actor: null, origin: { requestId: null, address: null } }, entry('tenant.feature'))
      ).id;
      scene = { tenant: tenant.id, staffRecord, ownRecord, systemRecord, ownActor, backoffice };
      mask = { authorization: (await bearer('admin-mascara@auditoria.local')).authorization };
    });
    let mask: { authorization: string };

    const byId = (records: readonly AuditRecordDto[]) => new Map(records.map((r) => [r.id, r]));

    it('nulls the staff actor, its address and request id for the tenant, and flags it as staff', async () => {
      const response = await list(mask, { limit: 200 });
      expect(response.statusCode).toBe(200);
      const body = response.json<AuditPageDto>();
      expect(validateResponse('auditList', 200, body)).toEqual({ valid: true, errors: [] });
      const records = byId(body.data);
      expect(records.get(scene.staffRecord)).toEqual({
        id: scene.staffRecord,
        at: expect.any(String),
        actor_user_id: null,
        actor_name: null,
        actor_email: null,
        actor_tenant_id: null,
        actor_tenant_name: null,
        actor_staff: true,
        address: null,
        request_id: null,
        operation: 'tenant.plan',
        target_type: 'tenant',
        target_id: expect.any(Number),
        target_name: 'auditoria-mascara',
        tenant_id: expect.any(Number),
        tenant_name: 'auditoria-mascara',
        changes: [{ field: 'plan', before: '"starter"', after: '"enterprise"' }],
        // A plan change can be undone for 10 minutes (server/src/audit/undo.ts); nothing undid it.
        undoable_until: new Date(Date.parse(records.get(scene.staffRecord)?.at ?? '') + 600_000).toISOString(),
        undone_by: null,
        undo_of: null,
      });
      // Its own people and the server's own work are shown as they are.
      expect(records.get(scene.ownRecord)).toMatchObject({
        actor_user_id: scene.ownActor,
        actor_email: 'admin-mascara@auditoria.local',
        actor_staff: false,
        address: OWN_ADDRESS,
        request_id: 'req-own-7',
      });
      expect(records.get(scene.systemRecord)).toMatchObject({ actor_user_id: null, actor_staff: false });
      // Nowhere in the answer: the staff member's e-mail, name, address or request id.
      const staffName = (
        await t.db.selectFrom('users').select('name').where('id', '=', staffId).executeTakeFirstOrThrow()
      ).name;
      for (const secret of ['admin@demo.local', staffName, STAFF_ADDRESS, 'req-staff-7'])
        expect(response.body, secret).not.toContain(secret);
    });

    it('shows staff readers everything, flagged as staff', async () => {
      const records = byId((await page({ tenantId: scene.tenant, limit: 200 })).data);
      expect(records.get(scene.staffRecord)).toMatchObject({
        actor_user_id: staffId,
        actor_email: 'admin@demo.local',
        actor_tenant_id: scene.backoffice,
        actor_tenant_name: 'backoffice',
        actor_staff: true,
        address: STAFF_ADDRESS,
        request_id: 'req-staff-7',
      });
      expect(records.get(scene.ownRecord)).toMatchObject({ actor_staff: false, address: OWN_ADDRESS });
    });

    it("does not single out a staff member's records by actorId for the tenant", async () => {
      expect(ids((await page({ actorId: staffId }, mask)).data)).toEqual([]);
      expect(ids((await page({ actorId: scene.ownActor }, mask)).data)).toEqual([scene.ownRecord]);
      expect(ids((await page({ actorId: staffId, tenantId: scene.tenant })).data)).toEqual([scene.staffRecord]);
    });

    it('answers GraphQL auditRecords the same, masked for the tenant and whole for staff', async () => {
      const document = readFileSync(
        new URL('../../../contracts/operations/auditRecords.query.graphql', import.meta.url),
        'utf8',
      );
      const graphql = async (
        headers: { authorization: string },
        tenant: string,
        variables: Record<string, unknown>,
      ) => {
        const response = await t.app.fastify.inject({
          method: 'POST',
          url: `/${tenant}/graphql`,
          headers: {
            ...headers,
            'content-type': 'application/json',
            accept: 'application/graphql-response+json, application/json',
          },
          payload: JSON.stringify({ query: document, variables }),
        });
        expect(response.statusCode, response.body).toBe(200);
        return {
          body: response.body,
          page: response.json<{ data: { auditRecords: AuditPageDto } }>().data.auditRecords,
        };
      };
      const asTenant = await graphql(mask, 'auditoria-mascara', { limit: 200 });
      expect(asTenant.page).toEqual(await page({ limit: 200 }, mask));
      expect(byId(asTenant.page.data).get(scene.staffRecord)).toMatchObject({
        actor_user_id: null,
        actor_name: null,
        actor_email: null,
        actor_staff: true,
        address: null,
        request_id: null,
      });
      for (const secret of ['admin@demo.local', STAFF_ADDRESS, 'req-staff-7'])
        expect(asTenant.body).not.toContain(secret);
      expect((await graphql(mask, 'auditoria-mascara', { actorId: staffId })).page.data).toEqual([]);

      const asStaff = await graphql(staff, 'backoffice', { tenantId: scene.tenant, limit: 200 });
      expect(asStaff.page).toEqual(await page({ tenantId: scene.tenant, limit: 200 }));
      expect(byId(asStaff.page.data).get(scene.staffRecord)).toMatchObject({
        actor_email: 'admin@demo.local',
        actor_staff: true,
        address: STAFF_ADDRESS,
        request_id: 'req-staff-7',
      });
    });

    it('masks the CSV alike: the staff actor reads "Equipe do provedor", no e-mail, tenant, address or request id', async () => {
      const sheet = async (headers: { authorization: string }) => {
        const response = await t.app.fastify.inject({
          method: 'GET',
          url: url({ tenantId: scene.tenant }),
          headers: { ...headers, accept: 'text/csv' },
        });
        expect(response.statusCode).toBe(200);
        return {
          body: response.body,
          rows: new Map(
            parseCsv(response.body.slice(1))
              .slice(1)
              .map((r) => [Number(r[0]), r]),
          ),
        };
      };
      const masked = await sheet(mask);
      expect(masked.rows.get(scene.staffRecord)?.slice(2, 7)).toEqual(['Equipe do provedor', '', '', '', '']);
      expect(masked.rows.get(scene.ownRecord)?.slice(3, 7)).toEqual([
        'admin-mascara@auditoria.local',
        'auditoria-mascara',
        OWN_ADDRESS,
        'req-own-7',
      ]);
      for (const secret of ['admin@demo.local', STAFF_ADDRESS, 'req-staff-7'])
        expect(masked.body).not.toContain(secret);
      const full = await sheet(staff);
      expect(full.rows.get(scene.staffRecord)?.slice(3, 7)).toEqual([
        'admin@demo.local',
        'backoffice',
        STAFF_ADDRESS,
        'req-staff-7',
      ]);
    });
  });

  describe('GET /api/audit as CSV', () => {
    async function csv(query: Parameters<typeof url>[0], headers = staff) {
      const response = await t.app.fastify.inject({
        method: 'GET',
        url: url(query),
        headers: { ...headers, accept: 'text/csv' },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="auditoria-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      return response.body;
    }

    it('writes the sheets CSV: BOM, `;`, CRLF, the contract columns, São Paulo time, readable changes, guarded formulas', async () => {
      const tenant = await createTenant('auditoria-csv', '04.252.011/0001-10');
      const id = await writeAudit(t.db, who(staffId, 1), {
        operation: 'user.update',
        target: { id: 77, name: '=HYPERLINK("http://evil.example","clique")' },
        tenantId: tenant.id,
        changes: [
          { field: 'name', before: '"José Conceição"', after: '"Zoë; “aspas”"' },
          { field: 'department_id', before: null, after: '3' },
        ],
      });
      const text = await csv({ tenantId: tenant.id });
      expect(
        text.startsWith(
          '\uFEFFid;quando;usuario;email;empresa_do_usuario;endereco;requisicao;operacao;alvo;alvo_id;alvo_nome;empresa;alteracoes\r\n',
        ),
      ).toBe(true);
      expect(text.endsWith('\r\n')).toBe(true);
      const rows = parseCsv(text.slice(1));
      expect(rows).toHaveLength(2);
      const [row] = rows.slice(1);
      const at = (await t.db.selectFrom('audit_log').select('at').where('id', '=', id.id).executeTakeFirstOrThrow()).at;
      const local = new Intl.DateTimeFormat('sv-SE', {
        timeZone: 'America/Sao_Paulo',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(at));
      expect(row).toEqual([
        String(id.id),
        local,
        expect.any(String),
        'admin@demo.local',
        'backoffice',
        '203.0.113.7',
        'req-audit',
        'user.update',
        'user',
        '77',
        `'=HYPERLINK("http://evil.example","clique")`,
        'auditoria-csv',
        'name: "José Conceição" → "Zoë; “aspas”" | department_id: — → 3',
      ]);
      for (const cell of row ?? []) expect(formulaLead(cell)).toBeNull();
    });

    it('streams every matching record, newest first, however many (no paging)', async () => {
      const tenant = await createTenant('auditoria-muitos', '33.000.167/0001-01');
      const many = 4_321;
      const written: number[] = [];
      for (let i = 0; i < many; i += 50) {
        const chunk = Array.from({ length: Math.min(50, many - i) }, (_, k) =>
          write('connection.update', tenant, { targetId: i + k + 1 }),
        );
        written.push(...(await Promise.all(chunk)));
      }
      written.sort((a, b) => a - b);
      const rows = parseCsv((await csv({ tenantId: tenant.id, limit: 1, after: '1' })).slice(1));
      expect(rows).toHaveLength(many + 1);
      expect(rows.slice(1).map((r) => Number(r[0]))).toEqual([...written].reverse());
      const one = parseCsv((await csv({ tenantId: tenant.id, targetId: 5 })).slice(1));
      expect(one.slice(1).map((r) => r[9])).toEqual(['5']);
    }, 120_000);

    it('keeps a tenant administrator to their own tenant', async () => {
      await write('tenant.update', other);
      const rows = parseCsv((await csv({ tenantId: other.id }, tenantAdmin)).slice(1)).slice(1);
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r[11]))).toEqual(new Set([mine.name]));
    });
  });
});
