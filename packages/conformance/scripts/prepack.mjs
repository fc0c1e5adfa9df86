// `npm pack` / `npm publish`: the built JavaScript and a copy of the contracts the kit checks, so the
// tarball needs nothing else from this repository (docs/conformance.md).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${here}dist`, { recursive: true, force: true });
rmSync(`${here}contracts`, { recursive: true, force: true });
execFileSync(process.execPath, [`${here}../../node_modules/typescript/bin/tsc`, '-p', `${here}tsconfig.build.json`], {
  stdio: 'inherit',
});
// The SPA's machines the `machines` group replays (src/machines-entry.mts re-exports them from the
// repository's src/machines/live/): one ES module with everything but xstate, a dependency of the kit,
// so the package needs nothing from the repository. esbuild is the repository's own (package-lock.json).
const esbuild = await import(pathToFileURL(`${here}../../node_modules/esbuild/lib/main.js`).href);
await esbuild.build({
  entryPoints: [`${here}src/machines-entry.mts`],
  outfile: `${here}dist/machines-entry.mjs`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: ['xstate'],
  logLevel: 'warning',
});
cpSync(`${here}../../contracts`, `${here}contracts`, { recursive: true });
