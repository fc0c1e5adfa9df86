import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../server/src/test-support/postgres';
import {
  loginOn,
  schemaUrl,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../../server/src/test-support/processes';

export { loginOn, stopServerProcess, type ServerProcess };

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every child this bench started, so an error or Ctrl-C still stops them. */
const children = new Set<ChildProcess>();
const clusters = new Set<ThrowawayPostgres>();

/** A throwaway PostgreSQL 15 cluster of the bench's own (server/src/test-support/postgres.ts). */
export async function startPostgres(): Promise<ThrowawayPostgres> {
  const cluster = await startThrowawayPostgres({ own: true });
  clusters.add(cluster);
  return cluster;
}

/** A fresh schema on the cluster, as a `DATABASE_URL`. */
export const freshSchema = (clusterUrl: string, prefix: string): Promise<string> => schemaUrl(clusterUrl, prefix);

/**
 * The real server as `npm start` runs it (dist/server/main.mjs, built by `npm run build`; the sources
 * under tsx when the bench runs with --no-build and no build is there) in its own process, production
 * mode, `LOG_LEVEL=warn`, on 127.0.0.1 and a free port.
 */
export async function startServer(
  databaseUrl: string,
  options: { seed?: boolean; env?: Record<string, string> } = {},
): Promise<ServerProcess> {
  const proc = await startServerProcess(databaseUrl, {
    built: existsSync('dist/server/main.mjs'),
    seed: options.seed ?? false,
    env: { NODE_ENV: 'production', LOG_LEVEL: 'warn', DATABASE_POOL_MAX: '10', ...options.env },
  });
  children.add(proc.child);
  proc.child.once('exit', () => children.delete(proc.child));
  return proc;
}

export async function stopServer(proc: ServerProcess): Promise<void> {
  await stopServerProcess(proc);
  children.delete(proc.child);
}

/** A seeded server on PostgreSQL a suite may use; `shared` when the runner hands one to several suites. */
export interface PostgresTarget {
  url: string;
  server: ServerProcess;
}

/**
 * The suite's server on PostgreSQL: the shared one when given (quick mode: one cluster, one seeded
 * server for every suite), else a cluster, schema and seeded server of its own, stopped by `release`.
 */
export async function serverOnPostgres(
  prefix: string,
  shared?: PostgresTarget,
): Promise<PostgresTarget & { release(): Promise<void> }> {
  if (shared) return { ...shared, release: async () => undefined };
  const cluster = await startPostgres();
  try {
    const url = await freshSchema(cluster.url, prefix);
    const server = await startServer(url, { seed: true });
    return {
      url,
      server,
      async release() {
        await stopServer(server);
        await cluster.stop();
      },
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** The bare Fastify baseline (bench/bare-server.ts) in its own process. */
export async function startBare(): Promise<{ base: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return {
    base,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      children.delete(child);
    },
  };
}

/** Resident set size of a process in MB (VmRSS of /proc/<pid>/status). */
export function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** CPU time (user + system) a process has used, in seconds (/proc/<pid>/stat, clock ticks of 1/100 s). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Samples a process's RSS every `everyMs` until stopped; returns the samples. */
export function sampleRss(pid: number, everyMs = 50): { stop(): number[] } {
  const samples: number[] = [];
  const take = () => {
    try {
      samples.push(rssMB(pid));
    } catch {
      // the process ended
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** A short-lived client on a database URL (search_path included). */
export async function withClient<T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Stops every server and cluster this bench started (called on exit and on errors). */
export async function stopEverything(): Promise<void> {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
  for (const cluster of clusters) await cluster.stop().catch(() => undefined);
  clusters.clear();
}

export async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
