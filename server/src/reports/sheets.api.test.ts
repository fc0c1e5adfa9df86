import { saoPauloDay } from '../db/analytics';
import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { parseCsv } from '../test-support/csv';
import { createTestUser, TEST_PASSWORD } from '../test-support/users';

let t: TestApp;
let admin: { authorization: string };
let operador: { authorization: string };
let tenantName: string;
let tenantId: number;

const finishAt = saoPauloDay(new Date());
const startAt = saoPauloDay(new Date(Date.now() - 29 * 86_400_000));

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.auth('admin@demo.local');
  operador = await t.auth('operador@demo.local');
  const tenant = await t.db
    .selectFrom('tenants')
    .select(['id', 'name'])
    .where('deleted_at', 'is', null)
    .where('name', '!=', 'backoffice')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  tenantName = tenant.name;
  tenantId = tenant.id;
}, 180_000);

afterAll(async () => t.close());

const sheets = [
  {
    operationId: 'sheetOrders',
    path: 'orders',
    file: 'orders',
    header: 'id;tenant;criado_em;cliente;site;status;itens;total',
    decimalColumn: 7,
  },
  {
    operationId: 'sheetAttendances',
    path: 'attendances',
    file: 'attendances',
    header: 'id;tenant;inicio;fim;atendente;site;orcamento;valor_orcamento;primeira_resposta_s;duracao_s;status',
    decimalColumn: 7,
  },
  {
    operationId: 'sheetInstanceLogs',
    path: 'instance_logs',
    file: 'instance-logs',
    header: 'id;tenant;instancia_id;instancia;criado_em;evento;detalhe',
  },
  {
    operationId: 'sheetReasons',
    path: 'reasons',
    file: 'reasons',
    header: 'id;tenant_id;tenant;motivo_id;motivo;atendimento;criado_em',
  },
] as const;

function urlOf(path: string, query: Record<string, string | number>) {
  return `/api/tenant/sheets/${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;
}

function tenantQuery(path: string): Record<string, string | number> {
  return path === 'reasons' ? { tenancyId: tenantId } : { tenantName };
}

describe.each(sheets)('$operationId', ({ operationId, path, file, header, ...sheet }) => {
  it('answers JSON that matches the contract, ordered by time then id', async () => {
    const response = await t.app.fastify.inject({
      url: urlOf(path, { startAt, finishAt, ...tenantQuery(path) }),
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ data: { id: number }[]; total: number; limit: number }>();
    expect(validateResponse(operationId, 200, body)).toEqual({ valid: true, errors: [] });
    expect(body.limit).toBe(100);
    expect(body.total).toBeGreaterThan(0);
    expect(body.data.length).toBe(Math.min(100, body.total));
  });

  it('streams CSV with BOM, `;`, CRLF and decimal comma, one record per row of the total', async () => {
    const query = { startAt, finishAt, ...tenantQuery(path) };
    const json = (await t.app.fastify.inject({ url: urlOf(path, query), headers: admin })).json<{ total: number }>();
    const response = await t.app.fastify.inject({ url: urlOf(path, query), headers: { ...admin, accept: 'text/csv' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${file}-${startAt}-${finishAt}.csv"`);
    const text = response.body;
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1).split('\r\n')[0]).toBe(header);
    expect(text.endsWith('\r\n')).toBe(true);
    const records = parseCsv(text.slice(1));
    expect(records.length - 1).toBe(json.total);
    const width = header.split(';').length;
    expect(records.every((r) => r.length === width)).toBe(true);
    expect(records[1]?.[header.split(';').indexOf(path === 'attendances' ? 'inicio' : 'criado_em')]).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/,
    );
    if ('decimalColumn' in sheet) {
      const cells = records
        .slice(1)
        .map((r) => r[sheet.decimalColumn])
        .filter((c) => c !== '');
      expect(cells.length).toBeGreaterThan(0);
      expect(cells.every((c) => /^\d+,\d{2}$/.test(c ?? ''))).toBe(true);
    }
  });

  it('rejects finishAt before startAt and ranges over 366 days with the contract 400', async () => {
    const reversed = await t.app.fastify.inject({
      url: urlOf(path, { startAt: finishAt, finishAt: '2020-01-01' }),
      headers: admin,
    });
    expect(reversed.statusCode).toBe(400);
    expect(validateResponse(operationId, 400, reversed.json()).valid).toBe(true);
    expect(reversed.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('query/finishAt');
    const long = await t.app.fastify.inject({
      url: urlOf(path, { startAt: '2024-01-01', finishAt: '2025-01-02' }),
      headers: admin,
    });
    expect(long.statusCode).toBe(400);
  });

  it('lets operador read it', async () => {
    const response = await t.app.fastify.inject({
      url: urlOf(path, { startAt, finishAt, limit: 5 }),
      headers: operador,
    });
    expect(response.statusCode).toBe(200);
    expect(validateResponse(operationId, 200, response.json()).valid).toBe(true);
    expect(response.json<{ data: unknown[] }>().data.length).toBeLessThanOrEqual(5);
  });
});

describe('each dashboard permission opens the sheets (contracts/openapi.yaml x-permission)', () => {
  // Every dashboard route shows the sheets (docs/product.md, Dashboards and reports): a role holding
  // only one of the three dashboard permissions reads all four, a role with none is refused.
  it.each([['dashboard-control-panel'], ['dashboard-maria-panel'], ['dashboard-analytics'], [null]])(
    'a role holding only %s',
    async (permission) => {
      const name = `so_${permission ?? 'nenhum'}`.replaceAll('-', '_');
      const role = await t.db
        .insertInto('roles')
        .values({ name, display_name: name })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (permission) {
        const { id } = await t.db
          .selectFrom('permissions')
          .select('id')
          .where('route_name', '=', permission)
          .executeTakeFirstOrThrow();
        await t.db.insertInto('role_permissions').values({ role_id: role.id, permission_id: id }).execute();
      }
      const user = await createTestUser(t.db, { email: `${name}@demo.local`, tenant: tenantName, role: name });
      const login = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: TEST_PASSWORD, ip: null },
      });
      const headers = { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` };
      for (const { operationId, path } of sheets) {
        const response = await t.app.fastify.inject({
          url: urlOf(path, { startAt, finishAt, limit: 1, ...(path === 'reasons' ? { tenancyId: tenantId } : {}) }),
          headers,
        });
        expect(response.statusCode, `${operationId} for ${permission ?? 'no permission'}`).toBe(permission ? 200 : 403);
        expect(validateResponse(operationId, response.statusCode, response.json()).valid).toBe(true);
      }
    },
  );
});

describe('sheets across every tenant (staff)', () => {
  it('streams more rows than one keyset page, each exactly once, in (time, id) order', async () => {
    const start = saoPauloDay(new Date(Date.now() - 89 * 86_400_000));
    const query = { startAt: start, finishAt };
    const json = (await t.app.fastify.inject({ url: urlOf('orders', query), headers: admin })).json<{
      total: number;
    }>();
    expect(json.total).toBeGreaterThan(2000);
    const response = await t.app.fastify.inject({
      url: urlOf('orders', query),
      headers: { ...admin, accept: 'text/csv;q=1, application/json;q=0.5' },
    });
    const rows = parseCsv(response.body.slice(1)).slice(1);
    expect(rows.length).toBe(json.total);
    expect(new Set(rows.map((r) => r[0])).size).toBe(json.total);
    const times = rows.map((r) => r[2] ?? '');
    expect(times).toEqual([...times].sort());
  });

  it('keeps a tenant user to its own tenant', async () => {
    const other = await t.db
      .selectFrom('tenants')
      .select(['id', 'name'])
      .where('id', '!=', tenantId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    const user = await t.db
      .selectFrom('users')
      .select('email')
      .where('tenant_id', '=', tenantId)
      .where('deleted_at', 'is', null)
      .where('blocked', '=', false)
      .where('origin_backoffice', '=', false)
      // Seeded users with two-factor on need a code nobody holds.
      .where('two_factor_enabled', '=', false)
      .executeTakeFirstOrThrow();
    const headers = await t.auth(user.email);
    const own = await t.app.fastify.inject({ url: urlOf('orders', { startAt, finishAt }), headers });
    expect(own.statusCode).toBe(200);
    expect(own.json<{ data: { tenantName: string }[] }>().data.every((r) => r.tenantName === tenantName)).toBe(true);
    const foreignByName = await t.app.fastify.inject({
      url: urlOf('orders', { startAt, finishAt, tenantName: other.name }),
      headers,
    });
    expect(foreignByName.statusCode).toBe(403);
    const foreignById = await t.app.fastify.inject({
      url: urlOf('reasons', { startAt, finishAt, tenancyId: other.id }),
      headers,
    });
    expect(foreignById.statusCode).toBe(403);
  });
});
