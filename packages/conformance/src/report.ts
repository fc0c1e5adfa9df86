import type { Result } from './kit-client.js';

/** The run's results for people (a table), and for CI (JSON, JUnit XML). docs/conformance.md. */

/**
 * Text for a terminal: control characters (an escape sequence of the server's answer quoted in a problem,
 * a line break that would forge a row) written as `\u` escapes.
 */
const printable = (text: string): string =>
  text.replace(/\p{Cc}/gu, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);

/** A fixed-width table of results (one row per check, problems indented below) and a summary line. */
export function formatResults(results: Result[]): string {
  const head = ['group', 'check', 'kind', 'status', 'ms', 'ok'];
  const rows = results.map((r) => [
    printable(r.group ?? ''),
    printable(r.operation),
    r.kind,
    String(r.status),
    String(r.durationMs ?? ''),
    r.ok ? 'ok' : 'FAIL',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = [line(head), line(widths.map((w) => '-'.repeat(w)))];
  results.forEach((r, i) => {
    out.push(line(rows[i] ?? []));
    for (const p of r.problems) out.push(`    - ${printable(p)}`);
  });
  const failed = results.filter((r) => !r.ok).length;
  out.push('', `${results.length} checks, ${failed} with problems`);
  return out.join('\n');
}

/** Counts by kind and outcome. */
export function summarize(results: Result[]): { checks: number; failed: number; byKind: Record<string, number> } {
  const byKind: Record<string, number> = {};
  for (const r of results) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
  return { checks: results.length, failed: results.filter((r) => !r.ok).length, byKind };
}

/** The JSON report: the run, its summary, and every check. */
export function toJson(results: Result[], run: { baseUrl: string; profile: string; startedAt: string }): string {
  return `${JSON.stringify({ ...run, summary: summarize(results), results }, null, 2)}\n`;
}

/** Characters XML 1.0 cannot carry at all (C0 controls other than tab, LF, CR): dropped. */
const notXml = (char: string): boolean => {
  const code = char.charCodeAt(0);
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff;
};
const xml = (text: string): string =>
  [...text]
    .filter((char) => !notXml(char))
    .join('')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** JUnit XML: one test suite per group, one test case per check, a failure per check with problems. */
export function toJunit(results: Result[], name = 'backoffice-conformance'): string {
  const groups = new Map<string, Result[]>();
  for (const r of results) groups.set(r.group ?? '', [...(groups.get(r.group ?? '') ?? []), r]);
  const seconds = (rs: Result[]): string => (rs.reduce((s, r) => s + (r.durationMs ?? 0), 0) / 1000).toFixed(3);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(name)}" tests="${results.length}" failures="${results.filter((r) => !r.ok).length}" time="${seconds(results)}">`,
  ];
  for (const [group, rs] of groups) {
    out.push(
      `  <testsuite name="${xml(group)}" tests="${rs.length}" failures="${rs.filter((r) => !r.ok).length}" time="${seconds(rs)}">`,
    );
    for (const r of rs) {
      const attrs = `classname="${xml(`${name}.${group}`)}" name="${xml(`${r.operation} [${r.kind}]`)}" time="${((r.durationMs ?? 0) / 1000).toFixed(3)}"`;
      if (r.ok) out.push(`    <testcase ${attrs}/>`);
      else
        out.push(
          `    <testcase ${attrs}>`,
          `      <failure message="${xml(r.problems[0] ?? 'failed')}">${xml(r.problems.join('\n'))}</failure>`,
          '    </testcase>',
        );
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
