import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { ARGS, CHROMIUM } from './page-load-browser';

export interface LighthouseFigures {
  performance: number;
  interactiveMs: number;
}

/**
 * One Lighthouse run (default config: mobile, simulated throttling, performance only) in a new
 * Chromium with an empty profile; `storage` is put into the origin's localStorage first, from a
 * same-origin JSON response so nothing of the app is loaded or cached before Lighthouse's visit.
 */
export async function lighthouseRun(
  url: string,
  storage?: { origin: string; entries: Record<string, string> },
): Promise<LighthouseFigures> {
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
      await page.close();
      await browser.close(); // a browser connected over CDP is only disconnected
    }
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableStorageReset: Boolean(storage),
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    return {
      performance: (lhr.categories.performance?.score ?? Number.NaN) * 100,
      interactiveMs: lhr.audits.interactive?.numericValue ?? Number.NaN,
    };
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

export function chromiumVersion(): string {
  const out = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' });
  return /Chromium [\d.]+/.exec(out.stdout ?? '')?.[0] ?? CHROMIUM;
}
