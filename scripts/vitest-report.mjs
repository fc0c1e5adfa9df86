import { readFileSync } from 'node:fs';

/** Terminal colour codes (ESC [ … m) in reporter messages. */
const COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The first line of a reporter message, without colours, at most 300 characters. */
export const firstLine = (text) =>
  String(text ?? '')
    .replace(COLOURS, '')
    .trim()
    .split('\n')[0]
    .slice(0, 300);

/**
 * Counts a vitest JSON report (scripts/test.mjs, scripts/node-lines.mjs): its passed and failed tests, each
 * failed test by name with the first line of its error (`<label> <file> > <test>: <error>`), one more
 * failure when vitest exited badly without a failed test (a file that did not load) or ran no test at
 * all, and one when there is no report to read.
 */
export function tallyVitestReport(reportPath, { exitOk, label }) {
  let json;
  try {
    json = JSON.parse(readFileSync(reportPath, 'utf8'));
  } catch {
    return { passed: 0, failed: 1, failedTests: [`${label}: vitest wrote no report`], ranNone: false };
  }
  const failedTests = [];
  for (const file of json.testResults ?? []) {
    const name = file.name.replace(`${process.cwd()}/`, '');
    for (const test of file.assertionResults ?? [])
      if (test.status === 'failed')
        failedTests.push(`${label} ${name} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'))
      failedTests.push(`${label} ${name}: ${firstLine(file.message) || 'the file failed to run'}`);
  }
  let failed = json.numFailedTests;
  if (!exitOk && json.numFailedTests === 0) failed += 1; // a suite that failed to load has no failed test
  const ranNone = json.numTotalTests === 0;
  if (ranNone) failed += 1; // a run that executed nothing proves nothing
  return { passed: json.numPassedTests, failed, failedTests, ranNone };
}
