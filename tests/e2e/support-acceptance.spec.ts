import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { parseMessage } from '../../server/src/mail/mime';
import { apiLogin, type Api } from './support/api';
import { credentialsFrom, pageTitle, signIn, submitLogin, tenantPath, type Credentials } from './support/app';
import { expect, test } from './support/fixtures';
import { escapeRegExp, t } from './support/i18n';
import { startServer, type RunningServer } from './support/server';
import { freshCnpj, uniquePrefix } from './support/tenants';
import { createRoleWith, createUserWithRole } from './support/users';

/**
 * The support desk's acceptance journey (docs/support-desk.md) in Chromium, against a server of the
 * spec's own that sends its mail through real SMTP (SMTP_URL) to a receiver (smtp-server) this spec
 * starts on 127.0.0.1: a staff administrador of the back office finds people of another tenant by part
 * of their e-mail and, from the person page, lifts a throttle, sets a temporary password, sends a reset
 * link and restores a deleted user; each person then signs in. The bad inputs (a reused link, a weak
 * temporary password, a non-administrador acting on an administrador) are refused with their message
 * and change nothing. The stage (users, failed sign-ins, a deletion, the old sessions) is set through
 * the API; everything staff and the people do is done in the browser.
 */

const PASSWORD = 'Pharm#cy!Blue';
const TEMPORARY = 'Temp#Senha!Roxa';
const CHOSEN = 'Nova#Senha!Verde';
const OTHER = 'Outra#Senha!Azul';

interface Received {
  recipients: string[];
  text: string | null;
}

interface Receiver {
  port: number;
  messages: Received[];
  close(): Promise<void>;
}

/** An SMTP receiver on 127.0.0.1 (an ephemeral port) keeping every message it gets, its text part read. */
async function startReceiver(): Promise<Receiver> {
  const messages: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          recipients: session.envelope.rcptTo.map((r) => r.address),
          text: parseMessage(Buffer.concat(chunks).toString('utf8')).text,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let receiver: Receiver;
let server: RunningServer;
let admin: Credentials;
let staffApi: Api;
let tenant: string;
let tenantApi: Api;
let n = 0;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  receiver = await startReceiver();
  server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${String(receiver.port)}` });
  admin = credentialsFrom(server.logins, server.password).admin;
  staffApi = await apiLogin(server.origin, admin.email, admin.password);
  tenant = uniquePrefix('desk');
  // Room for every person of the journeys (createTenant's limit of 5 would refuse the last ones).
  await staffApi.rest('POST', '/api/tenant', {
    name: tenant,
    cnpj: freshCnpj(),
    features: ['chat'],
    template: 'farmacia',
    pool: 'pool-a',
    userLimit: 20,
    plan: 'starter',
    ticketLimit: 1000,
  });
  tenantApi = await apiLogin(server.origin, admin.email, admin.password, tenant);
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

interface Person {
  id: number;
  name: string;
  email: string;
  /** A part of the e-mail found in neither the name nor the username. */
  emailPart: string;
}

/** A person of the other tenant (role `operador` unless named), with an e-mail that only its own part matches. */
async function person(tag: string, role = 'operador'): Promise<Person> {
  n += 1;
  const letters = `${tag}${'abcdefghij'.charAt(n % 10)}${Date.now().toString(36).replace(/\d/g, '')}`;
  const emailPart = `pw.${letters}@`;
  const { roles } = await tenantApi.graphql<{ roles: { id: string; name: string }[] }>(
    'query roles { roles { id name } }',
    {},
    'roles',
  );
  const roleId = Number(roles.find((r) => r.name === role)?.id);
  const name = `Pessoa ${tag} ${String(n)}`;
  const { newUser } = await tenantApi.graphql<{ newUser: { id: string } }>(
    'mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!) { newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id) { id } }',
    {
      username: `u${String(n)}${tag}`,
      name,
      email: `${emailPart}farmacia.test`,
      password: PASSWORD,
      role_id: roleId,
    },
    'newUser',
  );
  return { id: Number(newUser.id), name, email: `${emailPart}farmacia.test`, emailPart };
}

/** A sign-in through REST, as a client would: the status and the body. */
async function restLogin(email: string, password: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${server.origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, ip: null, ...extra }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface SupportPersonAnswer {
  mustChangePassword: boolean;
  throttle: { throttled: boolean; failures: number };
  user: { deletedAt: string | null };
}

const supportPerson = (id: number) => staffApi.rest<SupportPersonAnswer>('GET', `/api/support/users/${String(id)}`);

/** Finds `who` at the desk by part of the e-mail (a row with the tenant) and follows its link. */
async function findAndOpen(page: Page, who: Person): Promise<void> {
  const box = page.getByRole('searchbox', { name: t('support.search.label') });
  await box.fill(who.emailPart);
  const grid = page.getByRole('grid', { name: t('support.search.tableLabel') });
  const row = grid.getByRole('row').filter({ hasText: who.email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(tenant);
  await row.getByRole('link', { name: t('support.values.open', { name: who.name }) }).click();
  await expect(page).toHaveURL((url) => url.pathname === tenantPath(`/support/users/${String(who.id)}`));
}

/** {@link findAndOpen}, then the person page shows the person. */
async function openPerson(page: Page, who: Person): Promise<void> {
  await findAndOpen(page, who);
  // The heading also holds the person's badges (deleted, blocked, throttled) after the name.
  await expect(
    page.getByRole('heading', { level: 2, name: new RegExp(`^${escapeRegExp(who.name)}\\b`) }),
  ).toBeVisible();
}

/** A browser context of the person's own (signed out), failing the test on an uncaught page error as the fixture does. */
async function personContext(browser: Browser, errors: string[]): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  context.on('weberror', (error) => errors.push(error.error().message));
  return context;
}

test.describe('support desk acceptance (docs/support-desk.md)', () => {
  test('finds a throttled person of another tenant by part of the e-mail, sees why, lifts the throttle; the person signs in at once', async ({
    page,
  }) => {
    const who = await person('trava');
    for (let i = 0; i < 10; i += 1) expect((await restLogin(who.email, `Wrong#Guess!${String(i)}x`)).status).toBe(401);
    // Throttled now: even the right password is refused, and that refusal is the last attempt.
    expect((await restLogin(who.email, PASSWORD)).status).toBe(429);

    await signIn(page, server.origin, admin, '/support');
    await openPerson(page, who);
    const attempts = page.getByRole('grid', { name: t('support.attempts.tableLabel') });
    const last = attempts.getByRole('row').nth(1);
    await expect(last).toContainText(t('support.attempts.failure'));
    await expect(last).toContainText(t('support.reasons.throttled'));
    await expect(attempts.getByRole('row').nth(2)).toContainText(t('support.reasons.wrong_password'));
    await expect(page.getByText(t('support.throttle.failures', { count: 10 }))).toBeVisible();

    await page.getByRole('button', { name: t('support.actions.liftThrottle') }).click();
    await expect(page.getByRole('alertdialog').filter({ hasText: t('support.done.liftThrottle') })).toBeVisible();
    await expect(page.getByText(t('support.throttle.clear'))).toBeVisible();
    await expect(page.getByRole('button', { name: t('support.actions.liftThrottle') })).toBeDisabled();

    // At once: no wait for the window.
    expect((await restLogin(who.email, PASSWORD)).status).toBe(200);
  });

  test('a weak temporary password is refused; a strong one makes the next sign-in ask for a new password first', async ({
    page,
    browser,
  }) => {
    const who = await person('temporaria');
    await signIn(page, server.origin, admin, '/support');
    await openPerson(page, who);

    await page.getByRole('button', { name: t('support.actions.temporaryPassword') }).click();
    const dialog = page.getByRole('dialog', { name: t('support.dialogs.temporaryPasswordTitle', { name: who.name }) });
    // The password input has no textbox role: found by its label, as the user form's tests do.
    const field = dialog.getByLabel(t('support.dialogs.temporaryPasswordField'), { exact: false }).first();
    await field.fill('abc12345');
    await dialog.getByRole('button', { name: t('support.dialogs.temporaryPasswordSubmit') }).click();
    await expect(dialog.getByText(t('users.form.passwordWeak'))).toBeVisible();
    await expect(dialog).toBeVisible();
    // Nothing changed: no temporary password, the old one still signs in.
    expect((await supportPerson(who.id)).mustChangePassword).toBe(false);
    await expect(page.getByText(t('support.person.mustChange'))).toHaveCount(0);

    await field.fill(TEMPORARY);
    await dialog.getByRole('button', { name: t('support.dialogs.temporaryPasswordSubmit') }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('alertdialog').filter({ hasText: t('support.done.temporaryPassword') })).toBeVisible();
    await expect(page.getByText(t('support.person.mustChange'))).toBeVisible();

    const errors: string[] = [];
    const context = await personContext(browser, errors);
    try {
      const own = await context.newPage();
      await own.goto(`${server.origin}${tenantPath('/login', tenant)}`);
      await submitLogin(own, { email: who.email, password: TEMPORARY });
      // Before anything else: the login address still, asking for the new password.
      await expect(own.getByRole('heading', { level: 1, name: t('auth.passwordChange.title') })).toBeVisible();
      await expect(own).toHaveURL((url) => url.pathname === tenantPath('/login', tenant));
      await own.getByRole('textbox', { name: t('auth.passwordChange.newPassword'), exact: true }).fill(CHOSEN);
      await own.getByRole('textbox', { name: t('auth.passwordChange.confirm'), exact: true }).fill(CHOSEN);
      await own.getByRole('button', { name: t('auth.passwordChange.submit'), exact: true }).click();
      await expect(own).toHaveURL((url) => url.pathname === tenantPath('/', tenant));
      await expect(pageTitle(own)).toHaveText(t('routes.home'));
      expect(errors, 'uncaught exceptions in the person page').toEqual([]);
    } finally {
      await context.close();
    }
    expect((await restLogin(who.email, TEMPORARY)).status).toBe(401);
    expect((await restLogin(who.email, CHOSEN)).status).toBe(200);
    expect((await supportPerson(who.id)).mustChangePassword).toBe(false);
  });

  test('a reset link sent from the desk arrives by SMTP, sets a new password and ends the older sessions; a voided or reused link changes nothing', async ({
    page,
    browser,
  }) => {
    const who = await person('link');
    const older = await apiLogin(server.origin, who.email, PASSWORD);
    const userInfo = (token: string) =>
      fetch(`${server.origin}/api/auth/userInfo`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.status,
      );
    expect(await userInfo(older.token)).toBe(200);

    await signIn(page, server.origin, admin, '/support');
    await openPerson(page, who);
    // Two links: the newer voids the older (docs/support-desk.md, What voids a link).
    const mails = () => receiver.messages.filter((m) => m.recipients.includes(who.email));
    for (const count of [1, 2]) {
      await page.getByRole('button', { name: t('support.actions.resetLink') }).click();
      await expect(
        page
          .getByRole('alertdialog')
          .filter({ hasText: t('support.done.resetLink', { count: 30 }) })
          .first(),
      ).toBeVisible();
      await expect.poll(() => mails().length, { message: 'the reset e-mails at the SMTP receiver' }).toBe(count);
    }
    const [voided, link] = mails().map((m) => {
      const found = /(http\S+#token=[A-Za-z0-9_-]+)/.exec(m.text ?? '')?.[1];
      expect(found, `a link in the text part: ${m.text ?? '(none)'}`).toBeTruthy();
      expect(new URL(found ?? '').origin).toBe(server.origin);
      expect(new URL(found ?? '').pathname).toBe(tenantPath('/reset-password', tenant));
      return found ?? '';
    });
    expect(voided).not.toBe(link);

    const errors: string[] = [];
    const context = await personContext(browser, errors);
    try {
      // Each link in a tab of its own, as a mail client opens it; the newer one also in the tab of the
      // older, where only the fragment changes (src/ui/screens/login/reset-password.tsx starts over).
      const openLink = async (href: string) => {
        const tab = await context.newPage();
        await tab.goto(href);
        await expect(tab.getByRole('heading', { level: 1, name: t('auth.reset.title') })).toBeVisible();
        return tab;
      };
      const choose = async (tab: Page, password: string) => {
        await tab.getByRole('textbox', { name: t('auth.reset.newPassword'), exact: true }).fill(password);
        await tab.getByRole('textbox', { name: t('auth.reset.confirm'), exact: true }).fill(password);
        await tab.getByRole('button', { name: t('auth.reset.submit'), exact: true }).click();
      };

      // The older link: refused plainly, and nothing changed (the old password and session still work).
      const first = await openLink(voided ?? '');
      await choose(first, OTHER);
      await expect(first.getByRole('alert').filter({ hasText: t('auth.reset.invalidLink') })).toBeVisible();
      expect(await userInfo(older.token)).toBe(200);
      expect((await restLogin(who.email, OTHER)).status).toBe(401);
      expect((await restLogin(who.email, PASSWORD)).status).toBe(200);

      // The newer link opened in the same tab, after the older one's refusal: its form, not the refusal.
      await first.goto(link ?? '');
      await expect(first.getByRole('textbox', { name: t('auth.reset.newPassword'), exact: true })).toBeVisible();
      await expect(first.getByRole('alert').filter({ hasText: t('auth.reset.invalidLink') })).toHaveCount(0);
      await first.close();

      const own = await openLink(link ?? '');
      await choose(own, CHOSEN);
      await expect(own).toHaveURL((url) => url.pathname === tenantPath('/login', tenant));
      await expect(own.getByRole('status').filter({ hasText: t('auth.reset.doneBody') })).toBeVisible();

      // The older session is over.
      expect(await userInfo(older.token)).toBe(401);

      // The same link again: refused plainly, and the password stays the one just chosen.
      const again = await openLink(link ?? '');
      await choose(again, OTHER);
      await expect(again.getByRole('alert').filter({ hasText: t('auth.reset.invalidLink') })).toBeVisible();
      expect((await restLogin(who.email, OTHER)).status).toBe(401);

      // The person signs in with the new password in the browser.
      await own.goto(`${server.origin}${tenantPath('/login', tenant)}`);
      await submitLogin(own, { email: who.email, password: CHOSEN });
      await expect(own).toHaveURL((url) => url.pathname === tenantPath('/', tenant));
      await expect(pageTitle(own)).toHaveText(t('routes.home'));
      expect(errors, 'uncaught exceptions in the person page').toEqual([]);
    } finally {
      await context.close();
    }
    expect((await restLogin(who.email, PASSWORD)).status).toBe(401);
  });

  test('a deleted user is found, restored from the person page, and signs in', async ({ page }) => {
    const who = await person('volta');
    await tenantApi.graphql('mutation deleteUser($id: Int!) { deleteUser(id: $id) }', { id: who.id }, 'deleteUser');
    expect((await restLogin(who.email, PASSWORD)).status).toBe(401);

    await signIn(page, server.origin, admin, '/support');
    await openPerson(page, who);
    await expect(page.getByText(t('support.actions.deletedNote'))).toBeVisible();
    await page.getByRole('button', { name: t('support.actions.restore') }).click();
    await expect(page.getByRole('alertdialog').filter({ hasText: t('support.done.restore') })).toBeVisible();
    await expect(page.getByRole('button', { name: t('support.actions.restore') })).toHaveCount(0);
    expect((await supportPerson(who.id)).user.deletedAt).toBeNull();

    expect((await restLogin(who.email, PASSWORD)).status).toBe(200);
  });

  test('a staff member who is not an administrador is refused an administrador, with the reason', async ({ page }) => {
    const target = await person('chefe', 'administrador');
    const role = await createRoleWith(staffApi, 'desk', ['users']);
    const desk = await createUserWithRole(staffApi, 'desk', PASSWORD, { id: role.id });

    await signIn(page, server.origin, { email: desk.email, password: PASSWORD }, '/support');
    // The search lists the person; the page refuses with the reason and offers no action.
    await findAndOpen(page, target);
    await expect(page.getByText(t('access.actOnAdministrador'))).toBeVisible();
    await expect(page.getByRole('button', { name: t('support.actions.temporaryPassword') })).toHaveCount(0);
    // Nothing changed for the administrador: the old password signs in, no temporary one is set.
    expect((await supportPerson(target.id)).mustChangePassword).toBe(false);
    expect((await restLogin(target.email, PASSWORD)).status).toBe(200);
  });
});
