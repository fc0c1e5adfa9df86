import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { breakPromises } from '../../../server/src/base/broken-promises';
import { startTestApp, type TestApp } from '../../../server/src/test-support/app';
import { installPackedKit } from './install-packed';

const run = promisify(execFile);

/**
 * The kit as a backend team gets it: packed, installed in an empty directory, run as a command against a
 * server at a URL (here the reference server on a fresh PGlite), with nothing else from this repository.
 */
describe('the packed conformance kit', () => {
  let dir = '';
  let testApp: TestApp | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    dir = installPackedKit();
    testApp = await startTestApp();
    await testApp.app.fastify.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(testApp.app.fastify.server.address() as AddressInfo).port}`;
  }, 180_000);

  afterAll(async () => {
    await testApp?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const kit = (args: string[], env: Record<string, string> = {}) =>
    run(join(dir, 'node_modules', '.bin', 'backoffice-conformance'), args, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', ...env },
    }).then(
      (done) => ({ code: 0, ...done }),
      (failed: { code: number; stdout: string; stderr: string }) => failed,
    );

  it('carries its built JavaScript and the contracts, and only run-time dependencies', () => {
    const installed = join(dir, 'node_modules', 'backoffice-conformance');
    expect(existsSync(join(installed, 'dist', 'cli.js'))).toBe(true);
    expect(existsSync(join(installed, 'contracts', 'openapi.yaml'))).toBe(true);
    expect(existsSync(join(installed, 'contracts', 'socket.md'))).toBe(true);
    expect(readdirSync(join(installed, 'dist')).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.devDependencies).toBeUndefined();
  });

  it('passes the reference server, writing JUnit and JSON reports; the same from environment variables', async () => {
    const junit = join(dir, 'report.xml');
    const json = join(dir, 'report.json');
    const byFlags = await kit([
      '--base-url',
      baseUrl,
      '--email',
      'admin@demo.local',
      '--password',
      'Back#Office!Demo',
      '--quiet',
      '--junit',
      junit,
      '--json',
      json,
    ]);
    expect(byFlags.stdout).toMatch(/^\d+ checks, 0 with problems$/m);
    expect(byFlags.code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      summary: { checks: number; failed: number };
      results: { ok: boolean; group: string; durationMs: number }[];
    };
    expect(report.summary.failed).toBe(0);
    expect(report.results.length).toBe(report.summary.checks);
    expect(report.results.every((r) => typeof r.group === 'string' && typeof r.durationMs === 'number')).toBe(true);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain(`<testsuites name="backoffice-conformance" tests="${report.summary.checks}" failures="0"`);
    const byEnv = await kit(['--quiet', '--only', 'roles'], {
      BACKOFFICE_BASE_URL: baseUrl,
      BACKOFFICE_EMAIL: 'admin@demo.local',
      BACKOFFICE_PASSWORD: 'Back#Office!Demo',
    });
    expect(byEnv.code).toBe(0);
  }, 120_000);

  it('replays the machines from the bundle it carries (--only machines)', async () => {
    const installed = join(dir, 'node_modules', 'backoffice-conformance');
    expect(existsSync(join(installed, 'dist', 'machines-entry.mjs'))).toBe(true);
    const json = join(dir, 'machines.json');
    const machines = await kit([
      '--base-url',
      baseUrl,
      '--email',
      'admin@demo.local',
      '--password',
      'Back#Office!Demo',
      '--only',
      'machines',
      '--quiet',
      '--json',
      json,
    ]);
    expect(machines.code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      results: { ok: boolean; group: string; operation: string }[];
    };
    expect(report.results.filter((r) => r.group === 'machines').map((r) => [r.operation, r.ok])).toEqual([
      [expect.stringMatching(/^machine session: [1-9]\d* paths, [1-9]\d* steps$/), true],
      [expect.stringMatching(/^machine socket: [1-9]\d* paths, [1-9]\d* steps$/), true],
      [expect.stringMatching(/^machine feature-bulk: [1-9]\d* paths, [1-9]\d* steps$/), true],
    ]);
  }, 120_000);

  it('exits 1 on a server that breaks a promise, naming it in the table and the JUnit report', async () => {
    const junit = join(dir, 'broken.xml');
    breakPromises(['csv-no-bom']);
    try {
      const broken = await kit([
        '--base-url',
        baseUrl,
        '--email',
        'admin@demo.local',
        '--password',
        'Back#Office!Demo',
        '--only',
        'reports',
        '--quiet',
        '--junit',
        junit,
      ]);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toContain('CSV does not start with a UTF-8 BOM');
      expect(readFileSync(junit, 'utf8')).toMatch(/<failure message="CSV does not start with a UTF-8 BOM">/);
    } finally {
      breakPromises([]);
    }
  }, 120_000);

  it('exits 2 on a wrong command line, 3 when it cannot sign in or reach the server', async () => {
    expect((await kit(['--base-url', baseUrl, '--email', 'admin@demo.local'])).code).toBe(2);
    expect((await kit(['--base-url', baseUrl, '--email', 'a', '--password', 'b', '--only', 'nope'])).code).toBe(2);
    const wrong = await kit(['--base-url', baseUrl, '--email', 'admin@demo.local', '--password', 'wrong', '--quiet']);
    expect(wrong.code).toBe(3);
    expect(wrong.stdout).toContain('could not sign in');
    const closed = await kit(['--base-url', 'http://127.0.0.1:9', '--email', 'a@b.c', '--password', 'x', '--quiet']);
    expect(closed.code).toBe(3);
  }, 60_000);
});
