import type { Page } from '@playwright/test';
import config from '../../playwright.config';
import { apiLogin } from './support/api';
import { submitLogin, tenantPath } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { stablePage, stableScreenshot } from './support/stable-server';
import { createUserWithRole } from './support/users';

/**
 * "Esqueci minha senha", the reset-password page and the new-password step of a sign-in
 * (docs/support-desk.md), light and dark: the real journey through the development server's mailbox
 * (`/dev/mailbox`, where a server without SMTP_URL sends its mail), axe on every state, and each state
 * at 1366×768 and 390×844 compared with its committed baseline (tests/e2e/__screenshots__/; docs/architecture.md,
 * "Screenshots").
 */
const LAUNCH = config.use?.launchOptions ?? {};

// axe is injected, which the server's CSP (script-src 'self') would refuse; whole-tile rasters keep the
// screenshots the same on every run (as tests/e2e/a11y-screens.spec.ts).
test.use({ bypassCSP: true });
test.use({ launchOptions: { ...LAUNCH, args: [...(LAUNCH.args ?? []), '--disable-partial-raster'] } });
const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;
const PASSWORD = 'Pharm#cy!Blue';
const NEW_PASSWORD = 'Nova#Senha!Verde';

/** The link of the newest message to `email` in the development mailbox, read from its text part. */
async function linkFromMailbox(page: Page, origin: string, email: string): Promise<string> {
  let href: string | undefined;
  await expect(async () => {
    await page.goto(`${origin}/dev/mailbox`);
    href =
      (await page.getByRole('row').filter({ hasText: email }).first().getByRole('link').getAttribute('href')) ??
      undefined;
    expect(href).toBeTruthy();
  }).toPass({ timeout: 10_000 });
  await page.goto(`${origin}${href ?? ''}`);
  const text = (await page.locator('pre').first().textContent()) ?? '';
  const link = /(http\S+#token=[A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!link) throw new Error(`no link in the message: ${text}`);
  return link;
}

for (const theme of ['light', 'dark'] as const) {
  test(`forgot password, the reset page and the new-password step, ${theme}: the journey, axe, screenshots`, async ({
    page,
    stableApp: app,
  }) => {
    test.setTimeout(180_000);
    await stablePage(page);
    await useTheme(page, theme);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const user = await createUserWithRole(api, `reset${theme}`, PASSWORD, { name: 'operador' }, `reset${theme}`);
    const serious: string[] = [];
    const shoot = async (name: string) => {
      serious.push(...(await seriousViolations(page)).map((v) => `${name}: ${v}`));
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await stableScreenshot(page, `reset-${name}-${theme}-${viewport.width}`);
      }
      await page.setViewportSize(VIEWPORTS[0]);
    };

    // The login page's link opens the request form; the answer is the same for any e-mail.
    await page.goto(`${app.origin}${tenantPath('/login')}`);
    await page.getByRole('button', { name: t('auth.forgot.link'), exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: t('auth.forgot.title') })).toBeVisible();
    await shoot('forgot-form');
    await page.getByRole('textbox', { name: t('auth.forgot.email'), exact: true }).fill(user.email);
    await page.getByRole('button', { name: t('auth.forgot.submit'), exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: t('auth.forgot.sent') })).toBeVisible();
    await shoot('forgot-sent');

    // The e-mail's link opens the reset page; the token leaves the address at once.
    const link = await linkFromMailbox(page, app.origin, user.email);
    expect(new URL(link).origin).toBe(app.origin);
    expect(new URL(link).pathname).toBe(tenantPath('/reset-password'));
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: t('auth.reset.title') })).toBeVisible();
    await expect(page).toHaveURL((url) => url.hash === '');
    await shoot('page');
    const fields = {
      password: page.getByRole('textbox', { name: t('auth.reset.newPassword'), exact: true }),
      confirmation: page.getByRole('textbox', { name: t('auth.reset.confirm'), exact: true }),
    };
    await fields.password.fill('abc12345');
    await fields.confirmation.fill('abc12345');
    await page.getByRole('button', { name: t('auth.reset.submit'), exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: t('auth.passwordChange.weak') })).toBeVisible();
    await shoot('page-weak');
    await fields.password.fill(NEW_PASSWORD);
    await fields.confirmation.fill(NEW_PASSWORD);
    await page.getByRole('button', { name: t('auth.reset.submit'), exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/login'));
    await expect(page.getByRole('status').filter({ hasText: t('auth.reset.doneBody') })).toBeVisible();
    await shoot('login-done');

    // The same link again: dead, said plainly once the page sends it (nothing tells a dead link before).
    await page.goto(link);
    await fields.password.fill('Outra#Senha!Azul');
    await fields.confirmation.fill('Outra#Senha!Azul');
    await page.getByRole('button', { name: t('auth.reset.submit'), exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: t('auth.reset.invalidLink') })).toBeVisible();
    await shoot('page-dead-link');

    // The new password signs in (through the API: the page stays signed out for what follows).
    await apiLogin(app.origin, user.email, NEW_PASSWORD);

    // A server that cannot send mail: the link is disabled with the reason (its status answer, stubbed).
    await page.route('**/api/auth/password-reset', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ enabled: false }) }),
    );
    await page.goto(`${app.origin}${tenantPath('/login')}`);
    await expect(page.getByText(t('auth.forgot.disabled'), { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: t('auth.forgot.link'), exact: true })).toBeDisabled();
    await shoot('login-disabled');
    await page.unroute('**/api/auth/password-reset');

    // The new-password step of a sign-in with a temporary password: the server's first answer says the
    // password is temporary (stubbed: the desk's action that sets one is another screen's); the step's
    // own checks, then the same sign-in goes on with the new password.
    let first = true;
    await page.route('**/api/auth/login', async (route) => {
      if (!first) return route.continue();
      first = false;
      return route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'password_change_required', message: 'temporary' }),
      });
    });
    await page.goto(`${app.origin}${tenantPath('/login')}`);
    await submitLogin(page, { email: user.email, password: NEW_PASSWORD });
    await expect(page.getByRole('heading', { level: 1, name: t('auth.passwordChange.title') })).toBeVisible();
    const change = {
      password: page.getByRole('textbox', { name: t('auth.passwordChange.newPassword'), exact: true }),
      confirmation: page.getByRole('textbox', { name: t('auth.passwordChange.confirm'), exact: true }),
    };
    // The step is a chunk of its own: its fields, not the loading text, in the screenshot.
    await expect(change.confirmation).toBeVisible();
    await shoot('change-step');
    await change.password.fill('Outra#Senha!Azul');
    await change.confirmation.fill('Outra#Senha!Roxa');
    await page.getByRole('button', { name: t('auth.passwordChange.submit'), exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: t('auth.passwordChange.mismatch') })).toBeVisible();
    await shoot('change-mismatch');
    await change.password.fill(NEW_PASSWORD);
    await change.confirmation.fill(NEW_PASSWORD);
    await page.getByRole('button', { name: t('auth.passwordChange.submit'), exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: t('auth.passwordChange.same') })).toBeVisible();
    await change.password.fill('Outra#Senha!Azul');
    await change.confirmation.fill('Outra#Senha!Azul');
    await page.getByRole('button', { name: t('auth.passwordChange.submit'), exact: true }).click();
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    expect(serious, 'serious or critical axe violations').toEqual([]);
  });
}
