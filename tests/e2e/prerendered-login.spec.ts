import { tenantPath, pageTitle, submitLogin, holdScripts } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { startServer, type RunningServer } from './support/server';

/**
 * The login page's largest contentful paint (docs/performance.md): the server sends `/{tenant}/login` with the form already rendered at build
 * time (dist/web/login.<locale>.<theme>.<mail>.html, the visitor's look: src/domain/look-cookie.ts), and the SPA hydrates it. Only the login page: any other address gets
 * the empty shell, so a signed-in reload never flashes a login form.
 */
test.describe('prerendered login page', () => {
  test('the login page arrives rendered, the others do not', async ({ page, app }) => {
    const login = await page.request.get(`${app.origin}${tenantPath('/login')}?to=%2Ftenants`);
    const html = await login.text();
    expect(html).toContain('data-prerendered="login pt-BR light mail"');
    expect(html).toContain(t('auth.login.title'));
    expect(html).not.toMatch(/\sstyle=/);
    for (const path of ['/', '/tenants', '/users']) {
      const other = await (await page.request.get(`${app.origin}${tenantPath(path)}`)).text();
      expect(other, path).not.toContain('data-prerendered');
      expect(other, path).not.toContain(t('auth.login.title'));
    }
  });

  test('without scripts the fields take typing but nothing can be sent (no GET with the password)', async ({
    browser,
    app,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${app.origin}${tenantPath('/login')}`);
      const url = page.url();
      await expect(page.getByRole('heading', { level: 1, name: t('auth.login.title') })).toBeVisible();
      const email = page.getByRole('textbox', { name: t('auth.login.email'), exact: true });
      await email.fill(app.admin.email);
      await expect(email).toHaveValue(app.admin.email);
      await expect(page.getByRole('button', { name: t('auth.login.submit'), exact: true })).toBeDisabled();
      // Enter in a field submits through the default button; it is disabled, so nothing leaves.
      await email.press('Enter');
      await page.waitForTimeout(300);
      expect(page.url()).toBe(url);
    } finally {
      await context.close();
    }
  });

  test('what is typed before the script has run is kept and signs in', async ({ page, app }) => {
    // Hold the scripts back until the form has been filled, as on a slow network.
    const release = await holdScripts(page);
    await page.goto(`${app.origin}${tenantPath('/login')}?to=%2Ftenants`, { waitUntil: 'commit' });
    const email = page.getByRole('textbox', { name: t('auth.login.email'), exact: true });
    const submit = page.getByRole('button', { name: t('auth.login.submit'), exact: true });
    await email.fill(app.admin.email);
    await page.getByRole('textbox', { name: t('auth.login.password'), exact: true }).fill(app.admin.password);
    await expect(submit).toBeDisabled();
    release();
    await expect(submit).toBeEnabled();
    await expect(email).toHaveValue(app.admin.email);
    await submit.click();
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/tenants'));
    await expect(pageTitle(page)).toHaveText(t('routes.tenants'));
  });

  test('hydrates without errors or CSP violations, focuses the e-mail field and signs in', async ({ page, app }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${app.origin}${tenantPath('/login')}?to=%2Ftenants`);
    const email = page.getByRole('textbox', { name: t('auth.login.email'), exact: true });
    await expect(email).toBeEnabled();
    await expect(email).toBeFocused();
    await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'login pt-BR light mail');
    await submitLogin(page, app.admin);
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/tenants'));
    await expect(pageTitle(page)).toHaveText(t('routes.tenants'));
    expect(problems).toEqual([]);
  });

  test('a visitor who chose English and the dark theme gets their page prerendered: English and dark before any script ran, then hydrated', async ({
    page,
    app,
  }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${app.origin}${tenantPath('/login')}`);
    await page.getByRole('combobox', { name: t('shell.language') }).selectOption('en');
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await expect
      .poll(async () => (await page.context().cookies()).find((c) => c.name === 'panel_look')?.value)
      .toBe('en.dark');
    // The next visit: the scripts held back, the page is already the visitor's.
    const release = await holdScripts(page);
    await page.reload({ waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in to the panel');
    await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'login en dark mail');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator('meta[name="color-scheme"]')).toHaveAttribute('content', 'dark');
    // The dark theme's page background, painted before any script ran.
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
    expect(r + g + b, background).toBeLessThan(3 * 96);
    await page.screenshot({ path: test.info().outputPath('en-dark-before-scripts.png') });
    release();
    await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toBeFocused();
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeEnabled();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in to the panel');
    expect(await page.evaluate(() => document.documentElement.classList.length)).toBe(1);
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe('dark');
    expect(problems).toEqual([]);
  });
});

test.describe('prerendered login page, on a server that cannot send mail', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    // As in production without SMTP_URL (docs/support-desk.md): reset links are disabled.
    server = await startServer({
      NODE_ENV: 'production',
      SEED_DEMO: '1',
      WEBHOOK_ALLOW_LOOPBACK: '',
      FAULT_INJECTION: '',
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('says why "Esqueci minha senha" is off before any script ran, hydrates that page, and asks nothing', async ({
    page,
  }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/password-reset')) asked.push(request.url());
    });
    const release = await holdScripts(page);
    await page.goto(`${server.origin}${tenantPath('/login')}`, { waitUntil: 'commit' });
    const forgot = page.getByRole('button', { name: t('auth.forgot.link'), exact: true });
    await expect(forgot).toBeDisabled();
    await expect(forgot).toHaveAccessibleDescription(t('auth.forgot.disabled'));
    await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'login pt-BR light no-mail');
    release();
    const email = page.getByRole('textbox', { name: t('auth.login.email'), exact: true });
    await expect(email).toBeFocused();
    await expect(page.getByRole('button', { name: t('auth.login.submit'), exact: true })).toBeEnabled();
    await expect(forgot).toBeDisabled();
    await expect(forgot).toHaveAccessibleDescription(t('auth.forgot.disabled'));
    await page.waitForTimeout(500);
    expect(asked).toEqual([]);
    expect(problems).toEqual([]);
  });
});
