import { sql, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { FORMULA_START_SOURCE, SAFE_FIRST_CODES } from '../../../src/domain/csv-formula';
import type { Database } from '../db/schema';
import { REPORT_TIME_ZONE } from './params';
import type { Cursor } from './sheet';

/**
 * CSV cells formatted by the database, exactly as `csvCell` (./csv.ts) formats them in this process:
 * the biggest sheets stream a keyset page as one string built by PostgreSQL, so this process neither
 * parses nor formats a row (bench/scale.ts: ~9 µs of server CPU per row before, most of it decoding
 * columns and formatting cells). The two ways are compared cell by cell in csv-sql.test.ts.
 */
type Cell = RawBuilder<string>;

/**
 * `'` when the text starts like a formula, else nothing (CSV injection): `startsLikeFormula`
 * (src/domain/csv-formula.ts) in SQL — its fast path on the first character (`ascii` is its code
 * point), then the very regular expression it tests, which PostgreSQL reads as JavaScript does.
 */
const formulaGuardSql = (value: Expression<string | null>): Cell =>
  sql<string>`case when ascii(${value}) between ${sql.lit(SAFE_FIRST_CODES.min)} and ${sql.lit(SAFE_FIRST_CODES.max)} then '' when ${value} ~ ${FORMULA_START_SOURCE}::text then '''' else '' end`;

/**
 * Text: `'` in front when it starts like a formula; quoted, with `""` for `"`, when it holds `;`,
 * `"`, CR or LF; null is empty. Each branch tests the formula rule once per cell.
 */
export const csvTextSql = (value: Expression<string | null>): Cell =>
  sql<string>`coalesce(case when strpos(${value}, ';') > 0 or strpos(${value}, '"') > 0 or strpos(${value}, chr(13)) > 0 or strpos(${value}, chr(10)) > 0 then '"' || ${formulaGuardSql(value)} || replace(${value}, '"', '""') || '"' else ${formulaGuardSql(value)} || ${value} end, '')`;

/** An integer as it is; null is empty. */
export const csvIntSql = (value: Expression<number | null>): Cell => sql<string>`coalesce((${value})::text, '')`;

/** `YYYY-MM-DD HH:mm` in São Paulo; null is empty. */
export const csvTimeSql = (value: Expression<Date | null>): Cell =>
  sql<string>`coalesce(to_char(${value} at time zone ${sql.lit(REPORT_TIME_ZONE)}, 'YYYY-MM-DD HH24:MI'), '')`;

/** Money (`numeric(…, 2)`): always two decimals with a comma; null is empty. */
export const csvMoneySql = (value: Expression<unknown>): Cell =>
  sql<string>`coalesce(replace(round((${value})::numeric, 2)::text, '.', ','), '')`;

/** One CSV record: the cells joined by `;`, ended by CRLF. */
export const csvRecordSql = (cells: readonly Cell[]): Cell =>
  sql<string>`${sql.join(cells, sql`|| ';' ||`)} || chr(13) || chr(10)`;

/** A keyset page formatted by the database: its text, how many rows it held, where the next starts. */
export interface CsvPage {
  text: string;
  count: number;
  last: Cursor | null;
}

/**
 * Runs a page query that selects `id`, `sort_at` (the order time), `cursor_at` (that time as text) and
 * `line` (a {@link csvRecordSql}), ordered and limited, and answers its lines joined in that order.
 */
export async function csvPageOf(
  db: Kysely<Database>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any page query; the columns are named above
  page: SelectQueryBuilder<any, any, { id: number; sort_at: Date; cursor_at: string; line: string }>,
): Promise<CsvPage> {
  const row = await db
    .selectFrom(page.as('p'))
    .select([
      sql<string>`coalesce(string_agg(p.line, '' order by p.sort_at, p.id), '')`.as('text'),
      sql<number>`count(*)::int`.as('n'),
      sql<number | null>`(array_agg(p.id order by p.sort_at desc, p.id desc))[1]`.as('last_id'),
      sql<string | null>`(array_agg(p.cursor_at order by p.sort_at desc, p.id desc))[1]`.as('last_at'),
    ])
    .executeTakeFirstOrThrow();
  const last = row.last_id === null || row.last_at === null ? null : { at: row.last_at, id: Number(row.last_id) };
  return { text: row.text, count: row.n, last };
}
