import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testLanes } from '../../vitest.lanes';

/** A throwaway tree with the given files (paths relative to it). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'lanes-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('testLanes', () => {
  it('a test file that reaches a database through an import cycle is in the server lane, whichever file was walked first', () => {
    // x imports y then z (the driver); y imports x back. Walking a.test (x first) cuts the cycle at y;
    // b.test imports only y, which reaches the driver through x.
    const root = tree({
      'src/x.ts': "import { y } from './y';\nimport { z } from './z';\nexport const x = [y, z];\n",
      'src/y.ts': "import { x } from './x';\nexport const y = () => x;\n",
      // Split so that this file's own text does not name the driver (the lanes read text, not syntax).
      'src/z.ts': "import pg from 'p" + "g';\nexport const z = pg;\n",
      'src/a.test.ts': "import { x } from './x';\ntest('a', () => expect(x).toBeDefined());\n",
      'src/b.test.ts': "import { y } from './y';\ntest('b', () => expect(y).toBeDefined());\n",
    });
    try {
      const lanes = testLanes(root);
      expect(lanes.server).toEqual(['src/a.test.ts', 'src/b.test.ts']);
      expect(lanes.logic).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a file that says it needs its own modules, or mocks one, runs in `fresh`, unless it reaches a database, which decides', () => {
    // Split so that this file's own text does not carry the markers it tests.
    const fresh = '// @test-' + 'fresh: asserts a module is not loaded yet\n';
    const root = tree({
      'src/db.ts': "import pg from 'p" + "g';\nexport const db = pg;\n",
      'src/plain.ts': 'export const plain = 1;\n',
      'src/a.test.ts': fresh + "import { plain } from './plain';\ntest('a', () => expect(plain).toBe(1));\n",
      'src/b.test.tsx': '// @vitest-' + 'environment jsdom\n' + fresh + "test('b', () => undefined);\n",
      'src/c.test.ts': fresh + "import { db } from './db';\ntest('c', () => expect(db).toBeDefined());\n",
      'src/d.test.tsx': '// @vitest-' + "environment jsdom\ntest('d', () => undefined);\n",
      'src/e.test.tsx':
        '// @vitest-' +
        'environment jsdom\nvi.' +
        "mock('./plain', () => ({ plain: 2 }));\ntest('e', () => undefined);\n",
    });
    try {
      const lanes = testLanes(root);
      expect(lanes.fresh).toEqual(['src/a.test.ts', 'src/b.test.tsx', 'src/e.test.tsx']);
      expect(lanes.server).toEqual(['src/c.test.ts']);
      expect(lanes.views).toEqual(['src/d.test.tsx']);
      expect(lanes.logic).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
