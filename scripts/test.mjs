#!/usr/bin/env node
/**
 * `npm test`: every quality gate and test suite in one run, each counted, ending with the single line
 * `N passed, N failed` that .ci/run prints. Gates count as one check each; vitest counts its tests.
 * Later suites (conformance, e2e) are added to STEPS.
 *
 * `npm run test:reliability` (`--reliability`): only the long suites (files named `*.reliability.ts` under server/src:
 * scale-out soak, restarts under socket load), with the same closing line; .ci/run adds its counts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const reliability = process.argv.includes('--reliability');
const gates = reliability ? [] : [
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['contract lint (Redocly)', 'npm', ['run', '--silent', 'lint:contracts']],
  ['codegen fresh', 'npm', ['run', '--silent', 'codegen:check']],
  ['build', 'npm', ['run', '--silent', 'build']],
];

let passed = 0;
let failed = 0;
const failures = [];

function run(label, cmd, args) {
  const started = Date.now();
  console.log(`\n▶ ${label}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  console.log(`${ok ? '✔' : '✘'} ${label} (${seconds} s)`);
  return ok;
}

for (const [label, cmd, args] of gates) {
  if (run(label, cmd, args)) passed += 1;
  else {
    failed += 1;
    failures.push(label);
  }
}

// vitest: count individual tests from its JSON report.
const dir = mkdtempSync(join(tmpdir(), 'vitest-'));
const report = join(dir, 'report.json');
const ok = reliability
  ? run('reliability suites (vitest, server/src/reliability/vitest.config.ts)', 'npx', [
      'vitest',
      'run',
      '--config',
      'server/src/reliability/vitest.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ])
  : run('unit, component and contract tests (vitest)', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  if (json.numFailedTests > 0 || !ok) failures.push('vitest');
  if (!ok && json.numFailedTests === 0) failed += 1; // a suite that failed to load has no failed test
  if (json.numTotalTests === 0) {
    // A run that executed nothing proves nothing.
    failed += 1;
    failures.push('vitest ran no test');
  }
} catch {
  failed += 1;
  failures.push('vitest (no report)');
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
