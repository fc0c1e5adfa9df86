import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

/**
 * axe-core on the current page: the violations that are serious or critical, one line each. The
 * page's CSP forbids injected scripts: specs that call this use `test.use({ bypassCSP: true })`.
 */
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { html?: string }[];
}

export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ html: n.html })),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id} — ${v.help} — ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.html))}`);
}

/** The theme preference as the app stores it (preferences.machine.ts), set before each load. */
export async function useTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.addInitScript((value) => {
    const stored = JSON.parse(localStorage.getItem('preferences') ?? '{}') as Record<string, unknown>;
    localStorage.setItem('preferences', JSON.stringify({ ...stored, theme: value }));
  }, theme);
}
