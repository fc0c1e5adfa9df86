import type { Page } from '@playwright/test';
import { addFault, apiLogin, listFaults, type Api } from './support/api';
import { signIn, tenantPath } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createTenant, uniquePrefix } from './support/tenants';

/**
 * Bulk actions (docs/lists.md, Bulk actions), the acceptance of the tenants list: 30 tenants a search
 * matches (made here through the API), all selected beyond the page, a dry run, a feature turned on with
 * one tenant failing (a fault injected for its row), that row retried, and all 30 on; then the whole
 * batch undone as one from its audit record (docs/lists.md, Undo on the server).
 */
test.use({ bypassCSP: true });

/** Tenant names without digits (the tenant search also matches CNPJ digits): prefix-a … prefix-zd. */
const suffixes = (n: number) =>
  Array.from({ length: n }, (_, i) => (i < 26 ? String.fromCharCode(97 + i) : `z${String.fromCharCode(97 + i - 26)}`));

async function thirtyTenants(api: Api, tag: string): Promise<{ prefix: string; ids: number[] }> {
  const prefix = uniquePrefix(tag);
  for (const suffix of suffixes(30)) await createTenant(api, `${prefix}-${suffix}`, ['chat']);
  const { ids } = await api.rest<{ ids: number[] }>('POST', '/api/tenant/ids', { search: prefix });
  return { prefix, ids };
}

const chatbotOn = async (api: Api, prefix: string) =>
  (
    await api.rest<{ total: number }>('POST', '/api/tenant/ids', {
      search: prefix,
      feature: 'chatbot',
      feature_enabled: true,
    })
  ).total;

async function selectAllMatching(page: Page) {
  await page.getByRole('checkbox', { name: t('ui.table.selectAll') }).check();
  await expect(page.getByText(t('selection.count', { n: '4' }))).toBeVisible();
  await page.getByRole('button', { name: t('selection.selectMatching', { count: 30, n: '30' }) }).click();
  await expect(page.getByText(t('selection.allMatching', { n: '30' }))).toBeVisible();
}

test.describe('bulk actions on tenants', () => {
  test('30 tenants by a search: dry run, a feature on with one failing, its retry, all 30 on, the batch undone as one', async ({
    page,
    app,
  }) => {
    test.setTimeout(180_000);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const { prefix, ids } = await thirtyTenants(api, 'bulk');
    expect(ids).toHaveLength(30);
    const failing = ids[17] as number;
    await addFault(app.origin, { operationId: 'tenantFeatureBulk', match: { id: failing }, status: 500, times: 1 });

    await signIn(page, app.origin, app.admin, `/tenants?search=${prefix}`);
    await expect(page.getByRole('row')).toHaveCount(5);
    await selectAllMatching(page);
    await page.getByLabel(t('bulkAction.tenants.chooseFeature')).selectOption('chatbot');
    let requests = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/tenant/features/bulk') requests += 1;
    });
    await page.getByRole('button', { name: t('bulkAction.tenants.featureOn'), exact: true }).click();
    // The run's answers name their batch's audit record (x-audit-record), the one to undo.
    const batches = new Set<string>();
    // A dry run writes nothing, so only the run's answers carry the header.
    page.on('response', (response) => {
      const record = response.headers()['x-audit-record'];
      if (new URL(response.url()).pathname === '/api/tenant/features/bulk' && record) batches.add(record);
    });

    const action = t('bulkAction.tenants.featureOnTitle', { feature: t('features.options.chatbot') });
    const review = page.getByRole('dialog', { name: t('bulkAction.title.review', { action }) });
    await expect(review.getByText(t('bulkAction.group.change', { n: '30' }))).toBeVisible();
    // The dry run wrote nothing.
    expect(await chatbotOn(api, prefix)).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await review.getByRole('button', { name: t('bulkAction.confirm', { n: '30' }) }).click();
    const result = page.getByRole('dialog', { name: t('bulkAction.title.done', { action }) });
    await expect(result.getByText(t('bulk.outcome.partial'))).toBeVisible();
    await expect(result.getByText(`${t('bulkAction.outcome.failed')}`, { exact: false })).toHaveCount(1);
    expect(await chatbotOn(api, prefix)).toBe(29);
    expect((await listFaults(app.origin)).find((f) => f.match?.id === failing)?.fired).toBe(1);
    // One dry-run request and one run request for 30 rows (chunks of 100).
    expect(requests).toBe(2);

    await result.getByRole('button', { name: t('bulk.retryFailed') }).click();
    await expect(result.getByText(t('bulk.outcome.success'))).toBeVisible();
    expect(await chatbotOn(api, prefix)).toBe(30);
    await result.getByRole('button', { name: t('bulkAction.close') }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // The selection is cleared once the run is over.
    await expect(page.getByRole('button', { name: t('selection.clear'), exact: true })).toHaveCount(0);
    await expect(page.getByText(t('selection.allMatching', { n: '30' }))).toHaveCount(0);

    // Undo the whole batch from its audit record: the 30 tenants go back to chatbot off, as one.
    // The first run and its retry belong to one batch.
    expect(batches.size).toBe(1);
    const batch = Number([...batches][0]);
    await page.goto(`${app.origin}${tenantPath('/audit')}?operation=tenant.feature-bulk`);
    const rows = page.getByRole('grid', { name: t('audit.tableLabel') }).getByRole('row');
    await expect(rows.filter({ hasText: t('audit.operation.tenant.feature-bulk') }).first()).toBeVisible();
    await rows
      .filter({ hasText: t('audit.operation.tenant.feature-bulk') })
      .first()
      .getByRole('button')
      .click();
    const detail = page.getByRole('region', { name: t('audit.detail.title', { id: String(batch) }) });
    const undo = detail.getByRole('button', { name: t('undo.action'), exact: true });
    await undo.click();
    await expect(
      detail.getByRole('status').filter({ hasText: t('undo.detail.undone', { id: '§' }).split('§')[0]! }),
    ).toBeVisible();
    expect(await chatbotOn(api, prefix)).toBe(0);
  });

  for (const theme of ['light', 'dark'] as const)
    for (const [width, height] of [
      [1366, 768],
      [390, 844],
    ] as const)
      test(`the selection bar and the review, ${theme} at ${width}: axe clean; screenshots`, async ({
        page,
        app,
      }, info) => {
        test.setTimeout(120_000);
        await useTheme(page, theme);
        await page.setViewportSize({ width, height });
        const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
        const { prefix } = await thirtyTenants(api, `shot${theme}`);
        await signIn(page, app.origin, app.admin, `/tenants?search=${prefix}`);
        await selectAllMatching(page);
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: info.outputPath(`bulk-bar-${theme}-${width}.png`), fullPage: true });
        await page.getByRole('button', { name: t('bulkAction.tenants.featureOn'), exact: true }).click();
        const dialog = page.getByRole('dialog');
        await expect(dialog.getByRole('button', { name: t('bulkAction.confirm', { n: '30' }) })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: info.outputPath(`bulk-review-${theme}-${width}.png`) });
      });
});
