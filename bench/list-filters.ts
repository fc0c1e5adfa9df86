import type pg from 'pg';
import { check, fixed, percentile, since, type Check, type SuiteResult } from './lib/report';
import {
  cpuSeconds,
  loginOn,
  rssMB,
  sampleRss,
  serverOnPostgres,
  withClient,
  type PostgresTarget,
} from './lib/servers';
import { readLines } from './scale';
import { settle, userColumns } from './lib/seed-users';

/**
 * The users list filtered on the server at scale on PostgreSQL (docs/lists.md, Filters and export;
 * server/src/users/list.ts, migration 0021): 100,000 users (quick: 10,000) in ONE tenant (users are per
 * tenant), Brazilian names (bench/lib/seed-users.ts, as the support desk's bench), 12 roles' worth of spread over the demo roles, 8 departments and users
 * without one, 3% blocked, 10% online, 20% with two-factor. Over HTTP, one request at a time, latency
 * measured by the client (auth, validation, count, page, the page's users, JSON):
 *
 * - `GET /api/users/page`, the first page (25) per filter class, p50/p95, the budget on each class's p95;
 *   then the other sorts without a filter (measured, and held to the same budget);
 * - "select all": `GET /api/users/ids` of every user, and of a filter;
 * - `GET /api/users/export` of every user: rows/s and the server's RSS growth (peak during the stream −
 *   RSS just before it, VmRSS sampled every 50 ms), as bench/scale.ts measures the sheets.
 */
const TENANT = 'bench-lista';

interface Seeded {
  seconds: number;
  tenantId: number;
  roleId: number;
  departmentId: number;
}

export async function seedListUsers(client: pg.Client, users: number): Promise<Seeded> {
  const started = Date.now();
  await client.query('begin');
  const { rows: tenant } = await client.query<{ id: number }>(
    `insert into tenants (name, cnpj, template, pool, plan, user_limit, ticket_limit)
     values ($1, '45.723.174/0001-10', 'pharmacy', 'pool-a', 'enterprise', 100000, 100000) returning id`,
    [TENANT],
  );
  const tenantId = tenant[0]?.id ?? 0;
  const { rows: deps } = await client.query<{ id: number }>(
    `insert into departments (tenant_id, name)
     select $1, d from unnest(array['Atendimento','Vendas','Financeiro','Farmácia','Entregas','Compras','Marketing','Suporte']) d
     returning id`,
    [tenantId],
  );
  const user = userColumns('g');
  await client.query(
    `with r as (select array_agg(id order by id) as ids from roles),
          d as (select $3::int[] as ids)
     insert into users (tenant_id, role_id, department_id, name, username, email, password_hash,
                        blocked, is_connected, two_factor_enabled, two_factor_secret)
     select $1, r.ids[1 + (g * 7) % array_length(r.ids, 1)],
            case when g % 9 = 0 then null else d.ids[1 + (g / 3) % array_length(d.ids, 1)] end,
            ${user.name},
            ${user.username},
            ${user.emailLocal} || '@lista.example.com',
            'bench-not-a-hash',
            g % 33 = 0, g % 10 = 3, g % 5 = 1, case when g % 5 = 1 then 'bench-not-a-secret' end
       from generate_series(1, $2::int) as g, r, d`,
    [tenantId, users, deps.map((d) => d.id)],
  );
  await client.query('commit');
  await settle(client);
  const { rows: role } = await client.query<{ id: number }>(`select id from roles where name = 'operador'`);
  return { seconds: (Date.now() - started) / 1000, tenantId, roleId: role[0]?.id ?? 0, departmentId: deps[2]?.id ?? 0 };
}

interface Case {
  kind: string;
  label: string;
  query: Record<string, string>;
}

function cases(s: Seeded): Case[] {
  const filter = (label: string, query: Record<string, string>): Case => ({ kind: 'filter', label, query });
  const sort = (label: string, query: Record<string, string>): Case => ({ kind: 'sort', label, query });
  return [
    filter('none (by name)', {}),
    filter('q: common surname, accents typed (~5%)', { q: 'Araújo' }),
    filter('q: e-mail fragment, rare', { q: 'joao.silva1' }),
    filter('q: no match', { q: 'zzqxw' }),
    filter('role (1 in 7)', { role: String(s.roleId) }),
    filter('department', { department: String(s.departmentId) }),
    filter('no department (~11%)', { department: 'none' }),
    filter('blocked (3%)', { blocked: 'true' }),
    filter('online (10%)', { online: 'true' }),
    filter('two-factor off (80%)', { two_factor: 'false' }),
    filter('together: online, no two-factor, a role', { online: 'true', two_factor: 'false', role: String(s.roleId) }),
    filter('blocked, by e-mail descending', { blocked: 'true', sort: 'email', dir: 'desc' }),
    sort('e-mail', { sort: 'email' }),
    sort('presence (online first)', { sort: 'presence' }),
    sort('role name', { sort: 'role' }),
    sort('department name, descending', { sort: 'department', dir: 'desc' }),
    sort('name, page 400', { page: '400' }),
    sort('role name, page 400', { sort: 'role', page: '400' }),
  ];
}

async function get(base: string, token: string, path: string, query: Record<string, string>) {
  const params = new URLSearchParams({ tenantName: TENANT, ...query });
  const started = performance.now();
  const response = await fetch(`${base}${path}?${params.toString()}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { total?: number; ids?: number[] };
  if (response.status !== 200)
    throw new Error(`${path} ${params.toString()}: ${response.status} ${JSON.stringify(body)}`);
  return { ms: since(started), total: body.total ?? 0 };
}

export async function listFiltersBench(options: {
  quick: boolean;
  budgets: { firstPageP95Ms: number; allIdsP95Ms: number; exportRssGrowthMB: number };
  shared?: PostgresTarget;
}): Promise<SuiteResult> {
  const users = options.quick ? 10_000 : 100_000;
  const notes: string[] = [];
  const checks: Check[] = [];
  const table = [['measure', 'value']];
  const { url, server, release } = await serverOnPostgres('bench_lists', options.shared);
  try {
    const seeded = await withClient(url, (client) => seedListUsers(client, users));
    notes.push(`seeded ${users.toLocaleString('en')} users in one tenant in ${fixed(seeded.seconds)} s`);
    const { token } = await loginOn(server.base);
    const all = cases(seeded);
    const totals = new Map<string, number>();
    for (const c of all) totals.set(c.label, (await get(server.base, token, '/api/users/page', c.query)).total); // warm-up
    const rounds = options.quick ? 10 : 40;
    const samples = new Map<string, number[]>(all.map((c) => [c.label, []]));
    const cpuBefore = cpuSeconds(server.child.pid ?? 0);
    for (let round = 0; round < rounds; round++)
      for (const c of all) samples.get(c.label)?.push((await get(server.base, token, '/api/users/page', c.query)).ms);
    const cpuMs = ((cpuSeconds(server.child.pid ?? 0) - cpuBefore) * 1000) / (rounds * all.length);
    for (const c of all) {
      const s = samples.get(c.label) ?? [];
      const p95 = percentile(s, 95);
      table.push([
        `first page: ${c.kind}: ${c.label} (${(totals.get(c.label) ?? 0).toLocaleString('en')} match) p50 / p95 ms`,
        `${fixed(percentile(s, 50))} / ${fixed(p95)}`,
      ]);
      checks.push(
        check(
          `lists: first page p95, ${c.kind} ${c.label} (${users.toLocaleString('en')} users, PostgreSQL)`,
          p95,
          options.budgets.firstPageP95Ms,
          'ms',
        ),
      );
    }
    table.push(['first page: server CPU ms per request (all cases)', fixed(cpuMs, 2)]);

    // "Select all N matching": every id, then a filter's.
    for (const [label, query] of [
      ['every user', {}],
      ['two-factor off (80%)', { two_factor: 'false' }],
    ] as const) {
      const ms: number[] = [];
      let total = 0;
      for (let round = 0; round < (options.quick ? 5 : 15); round++) {
        const answer = await get(server.base, token, '/api/users/ids', query);
        ms.push(answer.ms);
        total = answer.total;
      }
      const p95 = percentile(ms, 95);
      table.push([
        `select all: ${label} (${total.toLocaleString('en')} ids) p50 / p95 ms`,
        `${fixed(percentile(ms, 50))} / ${fixed(p95)}`,
      ]);
      checks.push(
        check(
          `lists: select all ids p95, ${label} (${total.toLocaleString('en')} ids)`,
          p95,
          options.budgets.allIdsP95Ms,
          'ms',
        ),
      );
    }

    // The export of every user, streamed.
    const pid = server.child.pid ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = rssMB(pid);
    const sampler = sampleRss(pid, 50);
    const cpuExport = cpuSeconds(pid);
    const started = performance.now();
    const { lines, bytes, firstByteMs } = await readLines(
      `${server.base}/api/users/export?tenantName=${TENANT}&sort=email`,
      { authorization: `Bearer ${token}` },
      started,
    );
    const seconds = since(started) / 1000;
    const serverCpu = cpuSeconds(pid) - cpuExport;
    const rss = sampler.stop();
    const peak = Math.max(before, ...rss);
    const rows = lines - 1;
    table.push(['export: rows streamed (by e-mail)', rows.toLocaleString('en')]);
    table.push(['export: MB streamed', fixed(bytes / 1e6)]);
    table.push(['export: seconds (first byte ms)', `${fixed(seconds, 2)} (${fixed(firstByteMs, 0)})`]);
    table.push(['export: rows/s', fixed(rows / seconds, 0)]);
    table.push([
      'export: server CPU s (µs per row)',
      `${fixed(serverCpu, 2)} (${fixed((serverCpu * 1e6) / Math.max(1, rows), 2)})`,
    ]);
    table.push([
      'export: server RSS before / peak / growth MB',
      `${fixed(before)} / ${fixed(peak)} / ${fixed(peak - before)}`,
    ]);
    if (rows !== users) notes.push(`the export streamed ${rows} rows, not the ${users} users seeded`);
    checks.push(check(`lists: export rows (${users.toLocaleString('en')} users)`, rows, users, 'rows', 'min'));
    checks.push(check('lists: export server RSS growth', peak - before, options.budgets.exportRssGrowthMB, 'MB'));
    return {
      suite: 'lists',
      table,
      checks,
      notes,
      data: { users, pageMs: Object.fromEntries(samples), exportSeconds: seconds, rssGrowthMB: peak - before },
    };
  } finally {
    await release();
  }
}
