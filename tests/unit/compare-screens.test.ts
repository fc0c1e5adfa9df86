import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { compareFolders } from '../../scripts/compare-screens.mjs';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/compare-screens.mjs');

/** A width×height PNG, grey, with the pixels of `paint` ([x, y, [r, g, b]]) set. */
function png(width: number, height: number, paint: [number, number, [number, number, number]][] = [], level = 6) {
  const image = new PNG({ width, height });
  image.data.fill(200);
  for (const [x, y, [r, g, b]] of paint) image.data.set([r, g, b, 255], (y * width + x) * 4);
  for (let i = 3; i < image.data.length; i += 4) image.data[i] = 255;
  return PNG.sync.write(image, { deflateLevel: level });
}

let root: string;
let before: string;
let after: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'compare-screens-'));
  before = join(root, 'before');
  after = join(root, 'after');
  mkdirSync(before);
  mkdirSync(after);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });

describe('compare-screens', () => {
  it('the same pixels are identical, also when the PNG bytes differ; the run exits 0', () => {
    writeFileSync(join(before, 'home-light.png'), png(8, 6));
    writeFileSync(join(after, 'home-light.png'), png(8, 6));
    writeFileSync(join(before, 'users-dark.png'), png(8, 6, [[1, 1, [0, 0, 0]]], 9));
    writeFileSync(join(after, 'users-dark.png'), png(8, 6, [[1, 1, [0, 0, 0]]], 0));
    expect(readFileSync(join(before, 'users-dark.png')).equals(readFileSync(join(after, 'users-dark.png')))).toBe(
      false,
    );

    expect(compareFolders(before, after).map((r) => [r.name, r.status, r.pixels])).toEqual([
      ['home-light', 'identical', 0],
      ['users-dark', 'identical', 0],
    ]);
    const cli = run(before, after);
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain('2 screens: 2 identical, 0 differing (0 px in all), 0 missing on one side');
  });

  it('counts every differing pixel and the box around them, writes a diff image, and the run exits 1', () => {
    writeFileSync(join(before, 'audit-light.png'), png(10, 8));
    writeFileSync(
      join(after, 'audit-light.png'),
      png(10, 8, [
        [2, 3, [255, 0, 0]],
        [6, 5, [0, 0, 255]],
      ]),
    );
    const diff = join(root, 'diff');

    const [result] = compareFolders(before, after, { diffDir: diff });
    expect(result).toMatchObject({
      name: 'audit-light',
      status: 'differs',
      pixels: 2,
      visible: 2,
      total: 80,
      box: { x: 2, y: 3, width: 5, height: 3 },
    });
    const image = PNG.sync.read(readFileSync(join(diff, 'audit-light.png')));
    const at = (x: number, y: number) => [...image.data.subarray((y * 10 + x) * 4, (y * 10 + x) * 4 + 3)];
    // pixelmatch marks a differing pixel red and fades the rest.
    expect(at(2, 3)).toEqual([255, 0, 0]);
    expect(at(0, 0)).not.toEqual([255, 0, 0]);

    const cli = run(before, after);
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(/audit-light {2}differs {2}2 px \(2\.500 %\), visible 2 px, in 5×3 at 2,3/);
    expect(cli.stdout).toContain('1 screens: 0 identical, 1 differing (2 px in all), 0 missing on one side');
  });

  it('a change below the threshold is a differing pixel but not a visible one', () => {
    writeFileSync(join(before, 'home.png'), png(4, 4));
    writeFileSync(join(after, 'home.png'), png(4, 4, [[0, 0, [201, 200, 200]]]));
    expect(compareFolders(before, after)[0]).toMatchObject({ status: 'differs', pixels: 1, visible: 0 });
    expect(compareFolders(before, after, { threshold: 0 })[0]).toMatchObject({ pixels: 1, visible: 1 });
  });

  it('another size, or a screen on one side only, is a difference', () => {
    writeFileSync(join(before, 'tenants.png'), png(4, 4));
    writeFileSync(join(after, 'tenants.png'), png(4, 5));
    writeFileSync(join(before, 'gone.png'), png(2, 2));
    writeFileSync(join(after, 'new.png'), png(2, 2));

    expect(compareFolders(before, after).map((r) => [r.name, r.status])).toEqual([
      ['gone', 'only-before'],
      ['new', 'only-after'],
      ['tenants', 'resized'],
    ]);
    const cli = run(before, after);
    expect(cli.status).toBe(1);
    expect(cli.stdout).toContain('tenants  differs  size 4×4 → 4×5');
    expect(cli.stdout).toContain('3 screens: 0 identical, 1 differing (16 px in all), 2 missing on one side');
  });

  it('a wrong call exits 2 with the usage', () => {
    const one = run(before);
    expect(one.status).toBe(2);
    expect(one.stderr).toContain('usage: node scripts/compare-screens.mjs');
    expect(run(before, join(root, 'nowhere')).status).toBe(2);
    expect(run(before, after).status).toBe(2); // no screenshots at all
  });
});
