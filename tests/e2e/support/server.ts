import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

/**
 * The reference server, started by the suite: `server/src/main.ts` under tsx on a free port
 * (PORT=0, the banner names the bound one), 127.0.0.1 only, a fresh in-memory database unless the
 * caller names one, the SPA from a snapshot of the build (see global-setup.ts).
 */
export interface RunningServer {
  /** e.g. `http://127.0.0.1:41234` (no tenant, no trailing slash). */
  origin: string;
  /** Demo logins and their password, as the server's banner prints them (seeded data). */
  logins: { email: string; role: string }[];
  password: string;
  /** Everything the server printed so far (for failure messages). */
  output: () => string;
  /** SIGTERM (graceful drain), then SIGKILL if it has not exited within 10 s. */
  stop: () => Promise<void>;
  process: ChildProcess;
}

const ROOT = resolve(import.meta.dirname, '../../..');

export async function startServer(
  env: Record<string, string> = {},
  { port = 0, startTimeoutMs = 120_000 }: { port?: number; startTimeoutMs?: number } = {},
): Promise<RunningServer> {
  const webRoot = process.env.E2E_WEB_ROOT ?? resolve(ROOT, 'dist/web');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: 'pglite://memory',
      HOST: '127.0.0.1',
      PORT: String(port),
      IP_LOOKUP_URL: '',
      LOG_LEVEL: 'warn',
      WEB_ROOT: webRoot,
      // The demo activity (server/src/demo-activity/) would add events to every journey; its own spec turns it on.
      DEMO_ACTIVITY: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');

  const origin = await new Promise<string>((resolvePort, reject) => {
    const timer = setTimeout(() => {
      // Not left running (and holding its memory) after the test that waited for it has failed.
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${startTimeoutMs / 1000} s:\n${output}`));
    }, startTimeoutMs);
    const check = () => {
      const match = /Back-office panel: (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      // The demo logins (printed after a database query) close the banner: every server of the
      // suite seeds the demo data, so wait for both back-office logins. Log lines (JSON, at
      // LOG_LEVEL=info) may come between the banner's lines.
      const banner = output
        .split('\n')
        .filter((line) => !line.startsWith('{'))
        .join('\n');
      if (match?.[1] && /Demo logins[^\n]*\n(?: {2}\S+@\S+ +\S+[^\n]*\n){2}/.test(banner)) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolvePort(match[1]);
      }
    };
    child.stdout.on('data', check);
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${String(code)}) before listening:\n${output}`));
    });
  });
  const password = /Demo logins \(password (.+)\):/.exec(output)?.[1] ?? '';
  const logins = [...output.matchAll(/^ {2}(\S+@\S+)\s+(\S+)/gm)].map((m) => ({ email: m[1] ?? '', role: m[2] ?? '' }));

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };
  return { origin, logins, password, output: () => output, stop, process: child };
}
