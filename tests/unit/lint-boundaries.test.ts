import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

// The import boundaries of docs/architecture.md (Layers, The server's floors) are lint rules; this proves each
// one actually fires.
const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? 'fatal');
}

/** The messages of the path zones (`import-x/no-restricted-paths`) a file would get. */
async function zoneMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const messages = result?.messages ?? [];
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
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

  // The server's floors (docs/architecture.md, The server's floors): one refused import per zone,
  // each answered by the zone that names its floor rule.
  it.each([
    ['base → access', 'server/src/base/x.ts', "import type { Actor } from '../access/caller';", 'Floor 1'],
    ['base → db', 'server/src/base/x.ts', "import type { Database } from '../db/schema';", 'Floor 1'],
    ['base → resource', 'server/src/base/x.ts', "import { auditWho } from '../audit/trail';", 'Floor 1'],
    ['base → adapter', 'server/src/base/x.ts', "import { buildApp } from '../app';", 'Floor 1'],
    [
      'access → db',
      'server/src/access/x.ts',
      "import type { Database } from '../db/schema';",
      'server/src/access imports only base',
    ],
    [
      'access → resource',
      'server/src/access/x.ts',
      "import { loadActor } from '../auth/actor';",
      'server/src/access imports only base',
    ],
    [
      'db → access',
      'server/src/db/x.ts',
      "import type { Actor } from '../access/caller';",
      'server/src/db imports only base',
    ],
    [
      'db → resource',
      'server/src/db/x.ts',
      "import { auditWho } from '../audit/trail';",
      'server/src/db imports only base',
    ],
    ['resource → adapter', 'server/src/users/x.ts', "import { createOperations } from '../rest/index';", 'Floor 3'],
    ['resource → root file', 'server/src/tenants/x.ts', "import type { Services } from '../services';", 'Floor 3'],
    [
      'resource → a resource after it (auth → users)',
      'server/src/auth/x.ts',
      "import { createUsersService } from '../users/service';",
      'named before it',
    ],
    [
      'resource → a resource after it (audit → reports)',
      'server/src/audit/x.ts',
      "import { dayRange } from '../reports/params';",
      'named before it',
    ],
    [
      'production → test support',
      'server/src/rest/x.ts',
      "import { startTestApp } from '../test-support/app';",
      'test support',
    ],
    ['production → a test', 'server/src/plugins/x.ts', "import * as t from './socket.test';", 'test support'],
  ])('server: %s is refused (%s)', async (_zone, filePath, source, rule) => {
    const messages = await zoneMessages(`${source}\nexport const x = 1;\n`, filePath);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.join('\n')).toContain(rule);
  });

  it.each([
    [
      'base',
      'server/src/base/x.ts',
      "import { DomainError } from './domain-error';\nimport { csvDecimal } from '../../../src/domain/format';",
    ],
    ['access', 'server/src/access/x.ts', "import { forbidden } from '../base/domain-error';"],
    ['db', 'server/src/db/x.ts', "import type { ServerConfig } from '../base/config';"],
    [
      'a resource',
      'server/src/users/x.ts',
      "import type { TokenService } from '../auth/tokens';\nimport { POLICIES } from '../access/policies';\nimport type { Database } from '../db/schema';",
    ],
    [
      'an adapter',
      'server/src/rest/x.ts',
      "import type { UserPatch } from '../users/service';\nimport { buildApp } from '../app';",
    ],
    [
      'a root file',
      'server/src/x.ts',
      "import { createOperations } from './rest/index';\nimport { auditWho } from './audit/trail';",
    ],
    [
      'a test beside production code',
      'server/src/access/x.test.ts',
      "import { startTestApp } from '../test-support/app';\nimport type { Database } from '../db/schema';\nimport { buildApp } from '../app';",
    ],
  ])('server: %s may import downward', async (_floor, filePath, source) => {
    expect(await zoneMessages(`${source}\nexport const x = 1;\n`, filePath)).toEqual([]);
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
