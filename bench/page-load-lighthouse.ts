import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse, { desktopConfig } from 'lighthouse';
import type { Result } from 'lighthouse';
import { ARGS, CHROMIUM } from './page-load-browser';

export interface LighthouseFigures {
  performance: number;
  interactiveMs: number;
  /** Total blocking time: the main thread's long tasks past 50 ms each, summed, between FCP and TTI. */
  totalBlockingMs: number;
  largestPaintMs: number;
  /** The long tasks Lighthouse saw (the `long-tasks` audit): `start+duration ms url`, longest first. */
  longTasks: string[];
}

/**
 * What the origin's localStorage holds before Lighthouse's visit; with `signIn`, the panel's sign-in
 * form is then filled and sent in the same profile, so the session the panel stores is there too.
 */
export interface LighthouseStorage {
  origin: string;
  entries: Record<string, string>;
  /** Cookies of the origin, as the app leaves them (the look cookie: src/domain/look-cookie.ts). */
  cookies?: Record<string, string>;
  signIn?: { email: string; password: string };
  /** Where the page must end (its path), so a signed-out visitor sent to the sign-in page is not measured. */
  expectPath?: string;
}

export interface LighthouseAccessibility {
  /** The accessibility category's score, 0–100. */
  score: number;
  /** Every scored audit that did not pass: `id: title (n elements: selector, …)`. */
  failing: string[];
  /** Lighthouse's own version, from its report. */
  version: string;
}

/**
 * One Lighthouse run (default config: mobile, simulated throttling) of the given categories in a new
 * Chromium with an empty profile; `storage` is put into the origin's localStorage first, from a
 * same-origin JSON response so nothing of the app is loaded before Lighthouse's visit (unless it signs
 * in, which loads the app once). Lighthouse keeps storage with `disableStorageReset`, and with it the
 * HTTP cache: the cache is cleared here (CDP `Network.clearBrowserCache`), so a signed-in visit still
 * fetches every file, as a first visit does — only localStorage (the preferences, the session) is kept.
 */
async function lighthouseResult(
  url: string,
  categories: string[],
  storage: LighthouseStorage | undefined,
  desktop = false,
): Promise<Result> {
  const profile = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const child = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      ...ARGS,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
        if (match?.[1]) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`chromium exited with ${code}: ${err.slice(-500)}`)));
    });
    if (storage) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
      const context = browser.contexts()[0];
      if (!context) throw new Error('no default browser context over CDP');
      const page = await context.newPage();
      await page.goto(`${storage.origin}/api/auth/userInfo`);
      await page.evaluate((entries) => {
        for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
      }, storage.entries);
      await context.addCookies(
        Object.entries(storage.cookies ?? {}).map(([name, value]) => ({ name, value, url: storage.origin })),
      );
      if (storage.signIn) {
        await page.goto(`${storage.origin}/backoffice/login`);
        await page.fill('input[name="email"]', storage.signIn.email);
        await page.fill('input[name="password"]', storage.signIn.password);
        await page.click('button[type=submit]');
        await page.waitForURL((u) => !u.pathname.endsWith('/login'), { timeout: 30_000 });
        // The session is in localStorage once the panel has left the sign-in page.
        await page.waitForFunction(() => localStorage.getItem('accessToken') !== null);
      }
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
      await page.close();
      await browser.close(); // a browser connected over CDP is only disconnected
    }
    const result = await lighthouse(
      url,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: categories,
        disableStorageReset: Boolean(storage),
      },
      desktop ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    // BENCH_LIGHTHOUSE_DIR=<dir> keeps every report (JSON) there, to read its audits and trace figures.
    const keep = process.env.BENCH_LIGHTHOUSE_DIR;
    if (keep) {
      mkdirSync(keep, { recursive: true });
      const name = `${new URL(url).pathname.replace(/\W+/g, '-')}-${Date.now()}.json`;
      writeFileSync(join(keep, name), JSON.stringify(lhr));
    }
    return lhr;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    // Chromium's helpers may still be writing the profile for a moment after the browser exits.
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

/** Lighthouse's performance category: the score, time to interactive, total blocking time, LCP and the long tasks. */
export async function lighthouseRun(url: string, storage?: LighthouseStorage): Promise<LighthouseFigures> {
  const lhr = await lighthouseResult(url, ['performance'], storage);
  if (storage?.expectPath) {
    const final = new URL(lhr.finalDisplayedUrl);
    const path = final.hash.startsWith('#/') ? final.hash.slice(1).split('?')[0] : final.pathname;
    if (path !== storage.expectPath) throw new Error(`${url} ended on ${path}, not ${storage.expectPath}`);
  }
  const details = lhr.audits['long-tasks']?.details as
    { items?: { url?: string; startTime?: number; duration?: number }[] } | undefined;
  const longTasks = (details?.items ?? [])
    .map((t) => ({ url: t.url ?? '', start: t.startTime ?? 0, duration: t.duration ?? 0 }))
    .sort((a, b) => b.duration - a.duration)
    .map((t) => `${t.start.toFixed(0)}+${t.duration.toFixed(0)} ms ${t.url.replace(/^https?:\/\/[^/]+/, '')}`);
  return {
    performance: (lhr.categories.performance?.score ?? Number.NaN) * 100,
    interactiveMs: lhr.audits.interactive?.numericValue ?? Number.NaN,
    totalBlockingMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    largestPaintMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    longTasks,
  };
}

/**
 * Lighthouse's accessibility category (axe-core; its mobile profile, 412 px wide, or with `desktop` its
 * desktop one, 1350 px): the score and the scored audits that failed, with the first elements each
 * names, so a miss says what to fix.
 * `expectPath` guards against measuring the wrong page: the final URL's path must be it (a signed-out
 * visitor is sent to the sign-in page, which would score on its own).
 */
export async function lighthouseAccessibility(
  url: string,
  expectPath: string,
  storage?: LighthouseStorage,
  desktop = false,
): Promise<LighthouseAccessibility> {
  const lhr = await lighthouseResult(url, ['accessibility'], storage, desktop);
  const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
  if (finalPath !== expectPath) throw new Error(`${url} ended on ${finalPath}, not ${expectPath}`);
  const failing: string[] = [];
  for (const ref of lhr.categories.accessibility?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id];
    if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
    const details = audit.details as { items?: { node?: { selector?: string } }[] } | undefined;
    const nodes = (details?.items ?? []).map((item) => item.node?.selector).filter(Boolean);
    failing.push(
      `${audit.id}: ${audit.title}${nodes.length ? ` (${nodes.length}: ${nodes.slice(0, 3).join(', ')})` : ''}`,
    );
  }
  return { score: (lhr.categories.accessibility?.score ?? Number.NaN) * 100, failing, version: lhr.lighthouseVersion };
}

export function chromiumVersion(): string {
  const out = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' });
  return /Chromium [\d.]+/.exec(out.stdout ?? '')?.[0] ?? CHROMIUM;
}
