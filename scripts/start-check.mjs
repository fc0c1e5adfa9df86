#!/usr/bin/env node
/**
 * Starts the product as `npm start` does (scripts/start.mjs) under a given Node binary, on a free port
 * and a fresh embedded database, and checks what a newcomer would: the SPA is served, the demo admin
 * signs in, the signed-in user's own profile answers. Ends the server with SIGTERM and prints one
 * line per check and `N passed, N failed`.
 *
 *   node scripts/start-check.mjs [--node /path/to/node] [--command "<start command>"]
 *
 * `.ci/run` uses it under Node 24 and after `npm ci --omit=dev` (docs/operations.md).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const argument = (name) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
};
const node = argument('--node') ?? process.execPath;
const startArgs = (argument('--command') ?? 'scripts/start.mjs').split(' ');
const dataDir = mkdtempSync(join(tmpdir(), 'start-check-'));
const DEMO = { email: 'admin@demo.local', password: 'Back#Office!Demo' };

const child = spawn(node, startArgs, {
  env: {
    ...process.env,
    NODE_ENV: '',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `pglite://${dataDir}`,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: false,
});
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));

const results = [];
function check(label, ok, detail = '') {
  results.push(ok);
  console.log(`${ok ? '✔' : '✘'} ${label}${detail ? `: ${detail}` : ''}`);
}

async function waitForUrl(timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const match = /Back-office panel: (http:\/\/[^/\s]+)\/([^/\s]+)\//.exec(output);
    if (match) return { base: match[1], tenant: match[2] };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return undefined;
}

let exitCode;
try {
  const version = await new Promise((resolve) => {
    const probe = spawn(node, ['--version']);
    let text = '';
    probe.stdout.on('data', (chunk) => (text += chunk));
    probe.on('close', () => resolve(text.trim()));
  });
  console.log(`start check: ${node} (${version}) ${startArgs.join(' ')}`);
  const started = await waitForUrl(180_000);
  check('starts and prints its address', started !== undefined, started ? started.base : output.slice(-2000));
  if (started) {
    const page = await fetch(`${started.base}/${started.tenant}/`);
    const html = await page.text();
    check('serves the SPA', page.status === 200 && /id="root"/.test(html), `HTTP ${page.status}`);
    // NODE_ENV is read when the server starts (unset here): the build must not have fixed it.
    const explorer = await fetch(`${started.base}/${started.tenant}/graphql`, { headers: { accept: 'text/html' } });
    check('serves GraphiQL outside production', explorer.status === 200, `HTTP ${explorer.status}`);
    const login = await fetch(`${started.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...DEMO, ip: null }),
    });
    const body = await login.json().catch(() => ({}));
    check(
      'signs the demo admin in',
      login.status === 200 && typeof body.access_token === 'string',
      `HTTP ${login.status}`,
    );
    if (typeof body.access_token === 'string') {
      const me = await fetch(`${started.base}/api/auth/userInfo`, {
        headers: { authorization: `Bearer ${body.access_token}` },
      });
      check('answers with the signed-in user', me.status === 200, `HTTP ${me.status}`);
    }
  }
} catch (error) {
  check('runs', false, String(error));
} finally {
  child.kill('SIGTERM');
  const stopped = await Promise.race([
    new Promise((resolve) => child.once('exit', () => resolve(true))),
    new Promise((resolve) => setTimeout(() => resolve(false), 15_000)),
  ]);
  check('stops on SIGTERM', stopped === true || child.exitCode !== null);
  if (!stopped) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  const passed = results.filter(Boolean).length;
  const failed = results.length - passed;
  console.log(`${passed} passed, ${failed} failed`);
  exitCode = failed === 0 ? 0 : 1;
}
process.exit(exitCode);
