import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

// The import boundaries of docs/architecture.md (Layers) are lint rules; this proves each one actually fires.
const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? 'fatal');
}

describe('import boundaries', () => {
  it.each([
    ['src/ui/screens/x/x.tsx', "import { ApiError } from '../../../api/api-error';\nexport const x = ApiError;\n"],
    ['src/ui/x.tsx', "import type { paths } from '../generated/openapi';\nexport type X = paths;\n"],
    ['src/machines/x.machine.ts', "import { useState } from 'react';\nexport const x = useState;\n"],
    ['src/machines/y.machine.ts', "import { App } from '../ui/app';\nexport const x = App;\n"],
    ['src/domain/x.ts', "import { ApiError } from '../api/api-error';\nexport const x = ApiError;\n"],
    ['src/api/x.ts', "import { createActor } from 'xstate';\nexport const x = createActor;\n"],
  ])('%s may not import across its boundary', async (filePath, code) => {
    expect(await ruleIds(code, filePath)).toContain('no-restricted-imports');
  });

  it.each([
    [
      'src/ui/x.tsx',
      "import { passwordStrength } from '../domain/password-strength';\nexport const x = passwordStrength;\n",
    ],
    ['src/machines/x.machine.ts', "import { ApiError } from '../api/api-error';\nexport const x = ApiError;\n"],
  ])('%s may import downward', async (filePath, code) => {
    expect(await ruleIds(code, filePath)).not.toContain('no-restricted-imports');
  });

  it.each([
    ['src/ui/x.tsx', "import { lazy } from 'react';\nexport const X = lazy(() => import('./y'));\n"],
    [
      'src/ui/x.tsx',
      "import React from 'react';\nexport const X = React.lazy(async () => ({ default: () => null }));\n",
    ],
    ['src/app/x.ts', "export const load = () => import('./y');\n"],
    ['src/machines/x.ts', "export const load = async () => (await import('./y')).default;\n"],
  ])('%s may not load a chunk without the timeout and retry (lazy-with-timeout.tsx)', async (filePath, code) => {
    expect(await ruleIds(code, filePath)).toContain('no-restricted-syntax');
  });

  it.each([
    "import { lazyPart } from './lazy-with-timeout';\nexport const X = lazyPart(() => import('./y'));\n",
    "import { lazyWithTimeout } from './lazy-with-timeout';\nexport const X = lazyWithTimeout(() => Promise.all([import('./y')]).then(([m]) => m));\n",
    "import { importWithTimeout } from './preloadable';\nexport const y = () => importWithTimeout(() => import('./y'));\n",
  ])('loads a chunk through the mechanism: %s', async (code) => {
    expect(await ruleIds(code, 'src/ui/components/x.tsx')).not.toContain('no-restricted-syntax');
  });

  it('forbids explicit any in hand-written code', async () => {
    expect(await ruleIds('export const x = (a: any) => a;\n', 'src/domain/z.ts')).toContain(
      '@typescript-eslint/no-explicit-any',
    );
  });

  it('forbids import cycles', async () => {
    const dir = mkdtempSync(join(process.cwd(), 'tests/unit/cycle-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import { b } from './b';\nexport const a = (): unknown => b;\n");
      writeFileSync(join(dir, 'b.ts'), "import { a } from './a';\nexport const b = (): unknown => a;\n");
      const [result] = await eslint.lintFiles([join(dir, 'a.ts')]);
      expect((result?.messages ?? []).map((m) => m.ruleId)).toContain('import-x/no-cycle');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
