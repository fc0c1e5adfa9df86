import config from '../../playwright.config';
import { cnpjCheckDigits } from '../../src/domain/cnpj';
import { apiLogin } from './support/api';
import { signIn, tenantPath } from './support/app';
import { useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { stablePage } from './support/stable-server';
import { createTenant, TEST_TENANT_PREFIX } from './support/tenants';
import { toast } from './support/toast';
import { expectNoViolations, navigateInApp, presenceAnswered, settle, shootBoth } from './support/visual';

/**
 * The dialogs, menus and toasts visual-states.spec.ts does not shoot, light and dark, at 1366 and 390 px
 * wide, compared with committed baselines (tests/e2e/__screenshots__/visual-dialogs.spec.ts/;
 * docs/architecture.md, "Screenshots"): the user create form empty, refusing an empty submit, and the
 * toast after its save; the tenant create and set-plan forms; a bulk action's review; the saved views
 * menu and the columns chooser; the new-connection form. axe runs after each shot. The server is the
 * test's own with the clocks fixed (support/stable-server.ts).
 */
const LAUNCH = config.use?.launchOptions ?? {};
// Whole tiles re-rastered after a viewport change (as in a11y-screens.spec.ts): no anti-aliasing drift.
test.use({ launchOptions: { ...LAUNCH, args: [...(LAUNCH.args ?? []), '--disable-partial-raster'] } });
// The server's CSP forbids injected scripts (script-src 'self'); axe is injected here, after each shot.
test.use({ bypassCSP: true });
test.describe.configure({ mode: 'parallel' });

/** A valid CNPJ (check digits from the app's own rule) for the tenant the shots act on. */
const VISUAL_CNPJ = `227778880001${cnpjCheckDigits('227778880001')}`;

for (const theme of ['light', 'dark'] as const) {
  test(`create and plan forms, a bulk review, the views and columns menus, the connection form and a user's toast, ${theme}: as the baselines, axe clean`, async ({
    page,
    stableApp: app,
  }) => {
    test.setTimeout(300_000);
    await stablePage(page);
    await useTheme(page, theme);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    // The server is this test's own: the same names and CNPJ on every run.
    const tenant = await createTenant(api, `${TEST_TENANT_PREFIX}dialogs`, ['chat'], VISUAL_CNPJ);
    const instance = await api.rest<{ name: string }>('POST', '/api/instance', {
      name: 'WhatsApp Visual',
      tenantName: tenant,
      isOfficial: false,
      isUnlimited: false,
    });

    const presence = presenceAnswered(page);
    await signIn(page, app.origin, app.admin);
    await presence;
    await settle(page);
    const main = page.getByRole('main');

    // The user create form: empty, then refusing an empty submit, then saved and its toast.
    await navigateInApp(page, tenantPath('/users'));
    await settle(page);
    await main
      .getByRole('button', { name: t('users.actions.create'), exact: true })
      .first()
      .click();
    const userForm = page.getByRole('dialog', { name: t('users.form.createTitle') });
    await expect(userForm).toBeVisible();
    await settle(page);
    await shootBoth(page, `dialog-user-create-${theme}`, { layer: true });
    await userForm.getByRole('button', { name: t('users.form.submitCreate'), exact: true }).click();
    await expect(userForm.getByText(t('users.form.required')).first()).toBeVisible();
    await settle(page);
    await shootBoth(page, `dialog-user-create-errors-${theme}`, { layer: true });
    await userForm.getByRole('textbox', { name: t('users.form.name'), exact: true }).fill('Helena Prado');
    await userForm.getByRole('textbox', { name: t('users.form.username'), exact: true }).fill('helena.prado');
    await userForm.getByRole('textbox', { name: t('users.form.email'), exact: true }).fill('helena.prado@visual.local');
    await userForm.getByRole('textbox', { name: t('users.form.password'), exact: true }).fill('Pharm#cy!Blue');
    await userForm.getByRole('button', { name: new RegExp(t('users.form.role')) }).click();
    await page
      .getByRole('listbox', { name: t('users.form.role') })
      .getByRole('option', { name: 'Operador', exact: true })
      .click();
    await userForm.getByRole('button', { name: t('users.form.submitCreate'), exact: true }).click();
    await expect(userForm).toBeHidden();
    const created = toast(page, t('users.notices.created'));
    await expect(created).toBeVisible();
    await settle(page);
    // The pointer on the toast pauses its 5 s timer (React Aria's toast region) for the shots.
    await shootBoth(page, `toast-user-created-${theme}`, {
      layer: true,
      prepare: () => created.getByText(t('users.notices.created')).hover(),
    });
    await page.mouse.move(0, 0);
    await expect(created).toBeHidden();

    // The saved views menu (none saved yet) and the columns chooser.
    await page.getByRole('button', { name: t('views.menu'), exact: true }).click();
    const viewsMenu = page.getByRole('menu', { name: t('views.menuLabel') });
    await expect(viewsMenu).toBeVisible();
    await settle(page);
    await shootBoth(page, `menu-views-${theme}`, { layer: true });
    await page.keyboard.press('Escape');
    await expect(viewsMenu).toBeHidden();
    await page.getByRole('button', { name: t('views.columns.button') }).click();
    const chooser = page.getByRole('dialog', { name: t('views.columns.title') });
    await expect(chooser).toBeVisible();
    await settle(page);
    await shootBoth(page, `menu-columns-${theme}`, { layer: true });
    await page.keyboard.press('Escape');
    await expect(chooser).toBeHidden();

    // The tenant create form.
    await navigateInApp(page, tenantPath(`/tenants?search=${tenant}`));
    await settle(page);
    await main.getByRole('button', { name: t('tenants.screen.create'), exact: true }).click();
    const tenantForm = page.getByRole('dialog', { name: t('tenants.screen.form.createTitle') });
    await expect(tenantForm).toBeVisible();
    await settle(page);
    await shootBoth(page, `dialog-tenant-create-${theme}`, { layer: true });
    await page.keyboard.press('Escape');
    await expect(tenantForm).toBeHidden();

    // The set-plan form on a tenant.
    await page.getByRole('button', { name: t('tenants.screen.actions.more', { name: tenant }) }).click();
    await page.getByRole('menuitem', { name: t('tenants.screen.actions.setPlan'), exact: true }).click();
    const planForm = page.getByRole('dialog', { name: t('tenants.screen.form.planTitle', { name: tenant }) });
    await expect(planForm).toBeVisible();
    await settle(page);
    await shootBoth(page, `dialog-tenant-plan-${theme}`, { layer: true });
    await page.keyboard.press('Escape');
    await expect(planForm).toBeHidden();

    // A bulk action's review (its dry run answered) on the one tenant the search finds.
    await page.getByRole('checkbox', { name: t('ui.table.selectAll') }).check();
    await page.getByLabel(t('bulkAction.tenants.chooseFeature')).selectOption('chatbot');
    await page.getByRole('button', { name: t('bulkAction.tenants.featureOn'), exact: true }).click();
    const action = t('bulkAction.tenants.featureOnTitle', { feature: t('features.options.chatbot') });
    const review = page.getByRole('dialog', { name: t('bulkAction.title.review', { action }) });
    await expect(review.getByText(t('bulkAction.group.change', { n: '1' }))).toBeVisible();
    await settle(page);
    await shootBoth(page, `dialog-bulk-review-${theme}`, { layer: true });
    await page.keyboard.press('Escape');
    await expect(review).toBeHidden();

    // The new-connection form, from the tenant's instances panel.
    await navigateInApp(page, tenantPath(`/tenants?panel=instances&tenant=${tenant}`));
    await settle(page);
    await page.getByRole('button', { name: t('instances.connections.createLabel', { name: instance.name }) }).click();
    const connection = page.getByRole('dialog', {
      name: t('instances.connections.form.createTitle', { instance: instance.name }),
    });
    await expect(connection).toBeVisible();
    await settle(page);
    await shootBoth(page, `dialog-connection-create-${theme}`, { layer: true });
    expectNoViolations(page);
  });
}
