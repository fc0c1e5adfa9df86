import { expect, type Page } from '@playwright/test';
import { t } from './i18n';

/** The seeded back-office tenant (the server's default `BACKOFFICE_TENANT`). */
export const TENANT = 'backoffice';

export interface Credentials {
  email: string;
  password: string;
}

/** Where the shared server runs and who may sign in, as global-setup.ts found them. */
export function sharedServer(): { origin: string; admin: Credentials; operator: Credentials } {
  const origin = process.env.E2E_ORIGIN;
  if (!origin)
    throw new Error('E2E_ORIGIN unset: run the suite with `npx playwright test` (global setup starts the server)');
  const logins = JSON.parse(process.env.E2E_LOGINS ?? '[]') as { email: string; role: string }[];
  const password = process.env.E2E_PASSWORD ?? '';
  return { origin, ...credentialsFrom(logins, password) };
}

/** The demo administrador and operador from a server banner's login list. */
export function credentialsFrom(
  logins: { email: string; role: string }[],
  password: string,
): { admin: Credentials; operator: Credentials } {
  const admin = logins.find((l) => l.role === 'administrador');
  const operator = logins.find((l) => l.role === 'operador');
  if (!admin || !operator || !password)
    throw new Error(`demo logins missing from the server banner: ${JSON.stringify(logins)}`);
  return { admin: { email: admin.email, password }, operator: { email: operator.email, password } };
}

/** `/backoffice/users` for `/users`. */
export function tenantPath(path: string, tenant = TENANT): string {
  return `/${tenant}${path.startsWith('/') ? path : `/${path}`}`;
}

/** Fills the login form and submits it (the page must show it). */
export async function submitLogin(page: Page, who: Credentials): Promise<void> {
  await page.getByRole('textbox', { name: t('auth.login.email'), exact: true }).fill(who.email);
  await page.getByRole('textbox', { name: t('auth.login.password'), exact: true }).fill(who.password);
  await page.getByRole('button', { name: t('auth.login.submit'), exact: true }).click();
}

/**
 * Signs in through the login screen and waits for the target screen's h1. `path` is tenant-relative
 * (default home); the login page gets it as `?to=`.
 */
export async function signIn(page: Page, origin: string, who: Credentials, path = '/'): Promise<void> {
  const to = path === '/' ? '' : `?to=${encodeURIComponent(path)}`;
  await page.goto(`${origin}${tenantPath('/login')}${to}`);
  await submitLogin(page, who);
  await expect(page).toHaveURL((url) => url.pathname === tenantPath(path.split('?')[0] ?? '/'));
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
}

/** The navbar's socket state text ("Conectado", …). */
export function connectionStatus(page: Page) {
  return page.getByRole('banner').getByRole('status');
}

/** The h1 of the current screen. */
export function pageTitle(page: Page) {
  return page.getByRole('main').getByRole('heading', { level: 1 });
}

/**
 * Holds the SPA's scripts back (as a slow network would) until the returned function is called: what a
 * prerendered page does before any script ran.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/static/js/**', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
