import http from 'node:http';
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
import { seedScale } from './scale-seed';

/**
 * Scale on PostgreSQL: 100,000 tenants and 1,000,000 orders (quick: a tenth), then
 * - paginated tenant search over HTTP, one request at a time, latency measured by the client
 *   (auth, validation, count and page queries, JSON) → p50/p95 per query and per class of queries
 *   (common word, rare name, CNPJ digits, alphanumeric CNPJ, no match, no search at all), the p95 budget
 *   on each class; the count is the list's bounded one (docs/lists.md, Counts), as the SPA asks it;
 * - the orders sheet as CSV over every order: rows/s and the server's RSS growth (VmRSS of the server
 *   process from /proc, sampled every 50 ms; growth = peak during the stream − RSS just before it).
 */
interface SearchCase {
  /** The query class; the p95 budget applies to each class over all of its queries. */
  kind: string;
  label: string;
  body: Record<string, unknown>;
}

function searchCases(): SearchCase[] {
  const page = (search: string, extra: Record<string, unknown> = {}) => ({
    pagination_page: 1,
    pagination_limit: 10,
    search,
    sort_name: 'name',
    sort_type: 'ASC',
    ...extra,
  });
  return [
    { kind: 'common word', label: 'name prefix, ~17% match', body: page('drogaria') },
    {
      kind: 'common word',
      label: 'name prefix, ~17% match, descending',
      body: page('drogaria', { sort_type: 'DESC' }),
    },
    { kind: 'common word', label: 'name word, ~3% match', body: page('jardim') },
    {
      kind: 'common word',
      label: 'name prefix, ~17% match, default order (id DESC)',
      body: page('drogaria', { sort_name: 'id', sort_type: 'DESC' }),
    },
    { kind: 'rare name', label: 'name fragment, few matches', body: page('boa-vista-12') },
    { kind: 'rare name', label: 'one tenant by its number', body: page('98765') },
    { kind: 'cnpj digits', label: 'cnpj digits', body: page('4567') },
    { kind: 'cnpj digits', label: 'cnpj formatted', body: page('.123.') },
    { kind: 'cnpj digits', label: 'cnpj full, bare', body: page('82122381360105') },
    { kind: 'cnpj digits', label: 'cnpj full, masked', body: page('82.122.381/3601-05') },
    { kind: 'cnpj alphanumeric', label: 'part of the mask', body: page('.abc.') },
    { kind: 'cnpj alphanumeric', label: 'bare across the mask', body: page('bcde0') },
    { kind: 'cnpj alphanumeric', label: 'official example, partial', body: page('12ABC') },
    { kind: 'cnpj alphanumeric', label: 'official example, masked', body: page('12.ABC.345/01DE-35') },
    { kind: 'no match', label: 'no match', body: page('zzz-nada') },
    { kind: 'no match', label: 'no match, letters only', body: page('zzznada') },
    {
      kind: 'no search',
      label: 'default (id DESC)',
      body: { pagination_page: 1, pagination_limit: 4, search: '', sort_name: 'id', sort_type: 'DESC' },
    },
    { kind: 'no search', label: 'first page by name', body: page('') },
    // A deep page skips its offset on the name index (5,000 entries here); deeper pages cost in proportion.
    { kind: 'no search', label: 'page 500 by name', body: page('', { pagination_page: 500 }) },
  ];
}

/** Streams a GET and counts its lines without keeping the body. */
export function readLines(
  url: string,
  headers: Record<string, string>,
  started: number,
): Promise<{ lines: number; bytes: number; firstByteMs: number }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`${url}: ${response.statusCode}`));
        response.resume();
        return;
      }
      let lines = 0;
      let bytes = 0;
      let firstByteMs = Number.NaN;
      response.on('data', (chunk: Buffer) => {
        if (Number.isNaN(firstByteMs)) firstByteMs = since(started);
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
      });
      response.on('end', () => resolve({ lines, bytes, firstByteMs }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

async function post(base: string, token: string, path: string, body: unknown): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return since(started);
}

export async function scaleBench(options: {
  quick: boolean;
  budgets: { searchP95Ms: number; csvRowsPerSecond: number; csvRssGrowthMB: number };
  shared?: PostgresTarget;
}): Promise<SuiteResult> {
  const counts = options.quick ? { tenants: 10_000, orders: 100_000 } : { tenants: 100_000, orders: 1_000_000 };
  const notes: string[] = [];
  const checks: Check[] = [];
  const table = [['measure', 'value']];
  const { url, server, release } = await serverOnPostgres('bench_scale', options.shared);
  {
    try {
      const seeded = await withClient(url, (client) => seedScale(client, counts));
      notes.push(
        `seeded ${counts.tenants.toLocaleString('en')} tenants and ${counts.orders.toLocaleString('en')} orders in ${fixed(seeded.seconds)} s (generate_series inside PostgreSQL; demo data besides)`,
      );
      const { token } = await loginOn(server.base);

      // Paginated search.
      const cases = searchCases();
      const rounds = options.quick ? 10 : 40;
      for (const c of cases) await post(server.base, token, '/api/tenant/paginated', c.body); // warm-up
      const searchCpuBefore = cpuSeconds(server.child.pid ?? 0);
      const all: number[] = [];
      const perCase = new Map<string, number[]>(cases.map((c) => [c.label, []]));
      for (let round = 0; round < rounds; round += 1) {
        for (const c of cases) {
          const ms = await post(server.base, token, '/api/tenant/paginated', c.body);
          all.push(ms);
          perCase.get(c.label)?.push(ms);
        }
      }
      for (const c of cases) {
        const samples = perCase.get(c.label) ?? [];
        table.push([
          `search: ${c.kind}: ${c.label} (${JSON.stringify(c.body['search'])}) p50 / p95 ms`,
          `${fixed(percentile(samples, 50))} / ${fixed(percentile(samples, 95))}`,
        ]);
      }
      const searchCpuMs = ((cpuSeconds(server.child.pid ?? 0) - searchCpuBefore) * 1000) / all.length;
      table.push(['search: server CPU ms per request (all cases)', fixed(searchCpuMs, 2)]);
      table.push([
        `search: all ${all.length} requests p50 / p95 / p99 ms`,
        `${fixed(percentile(all, 50))} / ${fixed(percentile(all, 95))} / ${fixed(percentile(all, 99))}`,
      ]);
      // The budget holds for every class, each over all the requests of its queries.
      for (const kind of [...new Set(cases.map((c) => c.kind))]) {
        const samples = cases.filter((c) => c.kind === kind).flatMap((c) => perCase.get(c.label) ?? []);
        const p95 = percentile(samples, 95);
        table.push([
          `search class: ${kind}, ${samples.length} requests p50 / p95 ms`,
          `${fixed(percentile(samples, 50))} / ${fixed(p95)}`,
        ]);
        checks.push(
          check(
            `scale: tenant search p95, ${kind} (${counts.tenants.toLocaleString('en')} tenants, PostgreSQL)`,
            p95,
            options.budgets.searchP95Ms,
            'ms',
          ),
        );
      }

      // CSV sheet of every order.
      const today = new Date();
      const day = (d: Date) => d.toISOString().slice(0, 10);
      const from = day(new Date(today.getTime() - 120 * 86_400_000));
      const to = day(new Date(today.getTime() + 86_400_000));
      const pid = server.child.pid ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = rssMB(pid);
      const sampler = sampleRss(pid, 50);
      const cpuBefore = cpuSeconds(pid);
      const started = performance.now();
      // node:http rather than fetch: undici's web streams cost this process more than the server spends
      // per row, and the figure is the server's.
      const { lines, bytes, firstByteMs } = await readLines(
        `${server.base}/api/tenant/sheets/orders?startAt=${from}&finishAt=${to}`,
        { accept: 'text/csv', authorization: `Bearer ${token}` },
        started,
      );
      const seconds = since(started) / 1000;
      const serverCpu = cpuSeconds(pid) - cpuBefore;
      const samples = sampler.stop();
      const rows = lines - 1;
      const peak = Math.max(...samples);
      const rowsPerSecond = rows / seconds;
      table.push(['csv: rows streamed', rows.toLocaleString('en')]);
      table.push(['csv: MB streamed', fixed(bytes / 1e6)]);
      table.push(['csv: seconds (first byte ms)', `${fixed(seconds, 2)} (${fixed(firstByteMs, 0)})`]);
      table.push(['csv: rows/s', fixed(rowsPerSecond, 0)]);
      // CPU time barely depends on what else the machine runs: the server's own cost per row.
      table.push([
        'csv: server CPU s (µs per row)',
        `${fixed(serverCpu, 2)} (${fixed((serverCpu * 1e6) / Math.max(1, rows), 2)})`,
      ]);
      table.push([
        'csv: server RSS before / peak / growth MB',
        `${fixed(before)} / ${fixed(peak)} / ${fixed(peak - before)}`,
      ]);
      if (rows < counts.orders)
        notes.push(`the sheet streamed ${rows} rows, fewer than the ${counts.orders} bench orders`);
      checks.push(
        check(
          `scale: CSV sheet rows/s (${rows.toLocaleString('en')} rows)`,
          rowsPerSecond,
          options.budgets.csvRowsPerSecond,
          'rows/s',
          'min',
        ),
      );
      checks.push(check('scale: CSV sheet server RSS growth', peak - before, options.budgets.csvRssGrowthMB, 'MB'));
      return {
        suite: 'scale',
        table,
        checks,
        notes,
        data: {
          counts,
          seeded,
          searchMs: Object.fromEntries(perCase),
          csv: { rows, bytes, seconds, firstByteMs, before, peak, serverCpu },
        },
      };
    } finally {
      await release();
    }
  }
}
