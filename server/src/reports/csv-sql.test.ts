import fc from 'fast-check';
import { sql } from 'kysely';
import { HOSTILE_STRINGS } from '../test-support/arbitraries';
import { startTestApp, type TestApp } from '../test-support/app';
import { formulaLead, parseCsv } from '../test-support/csv';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { csvCell, csvLine, decimal } from '../base/csv';
import { csvIntSql, csvMoneySql, csvTextSql, csvTimeSql } from './csv-sql';
import { dayRange } from './params';
import type { Cursor } from './sheet';
import { ordersSheet } from './sheets';

/**
 * The database formats the big sheets' CSV (./csv-sql.ts) and must print every cell exactly as
 * `csvCell` does in this process: random and hostile values through both, on PGlite and PostgreSQL;
 * then a whole orders sheet read both ways, page by page, compared byte for byte.
 */
// Formula payloads (CSV injection): every guarded leading character, alone or behind spaces,
// controls and invisible marks, followed by anything. Not U+FEFF in front: PGlite's driver drops a
// leading U+FEFF from every text value it reads (its UTF-8 decoder strips a byte-order mark), so the
// rows path would format another text than the database did; U+FEFF before a trigger, where the `'`
// comes first, is in the every-code-point test below.
const FORMULA_LEADS = ['=', '+', '-', '@', '\t', '\r', '\n', '＝', '＋', '－', '＠'];
const FORMULA_TEXTS = fc
  .tuple(
    fc.constantFrom('', ' ', '   ', '\u00A0', '\u200B', '\u202E', '\u2066', '\u3000', '\u0001', '\u0085', '\r\n'),
    fc.constantFrom(...FORMULA_LEADS, "'", '"', ';', 'a', '1', 'ç', '😀'),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
  )
  .map((parts) => parts.join(''));
const PAYLOADS = [
  '=HYPERLINK("http://x.test","y")',
  "+cmd|' /C calc'!A0",
  '@SUM(1+1)',
  '-2+3',
  '\t=1',
  '=1;=2',
  '"=1"',
  '-',
  '=',
  '\r\n=1',
  ' =1',
];
const TEXTS = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  FORMULA_TEXTS,
  fc.constantFrom(
    ...HOSTILE_STRINGS,
    ...PAYLOADS,
    'a;b',
    'diz "oi"',
    'linha\r\nnova',
    'só\n',
    ';',
    '"',
    '',
    '👨‍👩‍👧‍👦=1',
    `=${'x'.repeat(100_000)}`,
  ),
);
// 1914–2100: São Paulo's DST years and the future. (Before 1914 the zone was local mean time,
// −3:06:28, and ICU and PostgreSQL's zone data round those seconds a minute apart; no sheet holds
// such times.)
const TIMES = fc.integer({ min: Date.UTC(1914, 0, 2), max: Date.UTC(2100, 0, 1) }).map((ms) => new Date(ms));
const CENTS = fc.integer({ min: 0, max: 9_999_999_999_99 });

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('CSV cells formatted by the database on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ ...(cluster ? { databaseUrl: cluster.url } : {}), seed: { days: 1 } });
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  /** Formats many values in one query, in order. */
  async function viaDatabase<T>(
    values: readonly T[],
    cell: (value: ReturnType<typeof sql.val>) => ReturnType<typeof csvTextSql>,
    cast: string,
  ): Promise<string[]> {
    if (values.length === 0) return [];
    const rows = await sql<{
      text: string;
    }>`select ${cell(sql`v::${sql.raw(cast)}` as never)} as text from unnest(${sql.val(values)}::${sql.raw(cast)}[]) with ordinality as u(v, i) order by i`.execute(
      t.db,
    );
    return rows.rows.map((r) => r.text);
  }

  it('text: quoted exactly when it holds ; " CR or LF, with doubled quotes; `\'` before a formula; null empty (1000 values)', async () => {
    const values = [
      ...fc.sample(TEXTS, 1000).filter((s) => !s.includes('\u0000')),
      ...PAYLOADS,
      '',
      `+${'ç'.repeat(50_000)};`,
      null,
    ];
    const cells = await viaDatabase(values, csvTextSql as never, 'text');
    expect(cells).toEqual(values.map((v) => csvCell(v)));
    cells.forEach((cell, i) => {
      const [record = []] = parseCsv(`${cell}\r\n`);
      expect(record).toHaveLength(1);
      const text = record[0] ?? '';
      expect(formulaLead(text)).toBeNull();
      const value = values[i] ?? '';
      expect(text === value || text === `'${value}`).toBe(true);
    });
    // The payloads that start like formulas carry the `'`; the rest are as they were.
    expect(cells.slice(-(PAYLOADS.length + 3), -3)).toEqual([
      `"'=HYPERLINK(""http://x.test"",""y"")"`,
      "'+cmd|' /C calc'!A0",
      "'@SUM(1+1)",
      "'-2+3",
      "'\t=1",
      `"'=1;=2"`,
      `"""=1"""`,
      "'-",
      "'=",
      `"'\r\n=1"`,
      "' =1",
    ]);
  });

  it("text led by any character (every code point of the BMP, bare and behind a space): the same `'` both ways", async () => {
    const values: string[] = [];
    for (let code = 1; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const c = String.fromCharCode(code);
      values.push(`${c}=1`, ` ${c}x`);
    }
    const cells = await viaDatabase(values, csvTextSql as never, 'text');
    const mismatches = values.filter((v, i) => cells[i] !== csvCell(v));
    expect(mismatches).toEqual([]);
    expect(cells.filter((c) => c.startsWith("'") || c.startsWith(`"'`)).length).toBeGreaterThan(100);
  });

  it('times: YYYY-MM-DD HH:mm in São Paulo, across every DST rule since 1914 (1000 values)', async () => {
    const values = fc.sample(TIMES, 1000);
    expect(
      await viaDatabase(
        values.map((d) => d.toISOString()),
        csvTimeSql as never,
        'timestamptz',
      ),
    ).toEqual(values.map((d) => csvCell(d)));
  });

  it('integers as they are, money with two decimals and a comma (500 values each)', async () => {
    const ints = [...fc.sample(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), 500), null];
    expect(await viaDatabase(ints, csvIntSql as never, 'integer')).toEqual(ints.map((v) => csvCell(v)));
    const cents = [...fc.sample(CENTS, 500), 0, 1, 50, 100, 999_999_999_999];
    const money = cents.map((c) => (c / 100).toFixed(2));
    expect(await viaDatabase(money, csvMoneySql as never, 'numeric(12,2)')).toEqual(
      cents.map((c) => csvCell(decimal(c / 100))),
    );
  });

  it('a whole orders sheet reads the same both ways, page by page (hostile names, null sites, DST nights)', async () => {
    const tenant = await t.db
      .insertInto('tenants')
      .values({
        name: 'csv-sql-teste',
        cnpj: '11.222.333/0001-81',
        template: 'default',
        pool: 'pool-1',
        plan: 'starter',
        user_limit: 10,
        ticket_limit: 100,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const names = fc.sample(TEXTS, 300).filter((s) => !s.includes('\u0000'));
    // Around the last DST switch (2019-02-17 00:00 local) and in plain days.
    const base = Date.UTC(2019, 1, 16, 20);
    await t.db
      .insertInto('orders')
      .values(
        names.map((name, i) => ({
          tenant_id: tenant.id,
          // Some share a timestamp, so the keyset's id tie-break matters.
          created_at: new Date(base + Math.floor(i / 3) * 97_000),
          customer_name: name,
          website_id: i % 4 === 0 ? null : i,
          status: (['pending', 'confirmed', 'delivered', 'cancelled'] as const)[i % 4] ?? 'pending',
          items: i % 9,
          total: ((i * 7_919) % 100_000) / 100,
        })),
      )
      .execute();
    const sheet = ordersSheet(t.db, { tenantId: tenant.id }, dayRange('2019-02-15', '2019-02-20', 'finishAt'));
    const limit = 37;
    let viaRows = '';
    let viaSql = '';
    let cursor: Cursor | null = null;
    let sqlCursor: Cursor | null = null;
    let pages = 0;
    for (;;) {
      const rows = await sheet.page(cursor, limit);
      const page = await sheet.csvPage!(sqlCursor, limit);
      viaRows += rows.map((r) => csvLine(sheet.csv(r))).join('');
      viaSql += page.text;
      expect(page.count).toBe(rows.length);
      const last = rows.at(-1);
      expect(page.last).toEqual(last ? { at: last.cursor_at, id: last.id } : null);
      pages += 1;
      if (rows.length < limit || !last) break;
      cursor = { at: last.cursor_at, id: last.id };
      sqlCursor = page.last;
    }
    expect(pages).toBeGreaterThan(5);
    expect(parseCsv(viaSql).length).toBe(names.length);
    expect(viaSql).toBe(viaRows);
  });
});
