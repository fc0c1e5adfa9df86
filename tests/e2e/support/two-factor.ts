import { expect, type Page } from '@playwright/test';
import { totpCode } from '../../../packages/conformance/src/kit-client.js';
import type { Api } from './api';
import { submitLogin, type Credentials } from './app';
import { t } from './i18n';
import { createUser } from './users';

export { totpCode };

/** A password every journey user gets (strong, as the server asks). */
export const JOURNEY_PASSWORD = 'Pharm#cy!Blue-42';

/** A fresh operador of the back-office tenant that an administrator requires to enrol in two-factor. */
export async function userRequiredToEnrol(api: Api, tag: string): Promise<Credentials & { id: number; name: string }> {
  const user = await createUser(api, tag, JOURNEY_PASSWORD);
  await api.rest('PATCH', `/api/user-settings/${user.id}`, { two_factor_enrolment_required: true });
  return { ...user, password: JOURNEY_PASSWORD };
}

/** The code field of the login form's second step. */
export function codeField(page: Page) {
  return page.getByRole('textbox', { name: t('auth.twoFactor.code'), exact: true });
}

/**
 * Signs in as a user required to enrol and waits for the enrolment step (QR code and key); answers the
 * secret as the page shows it.
 */
export async function reachEnrolment(page: Page, origin: string, who: Credentials): Promise<string> {
  await page.goto(`${origin}/backoffice/login`);
  await submitLogin(page, who);
  await expect(page.getByRole('img', { name: t('twoFactor.qrAlt') })).toBeVisible();
  const secret = (await page.locator('code').first().textContent())?.replace(/\s+/g, '') ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  return secret;
}

/** Types a code into the second step and sends it. */
export async function sendCode(page: Page, code: string): Promise<void> {
  await codeField(page).fill(code);
  await page.getByRole('button', { name: t('auth.twoFactor.submit'), exact: true }).click();
}
