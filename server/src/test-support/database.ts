import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, openPgliteImage, type OpenDatabase } from '../db/connect';
import { migrate } from '../db/migrate';

/**
 * Test helpers: a database that disappears afterwards.
 *
 * - `pglite://memory` (default): a fresh in-memory PGlite.
 * - a `postgres://…` URL: a fresh schema on that server (search_path pinned through the connection's
 *   `options`), dropped with everything in it by `close()`.
 */
export async function openTestDatabase(url = 'pglite://memory'): Promise<OpenDatabase & { url: string }> {
  if (url === 'pglite://memory') return { ...(await openImage('migrated')), url };
  const database = await openEmptyTestDatabase(url);
  await migrate(database.db);
  return database;
}

/**
 * The same, not migrated: for tests of a migration, which first bring the schema to the migration
 * before it (`new Migrator(…).migrateTo(…)`) and write the data it has to cope with.
 */
export async function openEmptyTestDatabase(url = 'pglite://memory'): Promise<OpenDatabase & { url: string }> {
  if (url === 'pglite://memory') return { ...(await openImage('empty')), url };
  if (!/^postgres(ql)?:\/\//.test(url)) return { ...(await openDatabase(url)), url };
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const onServer = async (statement: string) => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await onServer(`create schema ${schema}`);
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema},public`);
  const database = await openDatabase(scoped.toString());
  return {
    ...database,
    /** The scoped URL: another connection (or process) opened with it sees the same schema. */
    url: scoped.toString(),
    close: async () => {
      await database.close();
      await onServer(`drop schema ${schema} cascade`);
    },
  };
}

// ------------------------------------------------------------------------------------------------------
// PGlite images. Creating an in-memory cluster (initdb in WebAssembly) and running every migration takes
// seconds per database, and the suites open hundreds; a cluster started from a data-folder image of the
// same state takes a fraction of that. An image is made once, kept under
// node_modules/.cache/pglite-images/ and named by a hash of everything that decides its content: the
// PGlite version and, for the migrated one, server/src/db/migrate.ts and every file in
// server/src/db/migrations/. A change to any of them names a new image; nothing stale is ever loaded.
// ------------------------------------------------------------------------------------------------------

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const DB_DIR = join(ROOT, 'server/src/db');
const IMAGE_DIR = join(ROOT, 'node_modules/.cache/pglite-images');
const images = new Map<string, Promise<Blob>>();

async function imageName(kind: 'empty' | 'migrated'): Promise<string> {
  const hash = createHash('sha256');
  hash.update(await readFile(join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  if (kind === 'migrated') {
    hash.update(await readFile(join(DB_DIR, 'migrate.ts')));
    for (const file of (await readdir(join(DB_DIR, 'migrations'))).sort())
      hash.update(file).update(await readFile(join(DB_DIR, 'migrations', file)));
  }
  return `${kind}-${hash.digest('hex').slice(0, 16)}.tar`;
}

/** A database from the image; an image that does not start (cut short, a disk fault) is made again once. */
async function openImage(kind: 'empty' | 'migrated'): Promise<OpenDatabase> {
  try {
    return await openPgliteImage(await pgliteImage(kind));
  } catch {
    images.delete(kind);
    await rm(join(IMAGE_DIR, await imageName(kind)), { force: true });
    return openPgliteImage(await pgliteImage(kind));
  }
}

function pgliteImage(kind: 'empty' | 'migrated'): Promise<Blob> {
  let image = images.get(kind);
  if (!image) {
    image = loadOrMakeImage(kind);
    images.set(kind, image);
    image.catch(() => images.delete(kind));
  }
  return image;
}

async function loadOrMakeImage(kind: 'empty' | 'migrated'): Promise<Blob> {
  const name = await imageName(kind);
  const file = join(IMAGE_DIR, name);
  if (existsSync(file)) return new Blob([await readFile(file)]);
  const database = await openDatabase('pglite://memory');
  try {
    if (kind === 'migrated') await migrate(database.db);
    const image = await database.pglite!.dumpDataDir('none');
    // Written beside its name, then renamed: two workers making the same image never leave half a file.
    await mkdir(IMAGE_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, new Uint8Array(await image.arrayBuffer()));
    await rename(partial, file);
    await pruneImages(kind, name);
    return image;
  } finally {
    await database.close();
  }
}

/**
 * Images of this kind under another name (migrations or PGlite since changed) are never loaded again:
 * removed when a new one is made, with half-written files an interrupted worker left over an hour ago.
 */
async function pruneImages(kind: 'empty' | 'migrated', keep: string): Promise<void> {
  for (const entry of await readdir(IMAGE_DIR)) {
    const path = join(IMAGE_DIR, entry);
    const partial = /\.tar\.\d+\.[0-9a-f]+$/.test(entry);
    const stale = entry.startsWith(`${kind}-`) && entry.endsWith('.tar') && entry !== keep;
    if (
      stale ||
      (partial && Date.now() - (await stat(path).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs > 3_600_000)
    )
      await rm(path, { force: true });
  }
}
