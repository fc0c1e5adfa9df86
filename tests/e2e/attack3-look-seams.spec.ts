import { tenantPath, pageTitle, submitLogin } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';

/**
 * The prerendered login page's seams with the look cookie (src/domain/look-cookie.ts) and the entry
 * (src/app/main.tsx): a tab without frames, and a browser whose localStorage throws.
 */
test.describe('prerendered login page, odd browsers', () => {
  test('a tab that paints no frame (hidden) starts the app by the timer and hydrates the page', async ({
    page,
    app,
  }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    // A hidden tab runs no animation frame callbacks.
    await page.addInitScript(() => {
      window.requestAnimationFrame = () => 0;
    });
    await page.goto(`${app.origin}${tenantPath('/login')}?to=%2Ftenants`);
    const submit = page.getByRole('button', { name: t('auth.login.submit'), exact: true });
    await expect(submit).toBeEnabled();
    await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'login pt-BR light mail');
    await submitLogin(page, app.admin);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/tenants'));
    expect(problems).toEqual([]);
  });

  test('where localStorage throws, an English dark cookie gets its page, replaced by the pt-BR light app, and the cookie follows', async ({
    page,
    app,
  }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      });
    });
    await page.context().addCookies([{ name: 'panel_look', value: 'en.dark', url: app.origin }]);
    // The page the server sends with that cookie is the English dark one.
    const sent = await page.request.get(`${app.origin}${tenantPath('/login')}`);
    expect(await sent.text()).toContain('data-prerendered="login en dark mail"');
    await page.goto(`${app.origin}${tenantPath('/login')}?to=%2Ftenants`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('auth.login.title'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
    await expect(page).toHaveTitle(`${t('routes.login')} · ${t('app.name')}`);
    expect(await page.evaluate(() => document.documentElement.classList.length)).toBe(1);
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe('light');
    await expect
      .poll(async () => (await page.context().cookies()).find((c) => c.name === 'panel_look')?.value)
      .toBe('pt-BR.light');
    await submitLogin(page, app.admin);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/tenants'));
    await expect(pageTitle(page)).toHaveText(t('routes.tenants'));
    expect(problems).toEqual([]);
  });
});
