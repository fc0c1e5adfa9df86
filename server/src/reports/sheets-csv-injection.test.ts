import { saoPauloDay } from '../db/analytics';
import { startTestApp, type TestApp } from '../test-support/app';
import { formulaLead, parseCsv } from '../test-support/csv';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { csvLine } from '../base/csv';
import { dayRange } from './params';
import type { Cursor } from './sheet';
import { ordersSheet } from './sheets';

/**
 * CSV injection end to end: hostile names go in through the API (an instance renamed with
 * `POST /api/instance/update`, attendants renamed with `PUT /api/users/{id}`) or, where no operation
 * writes them (customer names of orders, reason names, log details, which come from the chat
 * integrations), straight into the database; then every sheet is downloaded as CSV — orders formatted
 * by the database (its `csvPage`), the others formatted in this process — and the productivity report
 * too. No cell may start like a formula once unquoted, and each hostile text must still be there whole,
 * behind its `'`.
 */

const INSTANCE_NAME = '=HYPERLINK("http://x.test","y")';
const PERSON_NAMES = ["+cmd|' /C calc'!A0", '@SUM(1+1)', '-2+3', '\t=1'];
const OTHER_TEXTS = ['＝1+1', '\u00A0=1', ' -1', '=1;=2', '@"x"\r\n=2', '+'];
const TEXTS = [INSTANCE_NAME, ...PERSON_NAMES, ...OTHER_TEXTS];

/** Columns written as text; every other column is a number, a date, `sim`/`não` or empty. */
const TEXT_COLUMNS: Record<string, readonly string[]> = {
  orders: ['tenant', 'cliente', 'status'],
  attendances: ['tenant', 'atendente', 'status'],
  instance_logs: ['tenant', 'instancia', 'evento', 'detalhe'],
  reasons: ['tenant', 'motivo'],
  productivity: ['atendente'],
};
const NOT_TEXT = /^(?:-?\d+(?:,\d+)?|\d{4}-\d{2}-\d{2} \d{2}:\d{2}|sim|não|)$/;

const finishAt = saoPauloDay(new Date());
const startAt = saoPauloDay(new Date(Date.now() - 10 * 86_400_000));

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('sheets downloaded as CSV keep hostile text as text on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  let tenant: { id: number; name: string };
  let instanceId: number;
  let attendants: { id: number; name: string }[];

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ ...(cluster ? { databaseUrl: cluster.url } : {}), seed: { days: 3 } });
    admin = await t.auth('admin@demo.local');

    // An instance with logs in the window, of a tenant with enough users to rename.
    const staffed = t.db
      .selectFrom('users')
      .select('tenant_id')
      .where('deleted_at', 'is', null)
      .groupBy('tenant_id')
      .having((eb) => eb.fn.countAll(), '>=', PERSON_NAMES.length);
    const logged = await t.db
      .selectFrom('instance_logs as l')
      .innerJoin('tenants as tn', 'tn.id', 'l.tenant_id')
      .select(['l.instance_id', 'tn.id', 'tn.name'])
      .where('tn.deleted_at', 'is', null)
      .where('tn.id', 'in', staffed)
      .orderBy('l.instance_id')
      .executeTakeFirstOrThrow();
    tenant = { id: logged.id, name: logged.name };
    instanceId = logged.instance_id;

    const renamed = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/instance/update',
      headers: admin,
      payload: { id: instanceId, tenantName: tenant.name, name: INSTANCE_NAME },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<{ name: string }>().name).toBe(INSTANCE_NAME);

    const users = await t.db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenant.id)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .limit(PERSON_NAMES.length)
      .execute();
    expect(users).toHaveLength(PERSON_NAMES.length);
    attendants = [];
    for (const [i, user] of users.entries()) {
      const response = await t.app.fastify.inject({
        method: 'PUT',
        url: `/api/users/${user.id}`,
        headers: admin,
        payload: { name: PERSON_NAMES[i] },
      });
      expect(response.statusCode).toBe(200);
      // The name as stored (the users service may normalise it, e.g. trim `\t=1` to `=1`): still a formula.
      const { name } = response.json<{ name: string }>();
      expect(formulaLead(name)).not.toBeNull();
      attendants.push({ id: user.id, name });
    }

    // An hour ago: inside the window whatever the time of day.
    const at = new Date(Date.now() - 3_600_000);
    const attendances = await t.db
      .insertInto('attendances')
      .values(
        attendants.map((u) => ({
          tenant_id: tenant.id,
          user_id: u.id,
          started_at: at,
          finished_at: at,
          ticket_status: 'closed' as const,
        })),
      )
      .returning('id')
      .execute();
    await t.db
      .insertInto('orders')
      .values(
        TEXTS.map((name, i) => ({
          tenant_id: tenant.id,
          created_at: at,
          customer_name: name,
          website_id: i,
          status: 'pending' as const,
          items: 1,
          total: 10,
        })),
      )
      .execute();
    await t.db
      .insertInto('instance_logs')
      .values(
        TEXTS.map((detail) => ({
          tenant_id: tenant.id,
          instance_id: instanceId,
          created_at: at,
          event: 'error' as const,
          detail,
        })),
      )
      .execute();
    const reasons = await t.db
      .insertInto('reasons')
      .values(TEXTS.map((name) => ({ name })))
      .returning('id')
      .execute();
    await t.db
      .insertInto('attendance_reasons')
      .values(
        reasons.map((r, i) => ({
          tenant_id: tenant.id,
          reason_id: r.id,
          attendance_id: attendances[i % attendances.length]?.id ?? null,
          created_at: at,
        })),
      )
      .execute();
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  /** Downloads a sheet as CSV; answers its header and records, after checking every cell. */
  async function download(
    url: string,
    sheet: string,
  ): Promise<{ body: string; column: (name: string) => string[]; records: string[][] }> {
    const response = await t.app.fastify.inject({ url, headers: { ...admin, accept: 'text/csv' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header = [], ...records] = parseCsv(response.body.slice(1));
    expect(records.length).toBeGreaterThan(0);
    const textColumns = TEXT_COLUMNS[sheet] ?? [];
    for (const name of textColumns) expect(header).toContain(name);
    for (const record of records) {
      expect(record).toHaveLength(header.length);
      record.forEach((cell, i) => {
        const name = header[i] ?? '';
        if (textColumns.includes(name))
          expect(formulaLead(cell), `${sheet}.${name}: ${JSON.stringify(cell)}`).toBeNull();
        else expect(cell, `${sheet}.${name}`).toMatch(NOT_TEXT);
      });
    }
    const column = (name: string) => records.map((r) => r[header.indexOf(name)] ?? '');
    return { body: response.body, column, records };
  }

  const sheetUrl = (path: string, tenantParam: string) =>
    `/api/tenant/sheets/${path}?startAt=${startAt}&finishAt=${finishAt}&${tenantParam}`;
  const count = (cells: readonly string[], value: string) => cells.filter((c) => c === value).length;

  it("orders (formatted by the database): customer names behind a `'`, byte for byte what the rows path prints", async () => {
    const { body, column } = await download(sheetUrl('orders', `tenantName=${tenant.name}`), 'orders');
    const customers = column('cliente');
    for (const text of TEXTS) expect(count(customers, `'${text}`), JSON.stringify(text)).toBe(1);

    // The same sheet formatted in this process from its rows.
    const sheet = ordersSheet(t.db, { tenantId: tenant.id }, dayRange(startAt, finishAt, 'finishAt'));
    let viaRows = '';
    let cursor: Cursor | null = null;
    for (;;) {
      const rows = await sheet.page(cursor, 500);
      viaRows += rows.map((r) => csvLine(sheet.csv(r))).join('');
      const last = rows.at(-1);
      if (rows.length < 500 || !last) break;
      cursor = { at: last.cursor_at, id: last.id };
    }
    expect(body.slice(body.indexOf('\r\n') + 2)).toBe(viaRows);
  });

  it("instance logs: the renamed instance on every one of its rows, and log details, behind a `'`", async () => {
    const { column } = await download(sheetUrl('instance_logs', `tenantName=${tenant.name}`), 'instance_logs');
    const ids = column('instancia_id');
    const names = column('instancia');
    const own = names.filter((_, i) => ids[i] === String(instanceId));
    const logs = await t.db
      .selectFrom('instance_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('instance_id', '=', instanceId)
      .executeTakeFirstOrThrow();
    expect(own.length).toBe(Number(logs.n));
    expect(own.every((name) => name === `'${INSTANCE_NAME}`)).toBe(true);
    const details = column('detalhe');
    for (const text of TEXTS) expect(count(details, `'${text}`), JSON.stringify(text)).toBe(1);
  });

  it("attendances: attendants renamed through the API, on every attendance of theirs, behind a `'`", async () => {
    const { column } = await download(sheetUrl('attendances', `tenantName=${tenant.name}`), 'attendances');
    const names = column('atendente');
    for (const user of attendants) {
      const theirs = await t.db
        .selectFrom('attendances')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(count(names, `'${user.name}`), JSON.stringify(user.name)).toBe(Number(theirs.n));
    }
  });

  it("reasons: reason names behind a `'`", async () => {
    const { column } = await download(sheetUrl('reasons', `tenancyId=${tenant.id}`), 'reasons');
    const names = column('motivo');
    for (const text of TEXTS) expect(count(names, `'${text}`), JSON.stringify(text)).toBe(1);
  });

  it("productivity report: attendants behind a `'`", async () => {
    const { column } = await download(
      `/api/dashboard/productivity?startAt=${startAt}&finishAt=${finishAt}&tenantName=${tenant.name}`,
      'productivity',
    );
    const names = column('atendente');
    for (const user of attendants) expect(count(names, `'${user.name}`), JSON.stringify(user.name)).toBe(1);
  });

  it('the JSON previews still answer the names as they were typed', async () => {
    const response = await t.app.fastify.inject({
      url: `${sheetUrl('attendances', `tenantName=${tenant.name}`)}&limit=1000`,
      headers: admin,
    });
    const names = new Set(
      response.json<{ data: { attendant_name: string | null }[] }>().data.map((r) => r.attendant_name),
    );
    for (const user of attendants) expect(names.has(user.name)).toBe(true);
  });
});
