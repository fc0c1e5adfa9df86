#!/usr/bin/env node
/**
 * `npm test`: every quality gate and test suite in one run, each counted, ending with the single line
 * `N passed, N failed` that .ci/run prints. Gates count as one check each; vitest counts its tests.
 * Then the browser end-to-end suite (Playwright, tests/e2e), counted from its JSON report.
 *
 * `npm run test:reliability` (`--reliability`): only the long suites (files named `*.reliability.ts` under server/src:
 * scale-out soak, restarts under socket load), with the same closing line; .ci/run adds its counts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstLine, tallyVitestReport } from './vitest-report.mjs';

const reliability = process.argv.includes('--reliability');
const gates = reliability
  ? []
  : [
      // Longest first, so that the side-by-side gates end together.
      ['lint', 'npm', ['run', '--silent', 'lint']],
      ['build', 'npm', ['run', '--silent', 'build']],
      ['typecheck (TypeScript 7, tsc -b)', 'npm', ['run', '--silent', 'typecheck']],
      ['format (Prettier)', 'npm', ['run', '--silent', 'format:check']],
      ['contract lint (Redocly)', 'npm', ['run', '--silent', 'lint:contracts']],
    ];
// Codegen rewrites src/generated, which the type check and the build read: it runs first, alone.
const firstGates = reliability ? [] : [['codegen fresh', 'npm', ['run', '--silent', 'codegen:check']]];

let passed = 0;
let failed = 0;
const failures = [];
/** Each failed test by name, with the first line of its error, printed again at the very end. */
const failedTests = [];

function run(label, cmd, args) {
  const started = Date.now();
  console.log(`\n▶ ${label}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  console.log(`${ok ? '✔' : '✘'} ${label} (${seconds} s)`);
  return ok;
}

/**
 * The gates run side by side, GATE_CONCURRENCY at a time (3 unless set: on 2 cores the type check
 * and the build use both while ESLint and Prettier wait on files). Each gate's output is printed
 * whole when it ends, so two gates never interleave their lines.
 */
function runGate(label, cmd, args) {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(cmd, args, { env: { ...process.env, FORCE_COLOR: '0' } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(output).toString().trimEnd();
      console.log(`\n▶ ${label}${text ? `\n${text}` : ''}`);
      console.log(`${code === 0 ? '✔' : '✘'} ${label} (${seconds} s)`);
      done(code === 0);
    });
  });
}

/** A gate counts as one check. */
function countGate(label, ok) {
  if (ok) passed += 1;
  else {
    failed += 1;
    failures.push(label);
  }
}

for (const [label, cmd, args] of firstGates) countGate(label, run(label, cmd, args));

if (gates.length) {
  const started = Date.now();
  const queue = [...gates];
  const width = Number(process.env.GATE_CONCURRENCY ?? 3);
  const workers = Array.from({ length: Math.min(width, queue.length) }, async () => {
    for (let gate = queue.shift(); gate; gate = queue.shift()) {
      const [label, cmd, args] = gate;
      countGate(label, await runGate(label, cmd, args));
    }
  });
  await Promise.all(workers);
  console.log(`\ngates: ${gates.length} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
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
  : run('unit, component and contract tests (vitest)', 'npx', [
      'vitest',
      'run',
      '--reporter=default',
      // Paths and steps of every model-based walk, per machine and in all (docs/architecture.md).
      '--reporter=./src/machines/test-support/model-coverage-reporter.ts',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ]);
try {
  const tally = tallyVitestReport(report, { exitOk: ok, label: 'vitest' });
  passed += tally.passed;
  failed += tally.failed;
  failedTests.push(...tally.failedTests);
  if (tally.failed > 0 || !ok) failures.push(tally.ranNone ? 'vitest ran no test' : 'vitest');
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// Browser end-to-end suite: Playwright on Chromium against the build made above and the
// reference server it starts itself; tests counted from its JSON report. Not with --reliability.
if (!reliability) {
  const e2eDir = mkdtempSync(join(tmpdir(), 'e2e-'));
  const e2eReport = join(e2eDir, 'report.json');
  const started = Date.now();
  console.log('\n▶ browser end-to-end tests (Playwright, tests/e2e)');
  const e2e = spawnSync('npx', ['playwright', 'test', '--reporter=list,json'], {
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport },
  });
  const e2eOk = e2e.status === 0;
  console.log(`${e2eOk ? '✔' : '✘'} browser end-to-end tests (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  try {
    const { stats, suites } = JSON.parse(readFileSync(e2eReport, 'utf8'));
    const walk = (suite, path) => {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests ?? [])
          if (test.status !== 'expected') {
            const error = test.results?.find((r) => r.error)?.error?.message;
            failedTests.push(
              `e2e ${spec.file} > ${[...path, spec.title].join(' > ')} (${test.status}): ${firstLine(error)}`,
            );
          }
      for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
    };
    for (const suite of suites ?? []) walk(suite, []);
    // A flaky (passed on retry) or skipped test is not a pass.
    const bad = stats.unexpected + stats.flaky + stats.skipped;
    passed += stats.expected;
    failed += bad;
    if (bad > 0 || !e2eOk) failures.push('e2e');
    // A suite that failed to start (global setup, server) reports no failed test.
    if (!e2eOk && bad === 0) failed += 1;
    if (stats.expected + bad === 0) {
      failed += 1;
      failures.push('e2e ran no test');
    }
  } catch {
    failed += 1;
    failures.push('e2e (no report)');
  } finally {
    rmSync(e2eDir, { recursive: true, force: true });
  }
}

if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
for (const line of failedTests) console.log(`FAILED TEST: ${line}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
