import type { AddressInfo } from 'node:net';
import { BROKEN_PROMISES, breakPromises } from '../../../server/src/base/broken-promises';
import { startTestApp, type TestApp } from '../../../server/src/test-support/app';
import { GROUPS, formatResults, runConformance, type Result } from '../../../packages/conformance/src/kit.js';
import { AWAITING_CHECKS, BROKEN_VARIANTS, type BrokenVariant } from './broken-variants';

/**
 * The conformance kit must fail a wrong server: ONE in-process reference server (PGlite), each broken
 * variant of server/src/base/broken-promises.ts turned on in turn, the kit run with `only` the groups that
 * check its promise. The run must fail, on the variant's own check (./broken-variants.ts), and no failure
 * may be a crash of the kit (a request that failed, a group that stopped): a kit that fails by accident
 * proves nothing. The unbroken server then passes every group. docs/conformance.md.
 */

/** The kit's failures that are a crash rather than a check that found a broken promise. */
const CRASH = /request failed|the group stopped/;
const groupNames = new Set(GROUPS.map((g) => g.name));
const caught = BROKEN_VARIANTS.filter((v) => !AWAITING_CHECKS.includes(v.name));
const awaiting = BROKEN_VARIANTS.filter((v) => AWAITING_CHECKS.includes(v.name));

let testApp: TestApp | undefined;
let baseUrl = '';
/** What each run took, reported at the end. */
const timings: { variant: string; groups: string; ms: number; caughtBy: string }[] = [];

async function runWith(variants: BrokenVariant['name'][], only: string[]): Promise<Result[]> {
  breakPromises(variants);
  try {
    return await runConformance({ baseUrl, email: 'admin@demo.local', password: 'Back#Office!Demo', only });
  } finally {
    breakPromises([]);
  }
}

const describeFailures = (results: Result[]): string =>
  formatResults(results.filter((r) => !r.ok)) || '(no failed check)';

beforeAll(async () => {
  testApp = await startTestApp({ databaseUrl: 'pglite://memory', seed: { days: 3 } });
  await testApp.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(testApp.app.fastify.server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  breakPromises([]);
  await testApp?.close();
  if (timings.length > 0)
    console.info(
      `broken variants (${caught.length} caught, ${awaiting.length} awaiting checks):\n${timings
        .map((t) => `  ${t.variant.padEnd(40)} ${t.groups.padEnd(22)} ${String(t.ms).padStart(5)} ms  ${t.caughtBy}`)
        .join('\n')}`,
    );
});

describe('the broken variants table', () => {
  it('has one row per variant of the switch, each with the groups the kit has or is awaiting', () => {
    expect(BROKEN_VARIANTS.map((v) => v.name).sort()).toEqual([...BROKEN_PROMISES].sort());
    expect(caught.length).toBeGreaterThanOrEqual(25);
    for (const variant of caught)
      expect(
        variant.groups.filter((g) => !groupNames.has(g)),
        variant.name,
      ).toEqual([]);
  });
});

describe('the conformance kit against broken variants of the reference server', () => {
  for (const variant of caught) {
    it(`fails ${variant.name}: ${variant.promise}`, async () => {
      const started = performance.now();
      const results = await runWith([variant.name], variant.groups);
      const failed = results.filter((r) => !r.ok);
      const named = failed.filter(
        (r) => variant.check.test(r.operation) && r.problems.some((p) => variant.problem.test(p)),
      );
      timings.push({
        variant: variant.name,
        groups: variant.groups.join(','),
        ms: Math.round(performance.now() - started),
        caughtBy: named.map((r) => r.operation).join(', ') || '(missed)',
      });
      expect(failed.length, `${variant.name} passed the kit`).toBeGreaterThan(0);
      expect(
        named.length,
        `${variant.name}: no failed check ${variant.check} with ${variant.problem}\n${describeFailures(results)}`,
      ).toBeGreaterThan(0);
      const crashes = failed.filter((r) => r.problems.some((p) => CRASH.test(p)));
      expect(crashes.map((r) => `${r.operation}: ${r.problems.join(' | ')}`)).toEqual([]);
    });
  }

  it(`does not catch yet the ${awaiting.length} variants AWAITING_CHECKS (groups negative, tokens, socket): empty the list as their checks land`, async () => {
    // A variant whose group exists now is run with it alone, and must still pass: once it is caught, it
    // leaves AWAITING_CHECKS (and its row names the real check). The rest wait for groups not yet in the
    // kit: every current group runs with all of them on, and passes.
    const started = performance.now();
    const withGroup = awaiting.filter((v) => v.groups.every((g) => groupNames.has(g)));
    for (const variant of withGroup) {
      const results = await runWith([variant.name], variant.groups);
      expect(results.filter((r) => !r.ok).map((r) => `${variant.name} → ${r.operation}`)).toEqual([]);
    }
    const withoutGroup = awaiting.filter((v) => !withGroup.includes(v));
    if (withoutGroup.length > 0) {
      const results = await runWith(
        withoutGroup.map((v) => v.name),
        [...groupNames],
      );
      expect(results.filter((r) => !r.ok).map((r) => `${r.operation}: ${r.problems.join(' | ')}`)).toEqual([]);
    }
    timings.push({
      variant: `${awaiting.length} awaiting`,
      groups: 'all current',
      ms: Math.round(performance.now() - started),
      caughtBy: `not caught yet: ${awaiting.map((v) => `${v.name} (${v.groups.join(',')})`).join(', ')}`,
    });
  });

  it('passes the unbroken server on every group', async () => {
    const started = performance.now();
    const results = await runWith([], []);
    timings.push({ variant: '(none)', groups: 'all', ms: Math.round(performance.now() - started), caughtBy: 'passes' });
    expect(results.filter((r) => !r.ok).map((r) => `${r.operation}: ${r.problems.join(' | ')}`)).toEqual([]);
  });
});
