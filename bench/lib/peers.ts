import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The page-load bench's peer apps (bench/peers/<name>/): installed from their own lockfile when
 * node_modules is missing, built with their own vite into bench/peers/<name>/dist.
 */
export const PEERS_DIR = fileURLToPath(new URL('../peers/', import.meta.url));

export interface PeerPrepared {
  name: string;
  dir: string;
  dist: string;
  /** Seconds, or null when that step was not needed (already installed; built before and `build` false). */
  installSeconds: number | null;
  buildSeconds: number | null;
  /** How it was installed: `npm ci`, or `npm install` when ci refused the lockfile over platform binaries. */
  installedWith: string | null;
}

function npm(dir: string, args: string[]): { ok: boolean; output: string } {
  const result = spawnSync('npm', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/** npm left another platform's optional binaries out of a lockfile made elsewhere: what `npm ci` says then. */
const PLATFORM_REFUSAL = /EBADPLATFORM|from lock file|optional dependenc|Unsupported platform/i;

export function preparePeer(name: string, options: { build: boolean }): PeerPrepared {
  const dir = `${PEERS_DIR}${name}`;
  const dist = `${dir}/dist`;
  let installSeconds: number | null = null;
  let installedWith: string | null = null;
  if (!existsSync(`${dir}/node_modules/.package-lock.json`)) {
    const t0 = performance.now();
    // No install scripts: vite and its bundlers ship their binaries as platform packages.
    const flags = ['--no-audit', '--no-fund', '--ignore-scripts'];
    const ci = npm(dir, ['ci', ...flags]);
    installedWith = 'npm ci';
    if (!ci.ok) {
      if (!PLATFORM_REFUSAL.test(ci.output)) throw new Error(`npm ci in ${dir} failed:\n${ci.output.slice(-2000)}`);
      const install = npm(dir, ['install', '--no-save', ...flags]);
      if (!install.ok) throw new Error(`npm install in ${dir} failed:\n${install.output.slice(-2000)}`);
      installedWith = 'npm install (npm ci refused the lockfile over platform binaries)';
    }
    installSeconds = (performance.now() - t0) / 1000;
  }
  let buildSeconds: number | null = null;
  if (options.build || !existsSync(`${dist}/index.html`)) {
    const t0 = performance.now();
    const built = npm(dir, ['run', 'build']);
    if (!built.ok) throw new Error(`vite build in ${dir} failed:\n${built.output.slice(-2000)}`);
    buildSeconds = (performance.now() - t0) / 1000;
  }
  return { name, dir, dist, installSeconds, buildSeconds, installedWith };
}
