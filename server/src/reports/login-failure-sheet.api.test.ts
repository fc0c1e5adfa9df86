import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { parseCsv } from '../test-support/csv';
import { createTestUser, TEST_PASSWORD } from '../test-support/users';

// GET /api/tenant/sheets/login_failures (contracts/openapi.yaml, sheetLoginFailures): the report's rows
// without its 10,000-row cut. A past range no seed reaches holds only the failures written here.
let t: TestApp;
let admin: { authorization: string };
let customer: { id: number; name: string };
let customerUser: { id: number; email: string };
let otherUserId: number;
let pendingId: number | undefined;
const DAY = '2020-03-02';
const MANY = 10_050;

const url = (query: Record<string, string | number | number[]>) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of [v].flat()) params.append(k, String(one));
  return `/api/tenant/sheets/login_failures?${params.toString()}`;
};

async function bearer(email: string): Promise<{ authorization: string }> {
  const response = await t.app.fastify.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: TEST_PASSWORD, ip: null },
  });
  expect(response.statusCode).toBe(200);
  return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
}

beforeAll(async () => {
  t = await startTestApp({ seed: { days: 1 } });
  admin = await t.auth('admin@demo.local');
  customer = await t.db
    .selectFrom('tenants')
    .select(['id', 'name'])
    .where('deleted_at', 'is', null)
    .where('name', '!=', 'backoffice')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const user = await createTestUser(t.db, {
    email: 'falhas-cliente@demo.local',
    tenant: customer.name,
    originBackoffice: false,
  });
  customerUser = { id: user.id, email: user.email };
  otherUserId = (
    await t.db.selectFrom('users').select('id').where('email', '=', 'operador@demo.local').executeTakeFirstOrThrow()
  ).id;
  // MANY failures of the customer's user, 3 of a back-office user, 2 on an unknown e-mail, 1 success and 1
  // attempt reserved and never resolved (server/src/auth/attempts.ts): one São Paulo day.
  // `remote_address` is the connection's address (the one the report shows), `ip` what the browser claimed;
  // the unknown e-mail's rows have a claim and no connection address, which must not stand in for it.
  await sql`insert into login_attempts (email, ip, remote_address, user_id, success, created_at)
    select ${customerUser.email}, '198.51.100.4', '203.0.113.7', ${customerUser.id}, false,
           timestamptz '2020-03-02 12:00:00+00' + (g * interval '1 second')
    from generate_series(1, ${MANY}) g`.execute(t.db);
  await sql`insert into login_attempts (email, ip, remote_address, user_id, success, created_at) values
    ('operador@demo.local', null, '192.0.2.9', ${otherUserId}, false, timestamptz '2020-03-02 13:00:00+00'),
    ('operador@demo.local', null, '192.0.2.9', ${otherUserId}, false, timestamptz '2020-03-02 13:00:01+00'),
    ('operador@demo.local', null, '192.0.2.9', ${otherUserId}, false, timestamptz '2020-03-02 13:00:02+00'),
    ('ninguem@demo.local', '198.51.100.250', null, null, false, timestamptz '2020-03-02 23:00:00+00'),
    ('ninguem@demo.local', '198.51.100.250', null, null, false, timestamptz '2020-03-02 23:00:01+00'),
    (${customerUser.email}, null, '203.0.113.7', ${customerUser.id}, true, timestamptz '2020-03-02 15:00:00+00')`.execute(
    t.db,
  );
  pendingId = (
    await sql<{ id: number }>`insert into login_attempts (email, ip, remote_address, user_id, success, created_at)
      values (${customerUser.email}, null, '203.0.113.7', ${customerUser.id}, null, timestamptz '2020-03-02 16:00:00+00')
      returning id`.execute(t.db)
  ).rows[0]?.id;
}, 180_000);

afterAll(async () => t.close());

describe('GET /api/tenant/sheets/login_failures', () => {
  it('gives the total the report cuts at 10,000, and a preview that matches the contract', async () => {
    const report = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/dashboard-report',
      headers: admin,
      payload: { start_at: DAY, finish_at: DAY, selectedUsers: [] },
    });
    expect(report.json<unknown[]>()).toHaveLength(10_000);
    const response = await t.app.fastify.inject({
      url: url({ startAt: DAY, finishAt: DAY, limit: 5 }),
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ data: { id: number; user_id: number | null }[]; total: number; limit: number }>();
    expect(validateResponse('sheetLoginFailures', 200, body)).toEqual({ valid: true, errors: [] });
    expect(body.total).toBe(MANY + 5);
    expect(body.limit).toBe(5);
    expect(body.data).toHaveLength(5);
  });

  it('leaves out an attempt still reserved: it is a failure only once it resolves as one', async () => {
    expect(pendingId).toBeDefined();
    const report = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/dashboard-report',
      headers: admin,
      payload: { start_at: DAY, finish_at: DAY, selectedUsers: [customerUser.id] },
    });
    const ids = report.json<{ id: number }[]>().map((row) => row.id);
    expect(ids).toHaveLength(10_000);
    expect(ids).not.toContain(pendingId);
    const sheet = await t.app.fastify.inject({ url: url({ startAt: DAY, finishAt: DAY, limit: 1 }), headers: admin });
    expect(sheet.json<{ total: number }>().total).toBe(MANY + 5);
  });

  it('streams every row as CSV, oldest first, with the report’s columns', async () => {
    const response = await t.app.fastify.inject({
      url: url({ startAt: DAY, finishAt: DAY }),
      headers: { ...admin, accept: 'text/csv' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toContain(`login-failures-${DAY}-${DAY}.csv`);
    expect(response.body.charCodeAt(0)).toBe(0xfeff);
    const records = parseCsv(response.body.slice(1));
    expect(records[0]).toEqual(['id', 'criado_em', 'email', 'endereco', 'ip_informado', 'usuario_id', 'usuario']);
    expect(records.length - 1).toBe(MANY + 5);
    expect(records[1]?.slice(1, 6)).toEqual([
      '2020-03-02 09:00',
      customerUser.email,
      '203.0.113.7',
      '198.51.100.4',
      String(customerUser.id),
    ]);
    expect(records.at(-1)?.slice(2, 6)).toEqual(['ninguem@demo.local', '', '198.51.100.250', '']);
  });

  it('shows the connection’s address as the address and the browser’s claim apart, never one for the other', async () => {
    const report = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/dashboard-report',
      headers: admin,
      payload: { start_at: DAY, finish_at: DAY, selectedUsers: [] },
    });
    type Row = { email: string; ip: string | null; claimed_ip: string | null };
    const rows = report.json<Row[]>();
    expect(validateResponse('dashboardReport', 200, rows)).toEqual({ valid: true, errors: [] });
    const byEmail = (answer: Row[], email: string) => answer.find((r) => r.email === email);
    expect(byEmail(rows, customerUser.email)).toMatchObject({ ip: '203.0.113.7', claimed_ip: '198.51.100.4' });
    expect(byEmail(rows, 'operador@demo.local')).toMatchObject({ ip: '192.0.2.9', claimed_ip: null });
    expect(byEmail(rows, 'ninguem@demo.local')).toMatchObject({ ip: null, claimed_ip: '198.51.100.250' });
    // The sheet's preview (oldest first, bounded) has the same fields: its first row, and the back-office
    // user's rows alone; the unknown e-mail's rows, last of the day, are in the CSV above.
    const sheet = async (query: Record<string, string | number | number[]>) => {
      const response = await t.app.fastify.inject({
        url: url({ startAt: DAY, finishAt: DAY, ...query }),
        headers: admin,
      });
      expect(validateResponse('sheetLoginFailures', 200, response.json())).toEqual({ valid: true, errors: [] });
      return response.json<{ data: Row[] }>().data;
    };
    expect((await sheet({ limit: 1 }))[0]).toMatchObject({ ip: '203.0.113.7', claimed_ip: '198.51.100.4' });
    expect(await sheet({ userId: [otherUserId] })).toEqual(
      Array.from({ length: 3 }, () => expect.objectContaining({ ip: '192.0.2.9', claimed_ip: null })),
    );
  });

  // Starts an app of its own (behind a trusted proxy): as long as a beforeAll may take.
  it('records the connection’s address of a real failed sign-in, and what its body claimed apart', async () => {
    const behind = await startTestApp({ seed: { days: 1 }, config: { trustProxy: ['10.9.0.0/16'] } });
    try {
      const failed = await behind.app.fastify.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.9.0.1',
        headers: { 'x-forwarded-for': '198.51.100.66' },
        payload: { email: 'operador@demo.local', password: 'wrong-Pass#1', ip: '203.0.113.250' },
      });
      expect(failed.statusCode).toBe(401);
      const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'America/Sao_Paulo' });
      const report = await behind.app.fastify.inject({
        method: 'POST',
        url: '/api/dashboard-report',
        headers: await behind.auth('admin@demo.local'),
        payload: { start_at: today, finish_at: today, selectedUsers: [] },
      });
      const rows = report.json<{ email: string; ip: string | null; claimed_ip: string | null }[]>();
      expect(rows.filter((r) => r.email === 'operador@demo.local')).toEqual([
        expect.objectContaining({ ip: '198.51.100.66', claimed_ip: '203.0.113.250' }),
      ]);
    } finally {
      await behind.close();
    }
  }, 120_000);

  it('narrows to the repeated userId, as selectedUsers narrows the report', async () => {
    const one = await t.app.fastify.inject({
      url: url({ startAt: DAY, finishAt: DAY, userId: [otherUserId] }),
      headers: admin,
    });
    expect(one.json<{ total: number }>().total).toBe(3);
    const both = await t.app.fastify.inject({
      url: url({ startAt: DAY, finishAt: DAY, userId: [otherUserId, customerUser.id] }),
      headers: admin,
    });
    expect(both.json<{ total: number }>().total).toBe(MANY + 3);
  });

  it('keeps tenant staff to their own tenant’s users, like the report', async () => {
    const staff = await createTestUser(t.db, {
      email: 'falhas-gestor@demo.local',
      tenant: customer.name,
      role: 'administrador',
      originBackoffice: false,
    });
    const headers = await bearer(staff.email);
    const own = await t.app.fastify.inject({ url: url({ startAt: DAY, finishAt: DAY }), headers });
    expect(own.statusCode).toBe(200);
    expect(own.json<{ total: number }>().total).toBe(MANY);
    const asked = await t.app.fastify.inject({
      url: url({ startAt: DAY, finishAt: DAY, userId: [otherUserId] }),
      headers,
    });
    expect(asked.json<{ total: number }>().total).toBe(0);
  });

  it('refuses a reversed range and a bad user id with the contract 400, and no report permission with 403', async () => {
    const reversed = await t.app.fastify.inject({ url: url({ startAt: DAY, finishAt: '2020-03-01' }), headers: admin });
    expect(reversed.statusCode).toBe(400);
    expect(validateResponse('sheetLoginFailures', 400, reversed.json())).toEqual({ valid: true, errors: [] });
    expect(reversed.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('query/finishAt');
    const badUser = await t.app.fastify.inject({
      url: `/api/tenant/sheets/login_failures?startAt=${DAY}&finishAt=${DAY}&userId=abc`,
      headers: admin,
    });
    expect(badUser.statusCode).toBe(400);
    await t.db.insertInto('roles').values({ name: 'sem_falhas', display_name: 'Sem falhas' }).execute();
    const none = await createTestUser(t.db, {
      email: 'sem-falhas@demo.local',
      tenant: customer.name,
      role: 'sem_falhas',
    });
    const refused = await t.app.fastify.inject({
      url: url({ startAt: DAY, finishAt: DAY }),
      headers: await bearer(none.email),
    });
    expect(refused.statusCode).toBe(403);
  });
});
