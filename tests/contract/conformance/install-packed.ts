import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const KIT = join(ROOT, 'packages', 'conformance');

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  [key: string]: unknown;
}

/**
 * Packs packages/conformance (`npm pack`: its prepack builds and copies the contracts) and installs the
 * tarball in an empty directory, as a backend team would (docs/conformance.md). Without the network: the
 * directory gets a lockfile whose run-time dependencies are this repository's locked versions, which
 * `npm ci` put in npm's cache, so `npm ci --offline` installs exactly what `npm install ./that.tgz` would.
 *
 * @returns the directory, with `node_modules/.bin/backoffice-conformance`
 */
export function installPackedKit(): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-kit-'));
  execFileSync('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: KIT, stdio: 'pipe' });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball in ${dir}`);
  const kit = JSON.parse(readFileSync(join(KIT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    bin: Record<string, string>;
    dependencies: Record<string, string>;
  };
  const root = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const packages: Record<string, LockEntry> = {
    '': { name: 'kit-user', dependencies: { [kit.name]: `file:${tarball}` } },
    [`node_modules/${kit.name}`]: {
      version: kit.version,
      resolved: `file:${tarball}`,
      integrity: `sha512-${createHash('sha512')
        .update(readFileSync(join(dir, tarball)))
        .digest('base64')}`,
      dependencies: kit.dependencies,
      bin: kit.bin,
    },
  };
  const pending = Object.keys(kit.dependencies);
  while (pending.length > 0) {
    const name = pending.pop()!;
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    const entry = root.packages[key];
    if (!entry) throw new Error(`${name}, a dependency of the kit, is not in package-lock.json at the top level`);
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...kept } = entry;
    if (entry.version !== undefined && kit.dependencies[name] !== undefined && kit.dependencies[name] !== entry.version)
      throw new Error(`the kit pins ${name} ${kit.dependencies[name]}, this repository locks ${entry.version}`);
    packages[key] = kept;
    pending.push(...Object.keys(entry.dependencies ?? {}));
  }
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'kit-user', private: true, dependencies: { [kit.name]: `file:${tarball}` } }),
  );
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({ name: 'kit-user', lockfileVersion: 3, requires: true, packages }),
  );
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--silent'], { cwd: dir, stdio: 'pipe' });
  return dir;
}
