// `npm pack` / `npm publish`: the built JavaScript and a copy of the contracts the kit checks, so the
// tarball needs nothing else from this repository (docs/conformance.md).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${here}dist`, { recursive: true, force: true });
rmSync(`${here}contracts`, { recursive: true, force: true });
execFileSync(process.execPath, [`${here}../../node_modules/typescript/bin/tsc`, '-p', `${here}tsconfig.build.json`], {
  stdio: 'inherit',
});
cpSync(`${here}../../contracts`, `${here}contracts`, { recursive: true });
