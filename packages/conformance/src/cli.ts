#!/usr/bin/env node
/**
 * `backoffice-conformance --base-url URL --email E --password P [options]`: checks the server at URL
 * against the contracts packed with this kit. docs/conformance.md explains principals, profiles, reports
 * and the exit codes (below, `EXIT`).
 */
import { realpathSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  GROUPS,
  formatResults,
  runConformance,
  selectGroups,
  toJson,
  toJunit,
  type Profile,
  type Result,
} from './kit.js';

/** Exit codes: every check passed; a check failed; the command line was wrong; the run could not start. */
export const EXIT = { passed: 0, failed: 1, usage: 2, unreachable: 3, interrupted: 130 } as const;

/** The longest per-request timeout a timer holds (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

const USAGE = `usage: backoffice-conformance --base-url URL --email E --password P [options]

  --base-url URL      the server under test (env BACKOFFICE_BASE_URL)
  --email E           a back-office administrador's e-mail (env BACKOFFICE_EMAIL)
  --password P        its password (env BACKOFFICE_PASSWORD)
  --profile P         base (the operations not marked x-extension) or full (default; env BACKOFFICE_PROFILE)
  --only G[,G…]       run these groups (and what they need)
  --skip G[,G…]       do not run these groups (nor what needs them)
  --timeout MS        per request (default 15000)
  --junit FILE        write a JUnit XML report
  --json FILE         write a JSON report
  --keep              leave what the run created on the server (to look at a failure); no clean-up
  --quiet             print only failed checks and the summary
  --list              list the groups and exit

exit codes: 0 every check passed, 1 a check failed, 2 a wrong command line, 3 the run could not start
(server unreachable, or the credentials are not a back-office administrador's), 130 interrupted (Ctrl-C:
the run removes what it created first; a second Ctrl-C stops at once)`;

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  /** Aborted on SIGINT or SIGTERM: the run stops, removes what it created and exits 130. */
  interrupt?: AbortSignal;
}

/** The command: parses `argv`, runs, reports; resolves to the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        'base-url': { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        profile: { type: 'string' },
        only: { type: 'string' },
        skip: { type: 'string' },
        timeout: { type: 'string' },
        junit: { type: 'string' },
        json: { type: 'string' },
        quiet: { type: 'boolean' },
        keep: { type: 'boolean' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (values.help) {
    io.out(USAGE);
    return EXIT.passed;
  }
  if (values.list) {
    for (const g of GROUPS)
      io.out(`${g.name.padEnd(14)} ${g.description}${g.needs.length ? ` (needs ${g.needs.join(', ')})` : ''}`);
    return EXIT.passed;
  }
  const str = (name: string, envName: string): string | undefined =>
    (values[name] as string | undefined) ?? (io.env[envName] || undefined);
  const baseUrl = str('base-url', 'BACKOFFICE_BASE_URL');
  const email = str('email', 'BACKOFFICE_EMAIL');
  const password = str('password', 'BACKOFFICE_PASSWORD');
  const profile = (str('profile', 'BACKOFFICE_PROFILE') ?? 'full') as Profile;
  const timeoutMs = values.timeout === undefined ? 15_000 : Number(values.timeout);
  const problems: string[] = [];
  if (!baseUrl) problems.push('--base-url is required');
  else if (!/^https?:\/\//.test(baseUrl)) problems.push(`--base-url ${baseUrl} is not an http(s) URL`);
  if (!email) problems.push('--email is required');
  if (!password) problems.push('--password is required');
  if (profile !== 'base' && profile !== 'full') problems.push(`--profile ${String(profile)}: base or full`);
  // A timer holds at most 2^31 - 1 ms; Node fires a longer one at once (every request would fail).
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS)
    problems.push(`--timeout ${String(values.timeout)}: milliseconds, 1 to ${MAX_TIMEOUT_MS}`);
  const known = new Set(GROUPS.map((g) => g.name));
  const only = list(values.only as string | undefined);
  const skip = list(values.skip as string | undefined);
  for (const g of [...only, ...skip]) if (!known.has(g)) problems.push(`no group ${g} (--list shows them)`);
  // A run of no group would check the sign-in alone and pass: a CI job misconfigured so must not go green.
  if (problems.length === 0 && (only.length > 0 || skip.length > 0) && selectGroups(only, skip).length === 0)
    problems.push(`--only ${only.join(',') || '(all)'} --skip ${skip.join(',')}: no group left to run`);
  if (problems.length > 0 || !baseUrl || !email || !password) {
    io.err(`${problems.join('\n')}\n\n${USAGE}`);
    return EXIT.usage;
  }
  // A report that cannot be written is known before the run, not after it created and removed its records.
  const reports = [
    ['--junit', values.junit],
    ['--json', values.json],
  ] as const;
  for (const [flag, file] of reports) {
    if (typeof file !== 'string') continue;
    try {
      writeFileSync(file, '');
    } catch (error) {
      io.err(
        `${flag} ${file}: cannot write the report (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
      return EXIT.usage;
    }
  }

  const startedAt = new Date().toISOString();
  let results: Result[];
  try {
    results = await runConformance({
      baseUrl,
      email,
      password,
      profile,
      timeoutMs,
      only,
      skip,
      keep: values.keep === true,
      ...(io.interrupt ? { interrupt: io.interrupt } : {}),
    });
  } catch (error) {
    io.err(`the run could not start: ${(error as Error).message}`);
    return EXIT.unreachable;
  }
  const failed = results.filter((r) => !r.ok);
  if (!values.quiet) io.out(formatResults(results));
  else {
    if (failed.length > 0) io.out(formatResults(failed).split('\n').slice(0, -2).join('\n'));
    io.out(`${results.length} checks, ${failed.length} with problems`);
  }
  try {
    if (values.junit) writeFileSync(values.junit as string, toJunit(results));
    if (values.json) writeFileSync(values.json as string, toJson(results, { baseUrl, profile, startedAt }));
  } catch (error) {
    io.err(`a report could not be written: ${(error as Error).message}`);
    return EXIT.usage;
  }
  if (io.interrupt?.aborted) return EXIT.interrupted;
  const signIn = results.find((r) => r.group === 'sign-in' && !r.ok);
  if (signIn && !results.some((r) => r.group !== 'sign-in' && r.group !== 'coverage')) return EXIT.unreachable;
  return results.every((r) => r.ok) ? EXIT.passed : EXIT.failed;
}

// Run as the command (not when imported by a test); npm's bin is a symlink to this file.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  // The first SIGINT or SIGTERM ends the run after its cleanup (what it created is removed); a second
  // one exits at once.
  const interrupt = new AbortController();
  const onSignal = (): void => {
    if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
    console.error('interrupted: removing what the run created (interrupt again to stop at once)');
    interrupt.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.exitCode = await main(process.argv.slice(2), {
    env: process.env,
    out: (text) => console.log(text),
    err: (text) => console.error(text),
    interrupt: interrupt.signal,
  });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}
