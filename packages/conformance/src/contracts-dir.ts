import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the contracts the kit checks are: the copy packed with it (`contracts/` beside `dist/`, written
 * by `npm pack`, see package.json), or, inside this repository, the repository's own `contracts/`.
 * `BACKOFFICE_CONTRACTS` points elsewhere (a team checking its server against a newer contract).
 */
function findContracts(): string {
  const fromEnv = process.env.BACKOFFICE_CONTRACTS;
  if (fromEnv) return fromEnv;
  const here = fileURLToPath(new URL('.', import.meta.url));
  // Built (`dist/`): the packed copy. The TypeScript source (`src/`, in this repository): the repository's
  // own contracts, never a copy an earlier `npm pack` left beside it.
  const candidate =
    basename(here) === 'src' ? join(here, '..', '..', '..', 'contracts') : join(here, '..', 'contracts');
  if (existsSync(join(candidate, 'openapi.yaml'))) return candidate;
  throw new Error(`no contracts found beside ${here} (set BACKOFFICE_CONTRACTS to the contracts folder)`);
}

export const CONTRACTS_DIR: string = findContracts();
