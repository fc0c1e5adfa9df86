import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { cnpjCheckDigits } from '../src/domain/cnpj';
import { check, fixed, median, sleep, type SuiteResult } from './lib/report';
import { json, loginOn, serverOnPostgres, type PostgresTarget } from './lib/servers';
import { ARGS, CHROMIUM } from './page-load-browser';

/**
 * How soon a change shows on an open Auditoria screen (docs/product.md, Audit log: "within a second"),
 * on the real server over PostgreSQL, in Chromium: the built SPA signed in as the demo admin on
 * `/audit`, filtered to one fresh tenant's plan changes, its socket connected. Then {@link CHANGES}
 * plan changes through REST (`POST /api/tenant/set-plan`), {@link GAP_MS} apart as a person would make
 * them. Latency per change = the moment the page's table holds the new row (stamped in the page by a
 * MutationObserver, same machine clock) − the moment the set-plan answer arrived here. The path is
 * the whole one: commit, `AuditRecorded` through the event relay (LISTEN/NOTIFY), the socket, the
 * screen's read of `GET /api/audit` and the render. The budget applies to the slowest change.
 */
const CHANGES = 6;
const GAP_MS = 1000;
const TENANT = 'backoffice';
/** Data rows of the audit table (React Aria renders the empty/loading row with a rowheader too). */
const ROWS = '[role=grid] [role=rowgroup]:not([data-empty]) [role=rowheader]';

/** Installs the observer: `__auditRows(n)` resolves with the time the table first held n data rows. */
const probe = `(() => {
  globalThis.__name = globalThis.__name || ((fn) => fn);
  const waiting = [];
  const count = () => document.querySelectorAll(${JSON.stringify(ROWS)}).length;
  const settle = () => {
    const n = count();
    for (let i = waiting.length - 1; i >= 0; i -= 1) {
      if (n >= waiting[i].rows) { waiting[i].resolve(Date.now()); waiting.splice(i, 1); }
    }
  };
  new MutationObserver(settle).observe(document, { childList: true, subtree: true });
  globalThis.__auditRows = (rows) => new Promise((resolve) => { waiting.push({ rows, resolve }); settle(); });
})();`;

export async function auditLiveBench(options: { budgetMs: number; shared?: PostgresTarget }): Promise<SuiteResult> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  if (!existsSync('dist/web/index.html')) throw new Error('dist/web/index.html is missing: run npm run build first');
  const target = await serverOnPostgres('bench_audit', options.shared);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const base = target.server.base;
    const admin = await loginOn(base);
    const rest = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
        body: JSON.stringify(body),
      });
    const digits = `${Date.now() % 1e8}`.padStart(8, '0') + `${Math.floor(Math.random() * 1e4)}`.padStart(4, '0');
    const tenant = await json<{ id: number; name: string }>(
      await rest('/api/tenant', {
        name: `bench-audit-${Date.now().toString(36)}`,
        cnpj: `${digits}${cnpjCheckDigits(digits)}`,
        features: ['chat'],
        template: 'farmacia',
        pool: 'pool-a',
        userLimit: 5,
        plan: 'starter',
        ticketLimit: 1000,
      }),
    );

    const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.addInitScript({ content: probe });
    const audit = `/audit?operation=tenant.plan&targetType=tenant&targetId=${tenant.id}`;
    await page.goto(`${base}/${TENANT}/login?to=${encodeURIComponent(audit)}`);
    await page.fill('input[name="email"]', 'admin@demo.local');
    await page.fill('input[name="password"]', 'Back#Office!Demo');
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.pathname === `/${TENANT}/audit`, { timeout: 30_000 });
    await page.getByRole('grid').waitFor({ timeout: 30_000 });
    // The navbar's socket status reads "Conectado" once the socket is admitted (contracts/socket.md §1.2).
    await page
      .getByRole('banner')
      .getByRole('status')
      .filter({ hasText: /^Conectado$/ })
      .waitFor({ timeout: 30_000 });

    const latencies: number[] = [];
    /** From the set-plan request leaving here: the answer's own time included. */
    const sinceSent: number[] = [];
    for (let i = 1; i <= CHANGES; i += 1) {
      await sleep(GAP_MS);
      const shown = page.evaluate(
        (rows) => (globalThis as unknown as { __auditRows(n: number): Promise<number> }).__auditRows(rows),
        i,
      );
      const plan = i % 2 ? 'enterprise' : 'starter';
      const sentAt = Date.now();
      await json(await rest('/api/tenant/set-plan', { id: tenant.id, plan, user: 5, ticket: 1000 }));
      const answeredAt = Date.now();
      const at = await Promise.race([
        shown,
        sleep(10_000).then(() => {
          throw new Error(`change ${i}: no new row on the audit screen within 10 s`);
        }),
      ]);
      latencies.push(Math.max(0, at - answeredAt));
      sinceSent.push(at - sentAt);
    }
    const slowest = Math.max(...latencies);
    return {
      suite: 'audit live (Chromium, PostgreSQL)',
      table: [
        ['figure', 'value'],
        ['plan changes', String(CHANGES)],
        ['answer → row shown, median (ms)', fixed(median(latencies), 0)],
        ['answer → row shown, slowest (ms)', fixed(slowest, 0)],
        ['each (ms)', latencies.map((l) => fixed(l, 0)).join(' ')],
        ['request sent → row shown, each (ms)', sinceSent.map((l) => fixed(l, 0)).join(' ')],
      ],
      checks: [
        check(
          'audit live: set-plan answer → row on the open Auditoria screen, slowest',
          slowest,
          options.budgetMs,
          'ms',
        ),
      ],
      data: { latencies, sinceSent },
    };
  } finally {
    await browser.close();
    await target.release();
  }
}
