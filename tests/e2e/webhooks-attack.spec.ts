import type { Page } from '@playwright/test';
import { signIn } from './support/app';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';

/**
 * The webhook endpoint form attacked in Chromium (server/src/security/webhooks-attack.test.ts has the
 * server side): a metadata address, a tab hidden in an address, a control character in the description
 * and a description of 150 emoji. Each refusal names the rule actually broken, beside its field, and
 * nothing is registered; what the server takes, the form does not refuse first.
 */

const TENANT = 'farmacia-central';
const panel = (page: Page) => page.getByRole('dialog', { name: t('tenants.panel.title', { name: TENANT }) });

// axe is injected as a script tag (./support/axe.ts), which the panel's CSP would refuse.
test.use({ bypassCSP: true });

test.describe('webhook endpoint form attacked', () => {
  test('private, hidden-character and emoji inputs: the right words, nothing registered', async ({ page, app }) => {
    await signIn(page, app.origin, app.admin, `/tenants?panel=webhooks&tenant=${TENANT}`);
    const dialog = panel(page);
    await dialog.getByRole('button', { name: t('webhooks.endpoints.add'), exact: true }).click();
    const form = page.getByRole('dialog', { name: t('webhooks.endpoints.form.createTitle') });
    const url = form.getByRole('textbox', { name: t('webhooks.endpoints.form.url') });
    const description = form.getByRole('textbox', { name: t('webhooks.endpoints.form.description') });
    const create = form.getByRole('button', { name: t('webhooks.endpoints.form.create'), exact: true });
    await form.getByRole('checkbox', { name: t('webhooks.types.replied'), exact: true }).check();
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/webhooks/endpoints')) posted += 1;
    });

    // 150 emoji are 150 characters (the server counts so): the form sends them; the metadata address is
    // the server's refusal, worded as a host that is not public.
    await url.fill('https://169.254.169.254/latest/meta-data/');
    await description.fill('🎉'.repeat(150));
    // Not cut by the field (a browser's maxlength counts each emoji twice).
    await expect(description).toHaveValue('🎉'.repeat(150));
    await create.click();
    await expect(form.getByText(t('webhooks.endpoints.errors.urlNotPublic'))).toBeVisible();
    await expect(form.getByText(t('webhooks.endpoints.errors.descriptionTooLong'))).toHaveCount(0);
    expect(posted).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    // A tab inside the address (the URL parser would drop it; the server refuses it): an invalid address,
    // said by the form before anything is sent.
    await url.fill('https://hooks.pub\tlic.example/x');
    await description.fill('ERP da matriz');
    await create.click();
    await expect(form.getByText(t('webhooks.endpoints.errors.urlInvalid'))).toBeVisible();
    // A control character in the description: its own words, not "longer than 200 characters".
    await url.fill('https://hooks.public.example/x');
    await description.fill('ERP\u0007 da matriz');
    await create.click();
    await expect(form.getByText(t('webhooks.endpoints.errors.descriptionInvalid'))).toBeVisible();
    await expect(form.getByText(t('webhooks.endpoints.errors.descriptionTooLong'))).toHaveCount(0);
    // Longer than 200 characters: said, not silently cut.
    await description.fill('a'.repeat(201));
    await create.click();
    await expect(form.getByText(t('webhooks.endpoints.errors.descriptionTooLong'))).toBeVisible();
    expect(posted).toBe(1);
    if (process.env.WEBHOOK_ATTACK_SHOTS)
      for (const [width, scheme] of [
        [1366, 'light'],
        [390, 'dark'],
      ] as const) {
        await page.setViewportSize({ width, height: 800 });
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: `${process.env.WEBHOOK_ATTACK_SHOTS}/form-${String(width)}-${scheme}.png` });
      }

    // Nothing registered.
    await form.getByRole('button', { name: t('common.cancel') }).click();
    await expect(dialog.getByRole('listitem', { name: /169\.254|public\.example/ })).toHaveCount(0);
  });
});
