import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface ThrowawayPostgres {
  /** `postgres://…` of a database the caller may freely use. */
  url: string;
  /** Stops the cluster and removes its files (a no-op for `TEST_DATABASE_URL`). */
  stop(): Promise<void>;
  /**
   * Stops the server (`pg_ctl stop -m fast`: connections are dropped) and keeps its files, for outage
   * tests; `resume()` starts it again on the same port and data. Only on a cluster of its own.
   */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

/** The directory holding `initdb`/`pg_ctl`: `PATH` first, then Debian's `/usr/lib/postgresql/<v>/bin`. */
async function findBinDir(): Promise<string> {
  try {
    const { stdout } = await run('sh', ['-c', 'command -v pg_ctl']);
    const found = stdout.trim();
    if (found) return found.replace(/\/pg_ctl$/, '');
  } catch {
    // not on PATH
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(
      'PostgreSQL binaries not found (pg_ctl); install them (apt-get install -y postgresql) or set TEST_DATABASE_URL',
    );
  }
  return join(root, versions[0] ?? '', 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function userIds(name: string): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

const refuse = async () => {
  throw new Error('pause/resume need a cluster of its own: startThrowawayPostgres({ own: true })');
};

/**
 * The variable naming a cluster the test run started once (`postgres://…/postgres`, a superuser), in
 * which each caller gets a database of its own: the `postgres` lane's global setup
 * (server/src/test-support/postgres-lane.setup.ts) starts it and sets this in every worker.
 */
export const SHARED_CLUSTER_VARIABLE = 'TEST_POSTGRES_CLUSTER';

let databasesMade = 0;

/**
 * A new, empty database in the shared cluster (`CREATE DATABASE` copies `template0` in a few tens of
 * milliseconds, where `initdb` and a start take seconds); `stop()` drops it, closing what is still
 * connected to it. Nothing is shared between two callers but the server: no tables, no extensions, no
 * LISTEN channels (they are per database).
 */
async function databaseIn(cluster: string): Promise<ThrowawayPostgres> {
  databasesMade += 1;
  const name = `test_${process.pid}_${databasesMade}_${Date.now().toString(36)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: cluster });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  const url = new URL(cluster);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    pause: refuse,
    resume: refuse,
    async stop() {
      if (dropped) return;
      dropped = true;
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * A PostgreSQL for tests: `TEST_DATABASE_URL` when set; otherwise a database of its own in the run's
 * shared cluster (`TEST_POSTGRES_CLUSTER`, above) when there is one; otherwise, and always with
 * `{ own: true }` (outage tests stop and start their server), a fresh cluster in a temp dir on
 * 127.0.0.1 and a free port (trust auth, user `postgres`). `initdb` refuses to run as root, so as
 * root the cluster belongs to the system user `postgres` and its tools run through `runuser`.
 */
export async function startThrowawayPostgres(options: { own?: boolean } = {}): Promise<ThrowawayPostgres> {
  const external = process.env.TEST_DATABASE_URL;
  if (external && !options.own) return { url: external, stop: async () => undefined, pause: refuse, resume: refuse };
  const shared = process.env[SHARED_CLUSTER_VARIABLE];
  if (shared && !options.own) return databaseIn(shared);

  const bin = await findBinDir();
  const asRoot = process.getuid?.() === 0;
  const exec = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args);

  const dir = await mkdtemp(join(tmpdir(), 'panel-pg-'));
  if (asRoot) {
    const { uid, gid } = await userIds('postgres');
    await chown(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = () =>
    exec('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  try {
    await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async pause() {
      await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async resume() {
      await start();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(async (error: unknown) => {
          // Already stopped (a test paused it and failed before resuming) is fine.
          const { stdout } = await exec('pg_ctl', ['-D', data, 'status']).catch((status: { stdout?: string }) => ({
            stdout: status.stdout ?? '',
          }));
          if (!stdout.includes('no server running')) throw error;
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
