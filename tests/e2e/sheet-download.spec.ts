import { readFile } from 'node:fs/promises';
import { signIn } from './support/app';
import { expect, test } from './support/fixtures';
import { escapeRegExp, t } from './support/i18n';

test('a sheet download completes: the CSV file arrives with its header and data rows', async ({ page, app }) => {
  // Chromium offers the File System Access picker, which needs a person to pick a file; without it
  // the panel saves through an ordinary download (save-file.ts), which the test can receive.
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await signIn(page, app.origin, app.admin, '/dashboard/analytics');
  const panel = page.getByRole('region', { name: t('sheets.panel.title') });
  await expect(panel).toBeVisible();
  // The dashboard's figures and the sheet's preview load around the button, and each can move it. A
  // press whose pointer is released after the button moved away is no press (it only took the focus,
  // seen once on a loaded box): click once the screen has settled, as a person would.
  const previewCount = new RegExp(
    escapeRegExp(t('sheets.panel.previewCount', { count: 2, shown: '§', total: '§' })).replaceAll('§', '[\\d.]+'),
  );
  await expect(panel.getByText(previewCount)).toBeVisible();
  await page.waitForLoadState('networkidle');
  // The whole CSV streams before the download is handed over: generous on a loaded 2-core box.
  const downloading = page.waitForEvent('download', { timeout: 60_000 });
  await panel
    .getByRole('button', { name: t('sheets.panel.download'), exact: true })
    .first()
    .click();
  const download = await downloading;
  const path = await download.path();
  expect(await download.failure()).toBeNull();
  const text = await readFile(path, 'utf8');
  // UTF-8 BOM, `;`-separated header (docs/product.md, Sheets and CSV), at least one data row.
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const lines = text
    .slice(1)
    .split(/\r?\n/)
    .filter((line) => line !== '');
  expect(lines[0]).toContain(';');
  expect(lines.length).toBeGreaterThan(1);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
});
