import { visibleMenu } from '../../src/domain/menu';
import { apiLogin } from './support/api';
import { pageTitle, signIn, tenantPath } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { createRoleWith, createUserWithRole } from './support/users';

/**
 * The sidebar and the pages inside the shell (docs/panel.md, Navigation and pages inside the shell):
 * every entry of the administrador on a 1366×768 screen without scrolling; 404, not-authorized and
 * coming-soon keep the menu; not-authorized names the permission and who can grant it.
 */
test.use({ bypassCSP: true });

const ADMIN_ENTRIES = visibleMenu({
  authenticated: true,
  role: 'administrador',
  permittedRoutes: [],
  staff: true,
}).flatMap((section) => section.items);

test.describe('navigation', () => {
  test('at 1366×768 the sidebar shows every entry of the administrador, one line each, without scrolling', async ({
    page,
    app,
  }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await signIn(page, app.origin, app.admin, '/users');
    const nav = page.getByRole('navigation', { name: t('shell.mainNavigation') });
    const links = nav.getByRole('link');
    await expect(links).toHaveCount(ADMIN_ENTRIES.length);
    for (const item of ADMIN_ENTRIES) {
      const link = nav.getByRole('link', { name: t(item.labelKey), exact: true });
      const box = await link.boundingBox();
      expect(box, item.id).not.toBeNull();
      expect(box!.y, item.id).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, `${item.id} below the fold`).toBeLessThanOrEqual(768);
      // One line: a wrapped label would make the row taller than the 30 px row.
      expect(box!.height, `${item.id} wraps`).toBeLessThanOrEqual(32);
    }
    // No label cut short (an ellipsis hides the end of the section's name).
    const cut = await nav.evaluate((el) =>
      [...el.querySelectorAll('a span')]
        .filter((span) => span.scrollWidth > span.clientWidth)
        .map((s) => s.textContent),
    );
    expect(cut).toEqual([]);
    const scrolls = await nav.evaluate((el) => el.scrollHeight > el.clientHeight);
    expect(scrolls).toBe(false);
    // No heading over a single entry.
    for (const heading of await nav.getByRole('heading').all()) {
      const group = heading.locator('xpath=..');
      expect(await group.getByRole('link').count(), await heading.innerText()).toBeGreaterThan(1);
    }
  });

  test('a coming-soon entry is badged and opens a page inside the shell that names the section', async ({
    page,
    app,
  }) => {
    await signIn(page, app.origin, app.admin);
    const nav = page.getByRole('navigation', { name: t('shell.mainNavigation') });
    const campaigns = nav.getByRole('link', { name: t('menu.sections.campaigns'), exact: true });
    await expect(campaigns).toHaveAccessibleDescription(t('menu.soon'));
    await campaigns.click();
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/pages/comingsoon'));
    const section = t('menu.sections.campaigns');
    await expect(pageTitle(page)).toHaveText(t('pages.comingSoon.sectionTitle', { section }));
    await expect(campaigns).toHaveAttribute('aria-current', 'page');
  });

  test('404 and not-authorized stay inside the shell; not-authorized names the permission', async ({ page, app }) => {
    await signIn(page, app.origin, app.operator);
    const nav = page.getByRole('navigation', { name: t('shell.mainNavigation') });
    await page.goto(`${app.origin}${tenantPath('/no/such/page')}`);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/pages/error-404'));
    await expect(pageTitle(page)).toHaveText(t('pages.notFound.title'));
    await expect(nav).toBeVisible();

    await page.goto(`${app.origin}${tenantPath('/users')}`);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/pages/not-authorized'));
    await expect(pageTitle(page)).toHaveText(t('pages.notAuthorized.title'));
    await expect(nav).toBeVisible();
    const main = page.getByRole('main');
    await expect(main).toContainText(
      t('pages.notAuthorized.needsPermission', { page: t('routes.users'), permission: 'users' }),
    );
    await expect(main).toContainText(t('pages.notAuthorized.askAdmin'));
    // The operador may not list users: nobody is named.
    await expect(main.getByRole('list', { name: t('pages.notAuthorized.grantors') })).toHaveCount(0);
  });

  test("a user who may list users is told which of the tenant's administradores can grant the permission", async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const role = await createRoleWith(api, 'navusers', ['users']);
    const password = app.admin.password;
    const user = await createUserWithRole(api, 'navusers', password, { id: role.id });
    await useTheme(page, 'dark');
    await signIn(page, app.origin, { email: user.email, password });
    await page.goto(`${app.origin}${tenantPath('/tenants')}`);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/pages/not-authorized'));
    const main = page.getByRole('main');
    await expect(main).toContainText(
      t('pages.notAuthorized.needsPermission', { page: t('routes.tenants'), permission: 'tenants' }),
    );
    const grantors = main.getByRole('list', { name: t('pages.notAuthorized.grantors') });
    await expect(grantors.getByRole('link', { name: app.admin.email })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the pages inside the shell, ${theme}: axe finds no serious or critical violation`, async ({ page, app }) => {
      await useTheme(page, theme);
      await signIn(page, app.origin, app.operator);
      for (const path of [
        '/pages/error-404',
        '/pages/not-authorized?page=users',
        '/pages/comingsoon?section=campaigns',
        '/pages/error-500?request=abc-123',
      ]) {
        await page.goto(`${app.origin}${tenantPath(path)}`);
        await expect(pageTitle(page)).toBeVisible();
        await expect(page.getByRole('navigation', { name: t('shell.mainNavigation') })).toBeVisible();
        expect(await seriousViolations(page), path).toEqual([]);
      }
      await expect(page.getByRole('main').getByText('abc-123')).toBeVisible();
    });
  }
});
