import { KB } from './route-sizes-files.mjs';

export function checkRouteSizes(result, budgets) {
  const checks = [];
  for (const row of result.rows) {
    if (row.kind === 'initial')
      checks.push({
        name: 'bundle: login route (initial JS+CSS+HTML, gzip)',
        value: row.all.gzip / KB,
        budget: budgets.loginGzipKB,
        unit: 'KB',
      });
    else if (row.kind === 'route' || row.kind === 'layout') {
      checks.push({
        name: `bundle: ${row.route} extra (gzip)`,
        value: row.all.gzip / KB,
        budget: budgets.routeExtraGzipKB,
        unit: 'KB',
      });
    }
  }
  checks.push({
    name: 'bundle: whole app (gzip)',
    value: result.whole.all.gzip / KB,
    budget: budgets.wholeAppGzipKB,
    unit: 'KB',
  });
  if (budgets.duplicatedModuleKB !== undefined && result.duplicates) {
    checks.push({
      name: 'bundle: modules in more than one chunk (source KB of the copies beyond the first)',
      value: result.duplicates.bytes / KB,
      budget: budgets.duplicatedModuleKB,
      unit: 'KB',
    });
  }
  if (budgets.loginBrotliKB !== undefined) {
    checks.push({
      name: 'bundle: login JS on the wire before the form is interactive (brotli, as served)',
      value: result.loginEager.js.brotli / KB,
      budget: budgets.loginBrotliKB,
      unit: 'KB',
    });
  }
  return checks.map((c) => ({ ...c, ok: c.value <= c.budget }));
}

const kb = (bytes) => (bytes / KB).toFixed(1);

export function formatRouteSizes(result, budgets) {
  const lines = [];
  const header = ['route', 'path', 'JS gz', 'JS br', 'CSS gz', 'CSS br', 'total gz', 'total br', 'budget', ''];
  const body = [];
  const budgetOf = (row) =>
    row.kind === 'initial'
      ? budgets?.loginGzipKB
      : row.kind === 'route' || row.kind === 'layout'
        ? budgets?.routeExtraGzipKB
        : row.kind === 'whole'
          ? budgets?.wholeAppGzipKB
          : undefined;
  for (const row of [...result.rows, result.whole]) {
    const budget = budgetOf(row);
    const verdict = budget === undefined ? '' : row.all.gzip / KB <= budget ? 'ok' : 'OVER';
    body.push([
      row.route,
      row.path + (row.note ? ` (${row.note})` : ''),
      kb(row.js.gzip),
      kb(row.js.brotli),
      kb(row.css.gzip),
      kb(row.css.brotli),
      kb(row.all.gzip),
      kb(row.all.brotli),
      budget === undefined ? '' : `≤ ${budget}`,
      verdict,
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => String(r[i]).length)));
  const fmt = (r) =>
    r
      .map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
      .join('  ')
      .trimEnd();
  lines.push(
    "JS and CSS per route (KB = 1000 bytes; gz and br = the bytes the server sends for each file: the build's gzip -9 and brotli q11 files; extra = on top of what is already loaded)",
  );
  if (!result.precompressed)
    lines.push(
      'NOTE: this build has no .br/.gz files (built without scripts/precompress.mjs): the server sends it raw, and so counts the table.',
    );
  lines.push(fmt(header));
  lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of body) lines.push(fmt(r));
  lines.push('');
  const eager = result.loginEager;
  const verdict =
    budgets?.loginBrotliKB === undefined
      ? ''
      : ` (budget ≤ ${budgets.loginBrotliKB} KB br: ${eager.js.brotli / KB <= budgets.loginBrotliKB ? 'ok' : 'OVER'})`;
  lines.push(
    `Login JS on the wire before the form is interactive (${eager.files.length} ${eager.files.length === 1 ? 'script' : 'scripts'} ${eager.page ?? 'the page'} loads eagerly): ${kb(eager.js.brotli)} KB br, ${kb(eager.js.gzip)} KB gz, ${kb(eager.js.raw)} KB raw${verdict}`,
  );
  const dup = result.duplicates;
  if (dup) {
    const dupVerdict =
      budgets?.duplicatedModuleKB === undefined
        ? ''
        : ` (budget ≤ ${budgets.duplicatedModuleKB} KB: ${dup.bytes / KB <= budgets.duplicatedModuleKB ? 'ok' : 'OVER'})`;
    lines.push(
      `Modules in more than one chunk: ${dup.count}, ${kb(dup.bytes)} KB of source in the copies beyond the first${dupVerdict}`,
    );
    for (const m of dup.modules.slice(0, 10))
      lines.push(`  ${m.name.slice(0, 90).padEnd(90)} ${kb(m.size).padStart(6)} KB × ${m.chunks.length} chunks`);
  }
  lines.push(
    `Login route files: ${result.entryChunks.map((c) => `${c.files.join(' + ')} ${kb(c.all.gzip)} KB gz`).join('; ')}`,
  );
  lines.push('Biggest contributors to the login route (estimated gzip: raw source share × chunk gzip):');
  for (const c of result.loginContributors.slice(0, 10))
    lines.push(`  ${c.name.padEnd(36)} ~${kb(c.gzipEstimate).padStart(5)} KB gz  (${kb(c.raw)} KB source)`);
  return lines.join('\n');
}
