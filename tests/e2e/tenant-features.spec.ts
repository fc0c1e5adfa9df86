import type { Page } from '@playwright/test';
import { addFault, apiLogin, listFaults } from './support/api';
import { signIn } from './support/app';
import { expect, test } from './support/fixtures';
import { escapeRegExp, t } from './support/i18n';
import { createTenant, TEST_TENANT_PREFIX, uniquePrefix } from './support/tenants';

interface Feature {
  option: string;
  enabled: boolean;
}

const panel = (page: Page, name: string) => page.getByRole('dialog', { name: t('tenants.panel.title', { name }) });

test.describe('tenant features', () => {
  test('bulk update with one failing feature: the failure is shown, retry saves it, nothing is lost', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const name = await createTenant(api, uniquePrefix('feat'), ['chat']);
    const before = await api.rest<Feature[]>('GET', `/api/tenant/feature?tenantName=${name}`);
    // Flip three options: two on, one off; the server refuses the chatbot one once.
    const flips = ['campaigns', 'chatbot', 'chat'];
    const wanted = new Map(before.map((f) => [f.option, flips.includes(f.option) ? !f.enabled : f.enabled]));
    await addFault(app.origin, {
      operationId: 'featureUpdate',
      match: { tenantName: name, option: 'chatbot' },
      status: 500,
      times: 1,
    });

    await signIn(page, app.origin, app.admin, `/tenants?panel=features&tenant=${name}`);
    const dialog = panel(page, name);
    const group = dialog.getByRole('group', { name: t('features.editor.listLabel', { name }) });
    // React Aria's checkbox input is visually hidden: a person clicks its label.
    for (const option of flips) await group.getByText(t(`features.options.${option}`), { exact: true }).click();
    await expect(dialog.getByText(t('features.editor.pendingChanges', { count: flips.length }))).toBeVisible();

    let updates = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/tenant/feature') updates += 1;
    });
    await dialog.getByRole('button', { name: t('features.save'), exact: true }).click();
    await expect(
      dialog.getByText(t('features.editor.outcome.partial', { count: 1, failed: 1, total: flips.length })),
    ).toBeVisible();
    await expect(
      dialog.getByText(new RegExp(escapeRegExp(t('features.editor.failed', { reason: '§' })).replace('§', '.+'))),
    ).toHaveCount(1);
    // One call per changed feature (docs/product.md, Tenants), and the injected fault fired once.
    expect(updates).toBe(flips.length);
    expect((await listFaults(app.origin)).find((f) => f.match?.tenantName === name)?.fired).toBe(1);

    await dialog.getByRole('button', { name: t('features.editor.retry', { count: 1 }) }).click();
    await expect(dialog.getByText(t('features.editor.outcome.success'))).toBeVisible();
    // Only the failed one was sent again.
    expect(updates).toBe(flips.length + 1);

    // Nothing lost: the server holds every wanted value, and a reload shows them.
    const after = await api.rest<Feature[]>('GET', `/api/tenant/feature?tenantName=${name}`);
    expect(new Map(after.map((f) => [f.option, f.enabled]))).toEqual(wanted);
    await page.reload();
    for (const [option, enabled] of wanted) {
      const box = panel(page, name).getByRole('checkbox', { name: t(`features.options.${option}`), exact: true });
      if (enabled) await expect(box).toBeChecked();
      else await expect(box).not.toBeChecked();
    }
  });

  test('webhook generation: one call per selected type, deliveries per type', async ({ page, app }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    // A seeded customer tenant (with campaign activity): the oldest, as the other specs add many tenants of
    // their own (the bulk actions' 30 at a time), after the seed.
    const list = await api.rest<{ data?: { name: string }[]; tenants?: { name: string }[] }>(
      'POST',
      '/api/tenant/paginated',
      {
        filter_users: false,
        pagination_page: 1,
        pagination_limit: 50,
        search: '',
        sort_name: 'id',
        sort_type: 'ASC',
      },
    );
    const rows = list.data ?? list.tenants ?? [];
    // Not farmacia-central: tests/e2e/webhooks.spec.ts counts the deliveries of its runs there.
    const seeded = rows
      .map((r) => r.name)
      .find((n) => !n.startsWith(TEST_TENANT_PREFIX) && n !== 'backoffice' && n !== 'farmacia-central');
    expect(seeded, JSON.stringify(list).slice(0, 300)).toBeTruthy();
    const name = seeded ?? '';
    // Generating needs an active endpoint receiving the types (docs/webhooks.md); nothing listens on port 9,
    // and the endpoint is deleted at the end, which cancels what still waits.
    const endpoint = await api.rest<{ endpoint: { id: number } }>('POST', '/api/webhooks/endpoints', {
      tenantName: name,
      url: 'http://127.0.0.1:9/tenant-features',
      types: ['sent', 'delivered'],
    });

    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/tenant/generate-campaign-status-webhook')
        calls.push(url.searchParams.get('type') ?? '');
    });
    await signIn(page, app.origin, app.admin, `/tenants?panel=webhooks&tenant=${name}`);
    const dialog = panel(page, name);
    await dialog.getByRole('button', { name: new RegExp(escapeRegExp(t('webhooks.generator.types'))) }).click();
    const types = ['sent', 'delivered'];
    for (const type of types)
      await page.getByRole('option', { name: t(`webhooks.types.${type}`), exact: true }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: t('webhooks.generate'), exact: true }).click();
    await expect(dialog.getByText(t('webhooks.generator.outcome.success'))).toBeVisible();
    const deliveries = new RegExp(
      escapeRegExp(t('webhooks.generator.deliveries', { count: 999 })).replace('999', '[\\d.]+'),
    );
    await expect(dialog.getByText(deliveries)).toHaveCount(types.length);
    expect(calls.sort()).toEqual([...types].sort());
    await api.rest('DELETE', `/api/webhooks/endpoints/${String(endpoint.endpoint.id)}`);
  });
});
