#!/usr/bin/env node
/**
 * Compares two folders of screenshots pixel by pixel (e.g. the committed baselines of
 * tests/e2e/__screenshots__/ on two commits, one before a change and one after) and prints one line per screen and
 * a total. Exits 0 when every screen is pixel-identical and both folders hold the same screens, 1 on
 * any difference, 2 on a usage error.
 *
 *   node scripts/compare-screens.mjs <before-dir> <after-dir> [--diff <dir>] [--threshold <0..1>]
 *
 * "pixels" is the strict count: every pixel whose RGBA differs at all, with the box that holds them.
 * "visible" is pixelmatch's count at `--threshold` (default 0.1, pixelmatch's own) with anti-aliased
 * pixels left out: an edge that moved by a fraction of a pixel shows in "pixels" but not in "visible".
 * With `--diff`, a `<screen>.png` per differing screen: the after image faded, differing pixels red.
 * How the spec keeps two runs of one build identical: docs/architecture.md, "Screenshots".
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

const USAGE = 'usage: node scripts/compare-screens.mjs <before-dir> <after-dir> [--diff <dir>] [--threshold <0..1>]';

function parseArgs(argv) {
  const dirs = [];
  let diffDir;
  let threshold = 0.1;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--diff') diffDir = argv[++i];
    else if (arg === '--threshold') threshold = Number(argv[++i]);
    else if (arg === '--help' || arg === '-h') return { help: true };
    else dirs.push(arg);
  }
  if (dirs.length !== 2 || (diffDir !== undefined && !diffDir) || !(threshold >= 0 && threshold <= 1)) return null;
  return { before: dirs[0], after: dirs[1], diffDir, threshold };
}

const pngs = (dir) => new Set(readdirSync(dir).filter((name) => name.endsWith('.png')));

/** Every pixel whose RGBA differs, and the smallest box holding them all. */
function strictDiff(a, b) {
  const { width, height } = a;
  let count = 0;
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  const pa = new Uint32Array(a.data.buffer, a.data.byteOffset, width * height);
  const pb = new Uint32Array(b.data.buffer, b.data.byteOffset, width * height);
  for (let i = 0; i < pa.length; i++) {
    if (pa[i] === pb[i]) continue;
    count++;
    const x = i % width;
    const y = (i - x) / width;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { count, box: count ? { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 } : null };
}

/** One screen: identical, differing (with counts), resized, or present on one side only. */
export function compareScreen(beforeFile, afterFile, { threshold = 0.1, diffFile } = {}) {
  if (!beforeFile) return { status: 'only-after' };
  if (!afterFile) return { status: 'only-before' };
  const a = readFileSync(beforeFile);
  const b = readFileSync(afterFile);
  if (a.equals(b)) return { status: 'identical', pixels: 0 };
  const before = PNG.sync.read(a);
  const after = PNG.sync.read(b);
  const total = before.width * before.height;
  if (before.width !== after.width || before.height !== after.height)
    return {
      status: 'resized',
      total,
      size: `${before.width}×${before.height} → ${after.width}×${after.height}`,
    };
  const { count, box } = strictDiff(before, after);
  // Two encodings of the same pixels (PNG bytes may differ where the pixels do not).
  if (count === 0) return { status: 'identical', pixels: 0, total };
  const output = diffFile ? new PNG({ width: before.width, height: before.height }) : undefined;
  const visible = pixelmatch(before.data, after.data, output?.data, before.width, before.height, {
    threshold,
    alpha: 0.2,
  });
  if (output && diffFile) writeFileSync(diffFile, PNG.sync.write(output));
  return { status: 'differs', pixels: count, visible, total, box };
}

export function compareFolders(beforeDir, afterDir, { threshold = 0.1, diffDir } = {}) {
  const before = pngs(beforeDir);
  const after = pngs(afterDir);
  const names = [...new Set([...before, ...after])].sort();
  if (diffDir) mkdirSync(diffDir, { recursive: true });
  return names.map((name) => ({
    name: basename(name, '.png'),
    ...compareScreen(
      before.has(name) ? join(beforeDir, name) : undefined,
      after.has(name) ? join(afterDir, name) : undefined,
      {
        threshold,
        diffFile: diffDir ? join(diffDir, name) : undefined,
      },
    ),
  }));
}

function describe(result) {
  switch (result.status) {
    case 'identical':
      return 'identical';
    case 'differs': {
      const share = ((100 * result.pixels) / result.total).toFixed(3);
      const { x, y, width, height } = result.box;
      return `differs  ${result.pixels} px (${share} %), visible ${result.visible} px, in ${width}×${height} at ${x},${y}`;
    }
    case 'resized':
      return `differs  size ${result.size}`;
    case 'only-before':
      return 'missing  in the after folder';
    case 'only-after':
      return 'missing  in the before folder';
    default:
      throw new Error(`unknown status ${String(result.status)}`);
  }
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args?.help) {
    console.log(USAGE);
    return 0;
  }
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  for (const dir of [args.before, args.after])
    if (!existsSync(dir)) {
      console.error(`${dir}: no such folder\n${USAGE}`);
      return 2;
    }
  const results = compareFolders(args.before, args.after, args);
  if (results.length === 0) {
    console.error(`no .png in ${args.before} or ${args.after}`);
    return 2;
  }
  const width = Math.max(...results.map((r) => r.name.length));
  for (const result of results) console.log(`${result.name.padEnd(width)}  ${describe(result)}`);
  const identical = results.filter((r) => r.status === 'identical').length;
  const differing = results.filter((r) => r.status === 'differs' || r.status === 'resized');
  const missing = results.filter((r) => r.status === 'only-before' || r.status === 'only-after').length;
  const pixels = differing.reduce((sum, r) => sum + (r.pixels ?? r.total), 0);
  console.log(
    `\n${results.length} screens: ${identical} identical, ${differing.length} differing (${pixels} px in all), ${missing} missing on one side`,
  );
  if (args.diffDir && differing.length) console.log(`diff images: ${args.diffDir}`);
  return identical === results.length ? 0 : 1;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) process.exitCode = main();
