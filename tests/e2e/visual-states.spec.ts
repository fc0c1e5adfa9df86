import type { Request, Route } from '@playwright/test';
import config from '../../playwright.config';
import { cnpjCheckDigits } from '../../src/domain/cnpj';
import { apiLogin } from './support/api';
import { signIn, tenantPath } from './support/app';
import { useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { networkQuiet, stablePage } from './support/stable-server';
import { createTenant, TEST_TENANT_PREFIX } from './support/tenants';
import { toast } from './support/toast';
import { expectNoViolations, navigateInApp, presenceAnswered, settle, shootBoth } from './support/visual';

/**
 * The states a screen passes through, light and dark, at 1366 and 390 px wide, compared with committed
 * baselines (tests/e2e/__screenshots__/visual-states.spec.ts/; docs/architecture.md, "Screenshots"):
 * every list screen while its data loads (the request held), when it fails (a 500 with a request id)
 * and with nothing to show (a search or filter that matches nothing; the roles list, which has neither,
 * gets its own answer emptied); then the dialogs (delete confirmation, edit and create forms) and the
 * toasts after a save. The whole-screen shots are a11y-screens.spec.ts's; both run on a server of the
 * test's own with the clocks fixed (support/stable-server.ts).
 */
const LAUNCH = config.use?.launchOptions ?? {};
// Whole tiles re-rastered after a viewport change (as in a11y-screens.spec.ts): no anti-aliasing drift.
test.use({ launchOptions: { ...LAUNCH, args: [...(LAUNCH.args ?? []), '--disable-partial-raster'] } });
// The server's CSP forbids injected scripts (script-src 'self'); axe is injected here, after each shot.
test.use({ bypassCSP: true });
test.describe.configure({ mode: 'parallel' });

/** The request id the failed answers carry, as the server's x-request-id would. */
const REQUEST_ID = 'req-visual-0001';
/** A valid CNPJ (check digits from the app's own rule) for the tenant the edit dialog shows. */
const VISUAL_CNPJ = `114447770002${cnpjCheckDigits('114447770002')}`;

interface ListScreen {
  name: string;
  path: string;
  /** The screen's data request (the one held, failed or emptied). */
  data: (request: Request) => boolean;
  /** A search or filter of the screen that matches nothing; absent: the data answer is emptied. */
  nothing?: string;
  /** What shows in place of the rows when nothing matches. */
  emptyText: string;
}

const rest = (path: string) => (request: Request) => new URL(request.url()).pathname.endsWith(path);
const graphql = (operation: string) => (request: Request) =>
  new URL(request.url()).pathname.endsWith('/graphql') &&
  (request.postData() ?? '').includes(`"operationName":"${operation}"`);

const NOTHING = 'zzqx-nada';
/** Every request passes the handler, which lets all but the screen's data request through. */
const ANY = () => true;

function listScreens(emptyTenant: string): ListScreen[] {
  return [
    {
      name: 'users',
      path: tenantPath('/users'),
      data: graphql('usersPage'),
      nothing: tenantPath(`/users?q=${NOTHING}`),
      emptyText: t('users.empty.noMatch', { query: NOTHING }),
    },
    {
      name: 'tenants',
      path: tenantPath('/tenants'),
      data: rest('/api/tenant/paginated'),
      nothing: tenantPath(`/tenants?search=${NOTHING}`),
      emptyText: t('tenants.screen.empty.search', { search: NOTHING }),
    },
    {
      name: 'roles-list',
      path: tenantPath('/roles/list'),
      data: rest('/api/roles'),
      emptyText: t('roles.list.empty'),
    },
    {
      name: 'departments',
      path: tenantPath('/departments'),
      data: rest('/api/departments'),
      // A company with no department yet.
      nothing: tenantPath('/departments', emptyTenant),
      emptyText: t('departments.empty'),
    },
    {
      name: 'audit',
      path: tenantPath('/audit'),
      data: rest('/api/audit'),
      // No record is about a target with this id.
      nothing: tenantPath('/audit?targetType=user&targetId=999999'),
      emptyText: t('audit.empty'),
    },
    {
      name: 'support',
      path: tenantPath('/support?q=operador'),
      data: rest('/api/support/users'),
      nothing: tenantPath(`/support?q=${NOTHING}`),
      emptyText: t('support.search.noMatchTitle'),
    },
  ];
}

for (const theme of ['light', 'dark'] as const) {
  test(`loading, error and empty states of every list, its dialogs and toasts, ${theme}: as the baselines, axe clean`, async ({
    page,
    stableApp: app,
  }) => {
    test.setTimeout(300_000);
    await stablePage(page);
    await useTheme(page, theme);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    // The server is this test's own: the same names and CNPJ on every run.
    const tenant = await createTenant(api, `${TEST_TENANT_PREFIX}visual`, ['chat'], VISUAL_CNPJ);
    const role = await api.rest<{ id: number; display_name: string }>('POST', '/api/roles', {
      name: 'pw_visual',
      display_name: 'PW visual',
    });

    const operator = (
      await (
        await apiLogin(app.origin, app.operator.email, app.operator.password)
      ).rest<{ user: { name: string } }>('GET', '/api/auth/userInfo')
    ).user;

    const presence = presenceAnswered(page);
    await signIn(page, app.origin, app.admin);
    await presence;
    await settle(page);

    for (const screen of listScreens(tenant)) {
      // Loading: the screen opened with its data request held; then that request fails.
      let mode: 'hold' | 'fail' | 'empty' = 'hold';
      const held: Route[] = [];
      const fail = (route: Route) =>
        route.fulfill({
          status: 500,
          headers: { 'x-request-id': REQUEST_ID },
          json: { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' },
        });
      const handler = async (route: Route) => {
        if (!screen.data(route.request())) return route.fallback();
        if (mode === 'hold') {
          held.push(route);
          return;
        }
        if (mode === 'fail') return fail(route);
        const response = await route.fetch();
        const body = (await response.json()) as unknown;
        return route.fulfill({ response, json: Array.isArray(body) ? [] : body });
      };
      await page.route(ANY, handler);
      await navigateInApp(page, screen.path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect.poll(() => held.length, { message: `${screen.name}: its data request` }).toBeGreaterThan(0);
      await networkQuiet(page, screen.data);
      await shootBoth(page, `${screen.name}-loading-${theme}`);

      mode = 'fail';
      for (const route of held.splice(0)) await fail(route);
      await expect(page.getByRole('main').getByRole('alert').first()).toBeVisible();
      await settle(page);
      await shootBoth(page, `${screen.name}-error-${theme}`);

      // Empty: a search or filter that matches nothing (or, without one, the answer emptied).
      if (screen.nothing) await page.unroute(ANY, handler);
      else mode = 'empty';
      await navigateInApp(page, tenantPath('/'));
      await settle(page);
      await navigateInApp(page, screen.nothing ?? screen.path);
      await expect(page.getByText(screen.emptyText, { exact: true }).first()).toBeVisible();
      await settle(page);
      await shootBoth(page, `${screen.name}-empty-${theme}`);
      if (!screen.nothing) await page.unroute(ANY, handler);
    }

    // Dialogs and toasts.
    const main = page.getByRole('main');
    // The user edit form (the demo operador).
    await navigateInApp(page, tenantPath(`/users?q=${encodeURIComponent(app.operator.email)}`));
    await settle(page);
    await main.getByRole('button', { name: t('users.actions.editNamed', { name: operator.name }) }).click();
    const userForm = page.getByRole('dialog', { name: t('users.form.editTitle', { name: operator.name }) });
    await expect(userForm).toBeVisible();
    await settle(page);
    await shootBoth(page, `dialog-user-edit-${theme}`, { layer: true });
    await page.keyboard.press('Escape');
    await expect(userForm).toBeHidden();

    // The tenant edit form.
    await navigateInApp(page, tenantPath(`/tenants?search=${tenant}`));
    await settle(page);
    await page.getByRole('button', { name: t('tenants.screen.actions.more', { name: tenant }) }).click();
    await page.getByRole('menuitem', { name: t('tenants.screen.actions.edit'), exact: true }).click();
    const tenantForm = page.getByRole('dialog', { name: t('tenants.screen.form.editTitle', { name: tenant }) });
    await expect(tenantForm).toBeVisible();
    await settle(page);
    await shootBoth(page, `dialog-tenant-edit-${theme}`, { layer: true });
    await page.keyboard.press('Escape');
    await expect(tenantForm).toBeHidden();

    // The department create form, then its toast.
    await navigateInApp(page, tenantPath('/departments', tenant));
    await settle(page);
    await main
      .getByRole('button', { name: t('departments.create'), exact: true })
      .first()
      .click();
    const departmentForm = page.getByRole('dialog', { name: t('departments.form.createTitle') });
    await departmentForm.getByRole('textbox', { name: t('departments.form.name') }).fill('Compras');
    await settle(page);
    await shootBoth(page, `dialog-department-create-${theme}`, { layer: true });
    await departmentForm.getByRole('button', { name: t('departments.form.createSubmit'), exact: true }).click();
    await expect(departmentForm).toBeHidden();
    const created = toast(page, t('departments.notices.created', { name: 'Compras' }));
    await expect(created).toBeVisible();
    await settle(page);
    // The pointer on the toast pauses its 5 s timer (React Aria's toast region) for the shots.
    await shootBoth(page, `toast-department-created-${theme}`, {
      layer: true,
      prepare: () => created.getByText('Compras').hover(),
    });
    await page.mouse.move(0, 0);

    // The role delete confirmation, then its toast.
    await navigateInApp(page, tenantPath('/roles/list'));
    await settle(page);
    await page.getByRole('button', { name: t('roles.list.deleteLabel', { name: role.display_name }) }).click();
    const confirm = page.getByRole('alertdialog', { name: t('roles.form.deleteTitle') });
    await expect(confirm).toBeVisible();
    await settle(page);
    await shootBoth(page, `dialog-role-delete-${theme}`, { layer: true });
    await confirm.getByRole('button', { name: t('roles.list.delete'), exact: true }).click();
    await expect(confirm).toBeHidden();
    const deleted = toast(page, t('roles.notices.deleted'));
    await expect(deleted).toBeVisible();
    await settle(page);
    await shootBoth(page, `toast-role-deleted-${theme}`, {
      layer: true,
      prepare: () => deleted.getByText(t('roles.notices.deleted')).hover(),
    });
    expectNoViolations(page);
  });
}
