import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer } from './support/server';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Once per run: build the SPA when there is no build (`npm test` builds before this step), copy the
 * build to a private folder (so a rebuild in the working tree cannot swap assets under a running
 * suite), and start the shared reference server on a free port with a fresh in-memory database.
 * FAULT_INJECTION=1 lets the bulk-feature journey make one feature fail; rules match one tenant
 * and option, so they cannot touch other specs. Specs that need other settings (a 3 s token, a
 * restart) start their own server (support/fixtures.ts).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // E2E_DIST: test another build than the working tree's dist/web (e.g. one made from a clean checkout).
  const dist = process.env.E2E_DIST ?? join(ROOT, 'dist/web');
  const built = join(dist, 'index.html');
  if (!existsSync(built) && !process.env.E2E_DIST) {
    console.log('[e2e] dist/web/index.html missing: npm run build');
    const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0 || !existsSync(built)) throw new Error('npm run build failed');
  }
  const snapshot = mkdtempSync(join(tmpdir(), 'e2e-web-'));
  cpSync(dist, snapshot, { recursive: true });
  process.env.E2E_WEB_ROOT = snapshot;

  const started = Date.now();
  // Webhooks (tests/e2e/webhooks.spec.ts): receivers on 127.0.0.1, over http, and retries in a moment
  // rather than 30 s (docs/webhooks.md; development and tests only, refused in production).
  const server = await startServer({ FAULT_INJECTION: '1', WEBHOOK_ALLOW_LOOPBACK: '1', WEBHOOK_RETRY_BASE_MS: '500' });
  console.log(`[e2e] reference server ${server.origin} (started in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  process.env.E2E_ORIGIN = server.origin;
  process.env.E2E_LOGINS = JSON.stringify(server.logins);
  process.env.E2E_PASSWORD = server.password;

  return async () => {
    await server.stop();
    rmSync(snapshot, { recursive: true, force: true });
  };
}
