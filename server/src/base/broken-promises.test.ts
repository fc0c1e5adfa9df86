import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BROKEN_PROMISES, anyBroken, breakPromises, isBroken } from './broken-promises';

/** The switch of the broken variants (./broken-promises.ts): off by default, and only tests turn it on. */

const ROOT = join(__dirname, '..', '..', '..');
const isTest = (path: string): boolean => /\.test\.tsx?$/.test(path) || path.includes('/test-support/');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('broken promises', () => {
  afterEach(() => breakPromises([]));

  it('are all off until a test turns one on, and off again with []', () => {
    expect(anyBroken()).toBe(false);
    expect(BROKEN_PROMISES.filter((name) => isBroken(name))).toEqual([]);
    breakPromises(['csv-no-bom']);
    expect(anyBroken()).toBe(true);
    expect(BROKEN_PROMISES.filter((name) => isBroken(name))).toEqual(['csv-no-bom']);
    breakPromises([]);
    expect(anyBroken()).toBe(false);
  });

  it('are turned on by no production file of the server, the SPA or the kit', () => {
    const callers = ['server/src', 'src', 'packages/conformance/src']
      .flatMap((dir) => sources(join(ROOT, dir)))
      .filter((path) => !isTest(path) && !path.endsWith('broken-promises.ts'))
      .filter((path) => readFileSync(path, 'utf8').includes('breakPromises'))
      .map((path) => relative(ROOT, path));
    expect(callers).toEqual([]);
  });

  it('each have a hook in the server', () => {
    const server = sources(join(ROOT, 'server/src'))
      .filter((path) => !isTest(path) && !path.endsWith('broken-promises.ts'))
      .map((path) => readFileSync(path, 'utf8'))
      .join('\n');
    expect(BROKEN_PROMISES.filter((name) => !server.includes(`'${name}'`))).toEqual([]);
  });
});
