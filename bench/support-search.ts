import type pg from 'pg';
import { check, fixed, percentile, since, type Check, type SuiteResult } from './lib/report';
import { seededUser, settle, sqlArray, userColumns } from './lib/seed-users';
import { cpuSeconds, loginOn, serverOnPostgres, withClient, type PostgresTarget } from './lib/servers';

/**
 * The support desk's search at scale on PostgreSQL (docs/support-desk.md; server/src/support/search in
 * server/src/support/repository.ts `searchIds`): 100,000 users (quick: 10,000) over the demo tenants,
 * Brazilian names with accents, e-mails and usernames built from them (bench/lib/seed-users.ts, as the
 * users list's bench), one in twenty deleted; then
 * `GET /api/support/users?q=` over HTTP, one request at a time, latency measured by the client (auth,
 * validation, the search and its page's details, JSON) → p50/p95 per query and per class (e-mail part,
 * name part, username, no match), the p95 budget on each class.
 */
const DOMAINS = ['gmail.com', 'hotmail.com', 'drogaria-bem-estar.com.br', 'farmaciavida.com.br', 'outlook.com'];

async function seedUsers(client: pg.Client, users: number): Promise<number> {
  const started = Date.now();
  await client.query('begin');
  await client.query(`set local session_replication_role = replica`);
  const user = userColumns('g');
  // Over the demo tenants and roles, round robin; no user limit applies to rows written here.
  await client.query(
    `with t as (select array_agg(id order by id) as ids from tenants),
          r as (select id from roles where name = 'operador')
     insert into users (tenant_id, role_id, name, username, email, password_hash, deleted_at, email_reserved, created_at)
     select t.ids[1 + g % array_length(t.ids, 1)], r.id,
            ${user.name},
            ${user.username},
            ${user.emailLocal} || '@' || (${sqlArray(DOMAINS)})[1 + ((g::bigint * 2654435761) % 1009) % ${DOMAINS.length}],
            'bench-not-a-hash',
            case when g % 20 = 0 then now() - (g % 300) * interval '1 day' else null end,
            g % 20 = 0,
            now() - (g % 1000) * interval '1 hour'
       from generate_series(1, $1::int) as g, t, r`,
    [users],
  );
  await client.query('commit');
  await settle(client);
  return (Date.now() - started) / 1000;
}

interface SearchCase {
  kind: 'e-mail part' | 'name part' | 'username' | 'no match';
  label: string;
  q: string;
}

/** What the seed writes for user `g`, to search for users that exist. */
function seeded(g: number) {
  const user = seededUser(g);
  return {
    email: `${user.emailLocal}@${DOMAINS[Number((BigInt(g) * 2654435761n) % 1009n) % DOMAINS.length]}`,
    username: user.username,
  };
}

function searchCases(users: number): SearchCase[] {
  const g = Math.floor(users * 0.7317);
  const one = seeded(g);
  const other = seeded(g + 13);
  return [
    { kind: 'e-mail part', label: 'one address, whole', q: one.email },
    { kind: 'e-mail part', label: 'local part with its number', q: other.email.split('@')[0] ?? '' },
    { kind: 'e-mail part', label: 'a company domain (~20%)', q: '@drogaria-bem-estar' },
    { kind: 'e-mail part', label: 'a number before the domain', q: `${g % 1000}@` },
    { kind: 'name part', label: 'common first name, accents typed (~5%)', q: 'João' },
    { kind: 'name part', label: 'common first name, no accents', q: 'joao' },
    { kind: 'name part', label: 'two words, accents and case', q: 'CONCEIÇÃO ARAÚJO' },
    { kind: 'name part', label: 'surname fragment', q: 'magalh' },
    { kind: 'name part', label: 'rare combination', q: 'Úrsula Nóbrega Falcão' },
    { kind: 'username', label: 'a username, whole', q: one.username },
    { kind: 'username', label: 'a username without its number', q: other.username.replace(/\d+$/, '') },
    { kind: 'username', label: 'username number suffix', q: `.${g + 7}` },
    { kind: 'no match', label: 'letters', q: 'zzqxw' },
    { kind: 'no match', label: 'a name nobody has', q: 'Wolfgang Amadeus' },
    { kind: 'no match', label: 'an address nobody has', q: 'ninguem@nenhum.example' },
  ];
}

async function get(base: string, token: string, q: string): Promise<{ ms: number; found: number }> {
  const started = performance.now();
  const response = await fetch(`${base}/api/support/users?q=${encodeURIComponent(q)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { data?: unknown[] };
  if (response.status !== 200) throw new Error(`support search ${JSON.stringify(q)}: ${response.status}`);
  return { ms: since(started), found: body.data?.length ?? 0 };
}

export async function supportSearchBench(options: {
  quick: boolean;
  budgets: { searchP95Ms: number };
  shared?: PostgresTarget;
}): Promise<SuiteResult> {
  const users = options.quick ? 10_000 : 100_000;
  const notes: string[] = [];
  const checks: Check[] = [];
  const table = [['measure', 'value']];
  const { url, server, release } = await serverOnPostgres('bench_support', options.shared);
  try {
    const seconds = await withClient(url, (client) => seedUsers(client, users));
    notes.push(`seeded ${users.toLocaleString('en')} users in ${fixed(seconds)} s (generate_series inside PostgreSQL)`);
    // The plans of server/src/support/repository.ts searchIds: the bounded walk in the answer's order
    // (a common text), and the trigram index with a sort (a text the walk does not find enough of).
    const plans = await withClient(url, async (client) => {
      const explain = async (settings: string[], query: string) => {
        await client.query('begin');
        for (const setting of settings) await client.query(`set local ${setting} = off`);
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers off, timing off, summary on) ${query}`,
        );
        await client.query('rollback');
        return rows.map((r) => r['QUERY PLAN'].trim()).join(' | ');
      };
      return [
        await explain(
          [],
          `select w.id from (select id, name, deleted_at, support_search from users order by deleted_at is not null, name, id limit 2000) w
            where w.support_search like '%' || support_fold('drogaria-bem') || '%' order by w.deleted_at is not null, w.name, w.id limit 20`,
        ),
        await explain(
          ['enable_seqscan', 'enable_indexscan'],
          `select id from users where support_search like '%' || support_fold('João') || '%' order by deleted_at is not null, name, id limit 20`,
        ),
      ];
    });
    notes.push(`plan of the walk of a common text: ${plans[0]}`);
    notes.push(`plan of the index and sort of a text further down the order: ${plans[1]}`);
    const { token } = await loginOn(server.base);
    const cases = searchCases(users);
    const rounds = options.quick ? 10 : 40;
    const found = new Map<string, number>();
    for (const c of cases) found.set(c.label, (await get(server.base, token, c.q)).found); // warm-up
    const cpuBefore = cpuSeconds(server.child.pid ?? 0);
    const perCase = new Map<string, number[]>(cases.map((c) => [c.label, []]));
    let requests = 0;
    for (let round = 0; round < rounds; round += 1) {
      for (const c of cases) {
        perCase.get(c.label)?.push((await get(server.base, token, c.q)).ms);
        requests += 1;
      }
    }
    for (const c of cases) {
      const samples = perCase.get(c.label) ?? [];
      table.push([
        `search: ${c.kind}: ${c.label} (${JSON.stringify(c.q)}, ${found.get(c.label)} shown) p50 / p95 ms`,
        `${fixed(percentile(samples, 50))} / ${fixed(percentile(samples, 95))}`,
      ]);
    }
    table.push([
      'search: server CPU ms per request (all cases)',
      fixed(((cpuSeconds(server.child.pid ?? 0) - cpuBefore) * 1000) / requests, 2),
    ]);
    for (const kind of [...new Set(cases.map((c) => c.kind))]) {
      const samples = cases.filter((c) => c.kind === kind).flatMap((c) => perCase.get(c.label) ?? []);
      const p95 = percentile(samples, 95);
      table.push([
        `search class: ${kind}, ${samples.length} requests p50 / p95 ms`,
        `${fixed(percentile(samples, 50))} / ${fixed(p95)}`,
      ]);
      checks.push(
        check(
          `support: search p95, ${kind} (${users.toLocaleString('en')} users, PostgreSQL)`,
          p95,
          options.budgets.searchP95Ms,
          'ms',
        ),
      );
    }
    return { suite: 'support', table, checks, notes, data: { users, seconds, searchMs: Object.fromEntries(perCase) } };
  } finally {
    await release();
  }
}
