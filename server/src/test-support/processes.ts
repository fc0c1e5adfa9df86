import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEMO_PASSWORD } from '../tooling/seed';

/**
 * Real server processes (`server/src/main.ts` under tsx: the source `npm start` runs built, dist/server) for tests that need more than
 * one, or a restart: each on its own port, on a PostgreSQL schema the caller names.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const BUILT_MAIN = fileURLToPath(new URL('../../../dist/server/main.mjs', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  port: number;
  output: string[];
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A fresh schema on the cluster; the returned URL pins the connections' search_path to it. */
export async function schemaUrl(clusterUrl: string, prefix: string): Promise<string> {
  const schema = `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(clusterUrl);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return url.toString();
}

/** Starts `main.ts` and resolves once it prints its URL (migrated, seeded if asked, listening). */
export async function startServerProcess(
  databaseUrl: string,
  options: {
    seed?: boolean;
    port?: number;
    env?: Record<string, string>;
    /** The built server (dist/server/main.mjs, as `npm start` runs it) instead of the sources under tsx. */
    built?: boolean;
  } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const args = options.built ? ['--enable-source-maps', BUILT_MAIN] : ['--import', 'tsx', MAIN];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: options.seed ? '1' : '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // Seeded PGlite would tell demo events (server/src/demo-activity/); a test that wants them says so.
      DEMO_ACTIVITY: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc: ServerProcess = { child, base: `http://127.0.0.1:${port}`, port, output: [] };
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      reject(new Error(`server exited with ${code ?? signal}:\n${proc.output.join('')}`));
    child.stdout?.on('data', (chunk: Buffer) => {
      proc.output.push(chunk.toString());
      if (proc.output.join('').includes('Back-office panel:')) {
        child.off('exit', onExit);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => proc.output.push(chunk.toString()));
    child.once('exit', onExit);
  });
  return proc;
}

/** SIGTERM (graceful: drains, closes sockets with 1001) and waits for the exit. */
export async function stopServerProcess(
  proc: ServerProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<number | null> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.child.exitCode;
  const exited = once(proc.child, 'exit');
  proc.child.kill(signal);
  const [code] = (await exited) as [number | null];
  return code;
}

export async function loginOn(
  base: string,
  email = 'admin@demo.local',
  password = DEMO_PASSWORD,
): Promise<{ token: string; userId: number }> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, ip: null }),
  });
  if (response.status !== 200) throw new Error(`login on ${base}: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { access_token: string; user: { id: number } };
  return { token: body.access_token, userId: body.user.id };
}
