import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page, Route } from '@playwright/test';
import { supportPerson, supportUser } from '../../src/machines/test-support/support-fixtures';
import type { SupportPerson } from '../../src/machines/support/support-actors';
import { signIn } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { SIGN_IN_FAILURE_REASONS } from '../../server/src/base/sign-in-reasons';

/**
 * The support desk's two screens in the browser, populated: the search with people of several
 * tenants, the person page with every kind of attempt, sessions and history, and the action dialogs
 * (docs/support-desk.md). The desk's `/api/support/…` answers are scripted here in the browser
 * (`page.route`, contract-shaped fixtures of src/machines/test-support/support-fixtures.ts), so the
 * screens' layout, keyboard use and contrast are checked whatever the server holds; everything else
 * (sign-in, shell, socket) is the real server. a11y-screens.spec.ts visits both routes on the real
 * server. Screenshots at 1366×768 and 390×844, light and dark, into `screenshots/` (gitignored).
 */
const SHOTS = resolve(import.meta.dirname, '../../screenshots');
const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

test.use({ bypassCSP: true });
test.describe.configure({ mode: 'parallel' });

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();

const PEOPLE = [
  supportUser({ id: 12, isConnected: true, twoFactorEnabled: true, lastSignInAt: hoursAgo(3) }),
  supportUser({
    id: 13,
    name: 'Joaquim Pereira da Silva Albuquerque',
    username: 'joaquim.albuquerque',
    email: 'joaquim.pereira.albuquerque@drogaria-sul-do-brasil.test',
    tenantName: 'drogaria-sul-do-brasil',
    tenantDeleted: true,
    role: { id: 3, name: 'gerente', display_name: 'Gerente' },
    blocked: true,
    twoFactorEnrolmentRequired: true,
    lastSignInAt: null,
    deletedAt: hoursAgo(200),
  }),
];

// Every reason the server records (contracts/openapi.yaml `SignInFailureReason`), each shown translated.
const REASONS = SIGN_IN_FAILURE_REASONS;

const PERSON: SupportPerson = supportPerson({
  user: { id: 12, isConnected: true, twoFactorEnabled: true, lastSignInAt: hoursAgo(3) },
  attempts: [
    ...REASONS.map((reason, index) => ({
      id: 100 + index,
      at: hoursAgo(index / 4),
      success: false,
      reason,
      address: `203.0.113.${index + 1}`,
      claimed_ip: index % 3 === 0 ? `10.0.0.${index + 1}` : null,
    })),
    { id: 99, at: hoursAgo(3), success: true, reason: null, address: '198.51.100.4', claimed_ip: '198.51.100.4' },
  ],
  sessions: [
    {
      id: 'family-1',
      device: 'Chrome 131 · Windows',
      user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0',
      address: '203.0.113.7',
      started_at: hoursAgo(30),
      last_used_at: hoursAgo(0.2),
      remember: true,
    },
    {
      id: 'family-2',
      device: null,
      user_agent: null,
      address: '2001:db8:85a3::8a2e:370:7334',
      started_at: hoursAgo(5),
      last_used_at: hoursAgo(1),
      remember: false,
    },
  ],
  audit: [
    {
      id: 501,
      at: hoursAgo(2),
      actor_user_id: 1,
      actor_name: 'Ana Administradora',
      actor_email: 'admin@demo.local',
      actor_tenant_id: 1,
      actor_tenant_name: 'backoffice',
      actor_staff: true,
      address: '198.51.100.9',
      request_id: 'req-1',
      operation: 'user.throttle-lift',
      target_type: 'user',
      target_id: 12,
      target_name: 'Joana Silva',
      tenant_id: 2,
      tenant_name: 'farmacia-central',
      changes: [],
      undoable_until: null,
      undone_by: null,
      undo_of: null,
    },
  ],
});

/** Scripts the desk's answers: the search filters {@link PEOPLE}; the person is {@link PERSON}; actions answer it. */
async function scriptDesk(page: Page): Promise<void> {
  await page.route(/\/api\/support\/users(\?|\/|$)/, async (route: Route) => {
    const url = new URL(route.request().url());
    const json = (body: unknown, status = 200) =>
      route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
    if (url.pathname === '/api/support/users') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      return json({ data: PEOPLE.filter((p) => `${p.name} ${p.email}`.toLowerCase().includes(q)), limit: 20 });
    }
    if (url.pathname.endsWith('/block'))
      return json({ message: 'Forbidden', reason: 'only an administrador may change an administrador' }, 403);
    return json(PERSON);
  });
}

async function shoot(page: Page, name: string, theme: string, serious: string[]): Promise<void> {
  serious.push(...(await seriousViolations(page)).map((v) => `${name} (${theme}): ${v}`));
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(200);
    await page.screenshot({
      path: resolve(SHOTS, `${name}-${theme}-${viewport.width}x${viewport.height}.png`),
      animations: 'disabled',
      caret: 'hide',
      // The whole page: the person page's sections go well below the fold.
      fullPage: true,
    });
  }
  await page.setViewportSize(VIEWPORTS[0]);
}

for (const theme of ['light', 'dark'] as const) {
  test(`support desk, ${theme}: search, person page and dialogs by keyboard; axe finds no serious violation`, async ({
    page,
    app,
  }) => {
    test.setTimeout(120_000);
    mkdirSync(SHOTS, { recursive: true });
    await useTheme(page, theme);
    await scriptDesk(page);
    const serious: string[] = [];
    await signIn(page, app.origin, app.admin, '/support');

    // The box has focus: typing searches, Enter on a row opens the person. Typed once it has it (keys
    // pressed while the screen's chunk still loads go to the page before it: the run under load lost "jo").
    await expect(page.getByRole('searchbox', { name: t('support.search.label') })).toBeFocused();
    await page.keyboard.type('jo');
    const grid = page.getByRole('grid', { name: t('support.search.tableLabel') });
    await expect(grid.getByRole('row')).toHaveCount(3);
    await expect(page).toHaveURL(/\/support\?q=jo$/);
    await shoot(page, 'support-desk-search', theme, serious);

    await page.keyboard.press('Tab');
    await expect(grid.getByRole('row').nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/support\/users\/12\?q=jo$/);
    await expect(page.getByRole('heading', { level: 2, name: /Joana Silva/ })).toBeVisible();
    await expect(page.getByRole('grid', { name: t('support.attempts.tableLabel') }).getByRole('row')).toHaveCount(
      REASONS.length + 2,
    );
    await shoot(page, 'support-desk-person', theme, serious);

    await page.getByRole('button', { name: t('support.actions.temporaryPassword') }).click();
    const dialog = page.getByRole('dialog', {
      name: t('support.dialogs.temporaryPasswordTitle', { name: 'Joana Silva' }),
    });
    // The password input has no textbox role: found by its label, as the user form's tests do.
    await dialog.getByLabel(t('support.dialogs.temporaryPasswordField'), { exact: false }).first().fill('abc12345');
    await dialog.getByRole('button', { name: t('support.dialogs.temporaryPasswordSubmit') }).click();
    await expect(dialog.getByText(t('users.form.passwordWeak'))).toBeVisible();
    await shoot(page, 'support-desk-temporary-password', theme, serious);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: t('support.actions.block'), exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: t('support.dialogs.blockTitle', { name: 'Joana Silva' }) });
    await confirm.getByRole('button', { name: t('support.dialogs.blockConfirm') }).click();
    // The dialog's own refusal: the toast region (role="alert" too) renders inside an open modal, and the
    // sign-in's toast may still be shown.
    await expect(confirm.getByRole('alert').filter({ hasText: t('access.actOnAdministrador') })).toHaveText(
      t('access.actOnAdministrador'),
    );
    await shoot(page, 'support-desk-block-refused', theme, serious);

    expect(serious, 'serious or critical axe violations').toEqual([]);
  });
}
