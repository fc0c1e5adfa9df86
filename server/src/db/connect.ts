import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect';
import type { Database } from './schema';
import { processLog } from '../base/log';

/** Where the embedded database keeps its files when `DATABASE_URL` is unset. */
export const DEFAULT_PGLITE_DIR = './.data/pglite';

/** An open database: the Kysely handle plus what the caller needs to close it or use driver features. */
export interface OpenDatabase {
  db: Kysely<Database>;
  kind: 'pglite' | 'postgres';
  /** Destroys the Kysely instance, which ends the pool or closes PGlite after queued work. */
  close(): Promise<void>;
  /** The pool, on PostgreSQL only (e.g. for a dedicated LISTEN client). */
  pg?: pg.Pool;
  /** The embedded engine, on PGlite only. */
  pglite?: PGlite;
}

const OID = { INT8: 20, NUMERIC: 1700, DATE: 1082 } as const;

const toNumber = (value: string): number => Number(value);
// Calendar days stay 'YYYY-MM-DD': a Date would carry a time zone the day does not have.
const asText = (value: string): string => value;

/** Parsers shared by both engines so a row reads the same on PGlite and PostgreSQL. */
const PGLITE_PARSERS = { [OID.INT8]: toNumber, [OID.NUMERIC]: toNumber, [OID.DATE]: asText };

const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary') {
      if (oid === OID.INT8 || oid === OID.NUMERIC) return toNumber;
      if (oid === OID.DATE) return asText;
    }
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * Opens the database named by `url`:
 * - unset or empty → embedded PGlite with files under `./.data/pglite` (created if missing);
 * - `pglite://memory` → in-memory PGlite (tests);
 * - `pglite://<path>` → embedded PGlite with files under `<path>`;
 * - `postgres://…` / `postgresql://…` → PostgreSQL through a `pg.Pool`.
 *
 * `pg_trgm` is loaded into PGlite here; the migrations create the extension (optional on PostgreSQL).
 * Migrations are not run: call `migrate(db)` next.
 */
export async function openDatabase(url: string | undefined = process.env.DATABASE_URL): Promise<OpenDatabase> {
  if (url === undefined || url === '' || url.startsWith('pglite:')) return openPglite(url);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url);
  throw new Error(`DATABASE_URL must be unset, pglite://memory, pglite://<dir> or postgres://…; got "${redact(url)}"`);
}

async function openPglite(url: string | undefined): Promise<OpenDatabase> {
  const target = url === undefined || url === '' ? DEFAULT_PGLITE_DIR : url.slice('pglite://'.length);
  let dataDir: string | undefined;
  if (target !== 'memory' && target !== '') {
    dataDir = resolve(target);
    await mkdir(dataDir, { recursive: true });
  }
  return pgliteDatabase(await PGlite.create({ dataDir, extensions: { pg_trgm }, parsers: PGLITE_PARSERS }));
}

/**
 * An in-memory PGlite started from a data-folder image (`PGlite#dumpDataDir`) instead of an empty
 * cluster: what server/src/test-support/database.ts uses to skip creating and migrating a cluster per test.
 */
export async function openPgliteImage(image: Blob): Promise<OpenDatabase> {
  return pgliteDatabase(await PGlite.create({ loadDataDir: image, extensions: { pg_trgm }, parsers: PGLITE_PARSERS }));
}

function pgliteDatabase(client: PGlite): OpenDatabase {
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  return { db, kind: 'pglite', pglite: client, close: () => db.destroy() };
}

async function openPostgres(url: string): Promise<OpenDatabase> {
  const pool = new pg.Pool({
    connectionString: url,
    types: pgTypes,
    max: Number(process.env.DATABASE_POOL_MAX ?? 10),
    idleTimeoutMillis: 30_000,
    // A database that does not answer (network partition, host down) fails a request after this long
    // (503, contract ServiceUnavailable) instead of holding it forever.
    connectionTimeoutMillis: Number(process.env.DATABASE_CONNECT_TIMEOUT_MS ?? 5_000),
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener Node exits.
  pool.on('error', (error) => {
    processLog.error({ err: error }, 'PostgreSQL pool error');
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', pg: pool, close: () => db.destroy() };
}

function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
