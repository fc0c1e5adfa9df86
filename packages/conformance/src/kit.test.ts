import { main } from './cli.js';
import {
  GRAPHQL_OPERATIONS,
  GROUPS,
  isExtension,
  selectGroups,
  validateGraphqlData,
  validateRestResponse,
} from './kit.js';
import { formatResults, toJson, toJunit } from './report.js';
import type { Result } from './kit-client.js';

describe('the contract validators', () => {
  const roles = GRAPHQL_OPERATIONS.find((op) => op.name === 'roles');
  const role = { id: 1, name: 'administrador', display_name: 'Administrador', has_permission_routes: ['users'] };

  it('accepts GraphQL data matching the selection', () => {
    expect(roles && validateGraphqlData(roles, { roles: [role] })).toEqual([]);
  });

  it('reports missing fields, nulls in non-null fields, wrong scalars and unselected fields', () => {
    if (!roles) throw new Error('contracts/operations/roles.query.graphql is missing');
    const { display_name: _omitted, ...withoutName } = role;
    expect(validateGraphqlData(roles, { roles: [withoutName] })).toEqual([
      'graphql: data.roles[0].display_name is missing',
    ]);
    expect(validateGraphqlData(roles, { roles: [{ ...role, name: null }] })).toEqual([
      'graphql: data.roles[0].name is null but String! is non-null',
    ]);
    expect(validateGraphqlData(roles, { roles: [{ ...role, id: '1' }] })).toEqual([
      'graphql: data.roles[0].id is "1", not a Int',
    ]);
    expect(validateGraphqlData(roles, { roles: null })).toEqual([
      'graphql: data.roles is null but [Role!]! is non-null',
    ]);
    expect(validateGraphqlData(roles, { roles: [], extra: 1 })).toEqual(['graphql: data.extra was not selected']);
  });

  it('reports REST bodies that break the schema and statuses the contract does not list', () => {
    expect(validateRestResponse('healthLive', 200, { status: 'ok' })).toEqual([]);
    expect(validateRestResponse('healthLive', 200, { status: 'fine' })).not.toEqual([]);
    expect(validateRestResponse('healthLive', 418, {})).toEqual(['the contract lists no 418 answer']);
  });

  it('tells extensions from the base API, in REST and GraphQL', () => {
    expect(isExtension('auditList')).toBe(true);
    expect(isExtension('roleCreate')).toBe(true);
    expect(isExtension('userCreate')).toBe(false);
    expect(isExtension('auditRecords')).toBe(true);
    expect(isExtension('auditNames')).toBe(true);
    expect(isExtension('attention')).toBe(true);
    expect(isExtension('users')).toBe(false);
  });
});

describe('choosing groups', () => {
  it('runs every group in order by default, except those a run asks for by name', () => {
    expect(selectGroups().map((g) => g.name)).toEqual(GROUPS.filter((g) => !g.optIn).map((g) => g.name));
    const optIn = GROUPS.filter((g) => g.optIn).map((g) => g.name);
    expect(optIn.length).toBeGreaterThan(0);
    expect(selectGroups(optIn).map((g) => g.name)).toEqual(expect.arrayContaining(optIn));
  });

  it('adds what a chosen group needs, and drops what needs a skipped group', () => {
    const needing = GROUPS.find((g) => g.needs.length > 0);
    if (!needing) throw new Error('no group needs another');
    const chosen = selectGroups([needing.name]).map((g) => g.name);
    expect(chosen).toEqual(expect.arrayContaining([needing.name, ...needing.needs]));
    const skipped = selectGroups([], [needing.needs[0]!]).map((g) => g.name);
    expect(skipped).not.toContain(needing.name);
    expect(skipped).not.toContain(needing.needs[0]);
  });

  it('refuses a group it does not know', () => {
    expect(() => selectGroups(['nope'])).toThrow('no group nope');
  });
});

describe('the reports', () => {
  const results: Result[] = [
    { operation: 'userCreate', kind: 'rest', status: 201, ok: true, problems: [], group: 'users', durationMs: 12 },
    {
      operation: 'roles <&> "x"',
      kind: 'graphql',
      status: 200,
      ok: false,
      problems: ['schema: /0 bad\u0001 & <worse>', 'second'],
      group: 'roles',
      durationMs: 1500,
    },
  ];

  it('writes JUnit XML a CI reads: suites per group, a failure per failed check, escaped, timed', () => {
    const xml = toJunit(results);
    expect(xml).toContain('<testsuites name="backoffice-conformance" tests="2" failures="1" time="1.512">');
    expect(xml).toContain('<testsuite name="users" tests="1" failures="0" time="0.012">');
    expect(xml).toContain('name="roles &lt;&amp;&gt; &quot;x&quot; [graphql]" time="1.500"');
    expect(xml).toContain(
      '<failure message="schema: /0 bad &amp; &lt;worse&gt;">schema: /0 bad &amp; &lt;worse&gt;\nsecond</failure>',
    );
    expect(xml).not.toContain('\u0001');
  });

  it('writes JSON with a summary and every check', () => {
    const json = JSON.parse(toJson(results, { baseUrl: 'http://x', profile: 'full', startedAt: 't' })) as {
      summary: { checks: number; failed: number; byKind: Record<string, number> };
      results: Result[];
    };
    expect(json.summary).toEqual({ checks: 2, failed: 1, byKind: { rest: 1, graphql: 1 } });
    expect(json.results).toEqual(results);
  });

  it('prints a table with the problems under each failed check', () => {
    const table = formatResults(results).split('\n');
    expect(table[0]).toMatch(/^group\s+check\s+kind\s+status\s+ms\s+ok$/);
    expect(table).toContain('    - second');
    expect(table.at(-1)).toBe('2 checks, 1 with problems');
  });
});

describe('the command line', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { env: {}, out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
  };

  it('refuses a missing option, a wrong URL, profile or timeout, and an unknown group, with exit 2', async () => {
    const cases = [
      [],
      ['--base-url', 'ftp://x', '--email', 'a', '--password', 'b'],
      ['--base-url', 'http://x', '--email', 'a', '--password', 'b', '--profile', 'most'],
      ['--base-url', 'http://x', '--email', 'a', '--password', 'b', '--timeout', '-1'],
      ['--base-url', 'http://x', '--email', 'a', '--password', 'b', '--only', 'nope'],
      ['--bogus'],
    ];
    for (const argv of cases) {
      const run = io();
      expect(await main(argv, run.io)).toBe(2);
      expect(run.err.join('\n')).toContain('usage: backoffice-conformance');
    }
  });

  it('lists the groups and prints its usage with exit 0', async () => {
    const listed = io();
    expect(await main(['--list'], listed.io)).toBe(0);
    expect(listed.out.map((line) => line.split(/\s+/)[0])).toEqual(GROUPS.map((g) => g.name));
    const help = io();
    expect(await main(['--help'], help.io)).toBe(0);
    expect(help.out.join('\n')).toContain('exit codes: 0 every check passed');
  });
});
