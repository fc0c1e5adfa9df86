import type pg from 'pg';

/**
 * What the benches that fill `users` at scale share (bench/list-filters.ts, bench/support-search.ts):
 * Brazilian names with accents, the e-mails and usernames people build from them, all generated inside
 * PostgreSQL (generate_series), and the table settled afterwards as a running database would be.
 */
export const FIRST_NAMES = [
  'José',
  'João',
  'Maria',
  'Ana',
  'Antônio',
  'Francisco',
  'Luíza',
  'Márcia',
  'Conceição',
  'Sebastião',
  'Paulo',
  'Lúcia',
  'Raimundo',
  'Fátima',
  'Gonçalo',
  'Inês',
  'Cláudio',
  'Débora',
  'Ênio',
  'Úrsula',
] as const;
export const LAST_NAMES = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Conceição',
  'Araújo',
  'Gonçalves',
  'Assunção',
  'Brandão',
  'Magalhães',
  'Simões',
  'Guimarães',
  'Falcão',
  'Estêvão',
  'Pereira',
  'Lima',
  'Carvalho',
  'Ribeiro',
  'Almeida',
  'Nóbrega',
] as const;

const arrayLiteral = (items: readonly string[]) => `array[${items.map((w) => `'${w}'`).join(',')}]`;
/** The ASCII form of a name, as people type it into e-mails and usernames. */
const ascii = (expression: string) => `translate(lower(${expression}), 'áàâãéêíóôõúüç', 'aaaaeeiooouuc')`;

/** A SQL text array of `items`, for picking one by a series number. */
export const sqlArray = arrayLiteral;

/**
 * SQL expressions of user number `g` (a column of `generate_series`): its name (first, middle and last
 * name), username (at most 40 characters) and e-mail local part with its number (add `'@' || domain`).
 */
export function userColumns(g = 'g') {
  const first = `(${arrayLiteral(FIRST_NAMES)})[1 + ${g} % ${FIRST_NAMES.length}]`;
  const last = `(${arrayLiteral(LAST_NAMES)})[1 + (${g} / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}]`;
  const middle = `(${arrayLiteral(LAST_NAMES)})[1 + (${g} / 7) % ${LAST_NAMES.length}]`;
  return {
    name: `${first} || ' ' || ${middle} || ' ' || ${last}`,
    username: `left(${ascii(first)} || '.' || ${ascii(last)} || '.' || ${g}, 40)`,
    emailLocal: `${ascii(first)} || '.' || ${ascii(last)} || ${g}`,
  };
}

/** What {@link userColumns} writes for user `g`, as the benches search for users that exist. */
export function seededUser(g: number) {
  const plain = (text: string) =>
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const first = plain(FIRST_NAMES[g % FIRST_NAMES.length] ?? '');
  const last = plain(LAST_NAMES[Math.floor(g / FIRST_NAMES.length) % LAST_NAMES.length] ?? '');
  return { emailLocal: `${first}.${last}${g}`, username: `${first}.${last}.${g}`.slice(0, 40) };
}

/**
 * Measure the state a running database is in after a bulk load: the statistics and the visibility map
 * that autovacuum brings minutes later (an index-only scan reads the table while pages are not visible).
 */
export async function settle(client: pg.Client, table = 'users'): Promise<void> {
  for (let pass = 0; pass < 3; pass++) {
    await client.query(`vacuum (analyze) ${table}`);
    const { rows } = await client.query<{ pages: number; visible: number }>(
      `select relpages as pages, relallvisible as visible from pg_class where relname = $1`,
      [table],
    );
    if ((rows[0]?.visible ?? 0) >= (rows[0]?.pages ?? 0)) break;
  }
}
