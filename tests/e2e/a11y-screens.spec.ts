import { createRequire } from 'node:module';
import type { Page, Route } from '@playwright/test';
import config from '../../playwright.config';
import { cnpjCheckDigits } from '../../src/domain/cnpj';
import { getHref, routes } from '../../src/domain/paths';
import { apiLogin } from './support/api';
import { signIn, submitLogin, tenantPath } from './support/app';
import { seriousViolations, useTheme } from './support/axe';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { stablePage, stableScreenshot } from './support/stable-server';
import { navigateInApp, presenceAnswered, settle } from './support/visual';
import { createTenant, TEST_TENANT_PREFIX, uniquePrefix } from './support/tenants';
import { reachEnrolment, sendCode, totpCode, userRequiredToEnrol } from './support/two-factor';
import { createRoleWith, createUserWithRole } from './support/users';

/**
 * Every screen, light and dark: axe-core (0 serious or critical violations) and the whole page at
 * 1366 and 390 px wide compared with its committed baseline (`toHaveScreenshot`, baselines in
 * tests/e2e/__screenshots__/a11y-screens.spec.ts/). The tests that take screenshots run on a server of
 * their own with the clocks fixed (support/stable-server.ts), so two runs of one build paint the same
 * pixels (docs/architecture.md, "Screenshots").
 */
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** A valid CNPJ (check digits from the app's own rule) for the tenant the screenshots show. */
const SCREENS_CNPJ = `114447770001${cnpjCheckDigits('114447770001')}`;
const LAUNCH = config.use?.launchOptions ?? {};
const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

// The server's CSP forbids injected scripts (script-src 'self'); axe is injected only here.
test.use({ bypassCSP: true });
// By default Chromium re-rasters only the invalidated part of a tile: after a viewport change, edges
// drawn with anti-aliasing (rounded borders) came out one or two levels off a fresh page's, so a
// screen's pixels depended on what was painted before it. Whole tiles make them the same on every run.
test.use({ launchOptions: { ...LAUNCH, args: [...(LAUNCH.args ?? []), '--disable-partial-raster'] } });
test.describe.configure({ mode: 'parallel' });

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html?: string }[];
}

async function audit(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html })),
    }));
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`every screen, ${theme}: axe finds no serious or critical violation; screenshots`, async ({
    page,
    stableApp: app,
  }) => {
    // 1.7–2.8 min on one worker of a shared box: each whole-page shot is taken until two agree, then compared.
    test.setTimeout(360_000);
    await stablePage(page);
    // The theme preference as the app stores it (preferences.machine.ts), set before each load.
    await page.addInitScript((value) => {
      const stored = JSON.parse(localStorage.getItem('preferences') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('preferences', JSON.stringify({ ...stored, theme: value }));
    }, theme);
    const roleId =
      (
        await (
          await apiLogin(app.origin, app.admin.email, app.admin.password)
        ).graphql<{ roles: { id: string }[] }>('query roles { roles { id } }', {}, 'roles')
      ).roles[0]?.id ?? '1';

    // The support desk shows the demo operador: found by the search, and their person page.
    const operatorId = (
      await (
        await apiLogin(app.origin, app.operator.email, app.operator.password)
      ).rest<{ user: { id: number } }>('GET', '/api/auth/userInfo')
    ).user.id;
    const hrefs: Partial<Record<string, string>> = {
      'roles-edit': getHref('roles-edit', { id: roleId }),
      support: getHref('support', {}, { q: app.operator.email }),
      'support-person': getHref('support-person', { id: operatorId }),
    };
    const screens = routes.map((route) => ({
      name: route.name,
      href: hrefs[route.name] ?? route.path,
      // The login and the reset-password page (here without a link's token: it says so) are for the signed-out.
      signedIn: route.name !== 'login' && route.name !== 'reset-password',
    }));
    const table: { screen: string; counts: Record<string, number> }[] = [];
    const serious: string[] = [];
    let signedIn = false;
    for (const screen of [...screens.filter((s) => !s.signedIn), ...screens.filter((s) => s.signedIn)]) {
      await page.setViewportSize(VIEWPORTS[0]);
      // The audit log shows the first retention purge once it has run (a minute after the server
      // started): wait for it rather than race it.
      if (screen.name === 'audit') await app.server.purged();
      if (screen.signedIn && !signedIn) {
        const presence = presenceAnswered(page);
        await signIn(page, app.origin, app.admin);
        await presence;
        signedIn = true;
      }
      if (screen.signedIn) await navigateInApp(page, tenantPath(screen.href));
      else await page.goto(`${app.origin}${tenantPath(screen.href)}`);
      await settle(page);
      const violations = await audit(page);
      const counts: Record<string, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
      for (const v of violations) counts[v.impact ?? 'minor'] = (counts[v.impact ?? 'minor'] ?? 0) + v.nodes.length;
      table.push({ screen: screen.name, counts });
      for (const v of violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
        serious.push(
          `${screen.name} (${theme}): ${v.impact} ${v.id} — ${v.help} — ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.html))}`,
        );
      }
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await settle(page);
        await stableScreenshot(page, `${screen.name}-${theme}-${viewport.width}`);
      }
    }
    console.log(
      [
        `axe summary (${theme}): screen — critical / serious / moderate / minor (nodes)`,
        ...table.map(
          (r) =>
            `  ${r.screen.padEnd(30)} ${r.counts.critical} / ${r.counts.serious} / ${r.counts.moderate} / ${r.counts.minor}`,
        ),
      ].join('\n'),
    );
    expect(serious, 'serious or critical axe violations').toEqual([]);
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`role delete and tenant edit dialogs, ${theme}: axe finds no serious or critical violation`, async ({
    page,
    app,
  }) => {
    await useTheme(page, theme);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
    const role = await api.rest<{ id: number; display_name: string }>('POST', '/api/roles', {
      name: `pw_axe_${unique}`,
      display_name: `PW axe ${unique}`,
    });
    await api.rest('POST', '/api/users', {
      username: `axe${unique}`,
      name: `Axe ${unique}`,
      email: `axe${unique}@e2e.local`,
      password: 'Pharm#cy!Blue',
      role_id: role.id,
    });
    const tenant = await createTenant(api, uniquePrefix('axe'));
    const serious: string[] = [];

    // The role delete confirmation, and its refusal (users hold the role).
    await signIn(page, app.origin, app.admin, '/roles/list');
    await page.getByRole('button', { name: t('roles.list.deleteLabel', { name: role.display_name }) }).click();
    const confirm = page.getByRole('alertdialog', { name: t('roles.form.deleteTitle') });
    await expect(confirm).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `role delete: ${v}`));
    await confirm.getByRole('button', { name: t('roles.list.delete'), exact: true }).click();
    // The dialog's own alert: the toast region sits in the open dialog's layer too (dialog-layer.ts).
    await expect(confirm.getByRole('alert').filter({ hasText: t('roles.errors.inUse') })).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `role delete refused: ${v}`));
    await confirm.getByRole('button', { name: t('common.cancel'), exact: true }).click();

    // The tenant edit dialog, and with a refused CNPJ.
    await page.goto(`${app.origin}${tenantPath(`/tenants?search=${tenant}`)}`);
    await page.getByRole('button', { name: t('tenants.screen.actions.more', { name: tenant }) }).click();
    await page.getByRole('menuitem', { name: t('tenants.screen.actions.edit'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t('tenants.screen.form.editTitle', { name: tenant }) });
    await expect(dialog).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `tenant edit: ${v}`));
    await dialog.getByRole('textbox', { name: t('tenants.screen.form.cnpj') }).fill('11.222.333/0001-82');
    await dialog.getByRole('button', { name: t('tenants.screen.form.submitEdit'), exact: true }).click();
    await expect(dialog.getByText(t('tenants.errors.cnpj.checkDigits'))).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `tenant edit refused: ${v}`));
    expect(serious, 'serious or critical axe violations').toEqual([]);
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`two-factor enrolment at sign-in and its recovery codes, ${theme}: axe finds no serious or critical violation`, async ({
    page,
    app,
  }) => {
    await useTheme(page, theme);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const user = await userRequiredToEnrol(api, `axe${theme}`);
    const serious: string[] = [];
    const secret = await reachEnrolment(page, app.origin, user);
    serious.push(...(await seriousViolations(page)).map((v) => `enrolment: ${v}`));
    await sendCode(page, '000000');
    await expect(page.getByText(t('auth.twoFactor.invalidCode'), { exact: true })).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `enrolment, wrong code: ${v}`));
    await sendCode(page, totpCode(secret));
    await expect(page.getByRole('list', { name: t('twoFactor.codesListLabel') })).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `recovery codes: ${v}`));
    expect(serious, 'serious or critical axe violations').toEqual([]);
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`departments screen and the department and connection dialogs, ${theme}: axe finds no serious or critical violation`, async ({
    page,
    app,
  }) => {
    await useTheme(page, theme);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const tenant = await createTenant(api, uniquePrefix('axedept'));
    await api.rest('POST', `/api/departments?tenantName=${tenant}`, { name: 'Atendimento' });
    const instance = await api.rest<{ name: string }>('POST', '/api/instance', {
      name: 'WhatsApp Axe',
      tenantName: tenant,
      isOfficial: false,
      isUnlimited: false,
    });
    const serious: string[] = [];

    // The departments screen with a row, its create dialog, and the dialog refusing a taken name.
    await signIn(page, app.origin, app.admin);
    await page.goto(`${app.origin}${tenantPath('/departments', tenant)}`);
    await expect(page.getByRole('grid', { name: t('departments.tableLabel') })).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `departments: ${v}`));
    await page
      .getByRole('button', { name: t('departments.create'), exact: true })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: t('departments.form.createTitle') });
    await expect(dialog).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `department dialog: ${v}`));
    await dialog.getByRole('textbox', { name: t('departments.form.name') }).fill('atendimento');
    await dialog.getByRole('button', { name: t('departments.form.createSubmit'), exact: true }).click();
    await expect(dialog.getByText(t('departments.errors.nameTaken'))).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `department dialog refused: ${v}`));
    await dialog.getByRole('button', { name: t('common.cancel'), exact: true }).click();

    // The instances panel's new-connection dialog.
    await page.goto(`${app.origin}${tenantPath(`/tenants?panel=instances&tenant=${tenant}`)}`);
    await page.getByRole('button', { name: t('instances.connections.createLabel', { name: instance.name }) }).click();
    const connection = page.getByRole('dialog', {
      name: t('instances.connections.form.createTitle', { instance: instance.name }),
    });
    await expect(connection).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `connection dialog: ${v}`));
    expect(serious, 'serious or critical axe violations').toEqual([]);
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`audit screen and a record's details expanded under its row, ${theme}: axe finds no serious or critical violation`, async ({
    page,
    app,
  }) => {
    await useTheme(page, theme);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const tenant = await createTenant(api, uniquePrefix('axeaudit'));
    await api.rest('POST', '/api/tenant/set-plan', {
      id: await tenantId(api, tenant),
      plan: 'enterprise',
      user: 200,
      ticket: 50_000,
    });
    const serious: string[] = [];

    // The list with records (the tenant's creation and plan change at least), then one record's detail.
    await signIn(page, app.origin, app.admin, '/audit?operation=tenant.plan');
    const grid = page.getByRole('grid', { name: t('audit.tableLabel') });
    const row = grid.getByRole('row').filter({ hasText: tenant });
    await expect(row).toHaveCount(1);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    serious.push(...(await seriousViolations(page)).map((v) => `audit: ${v}`));
    await row.getByRole('button').click();
    const dialog = page.getByRole('region', { name: /\d+$/ });
    await expect(dialog.getByRole('table', { name: t('audit.detail.changesLabel') })).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `audit detail: ${v}`));
    expect(serious, 'serious or critical axe violations').toEqual([]);
  });
}

/** A tenant's id by its name (the plan change takes the id). */
async function tenantId(api: Awaited<ReturnType<typeof apiLogin>>, name: string): Promise<number> {
  const page = await api.rest<{ data: { id: number; name: string }[] }>('POST', '/api/tenant/paginated', {
    search: name,
    pagination_limit: 10,
  });
  const found = page.data.find((x) => x.name === name);
  if (!found) throw new Error(`tenant ${name} not found`);
  return found.id;
}

for (const theme of ['light', 'dark'] as const) {
  test(`a table while it loads, ${theme}: the dimmed rows of a reload and the loading text pass axe`, async ({
    page,
    app,
  }) => {
    await useTheme(page, theme);
    await signIn(page, app.origin, app.admin, '/tenants');
    const grid = page.getByRole('grid');
    await expect(grid.locator('[role=rowgroup]:not([data-empty]) [role=row]').first()).toBeVisible();
    // The list's requests from here on are held: the table stays in its loading state for axe.
    const held: Route[] = [];
    await page.route('**/api/tenant/paginated', (route) => {
      held.push(route);
    });
    const serious: string[] = [];

    // A reload (a new search): the rows shown stay, dimmed, under aria-busy.
    await page.getByRole('searchbox', { name: t('tenants.screen.searchLabel') }).fill('farm');
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await expect(page.locator('[aria-busy="true"]').first()).toBeAttached();
    await expect(grid.locator('[role=rowgroup]:not([data-empty]) [role=row]').first()).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `reload: ${v}`));

    // A first load: no rows yet, the loading text in their place.
    await page.reload();
    await expect(page.getByText(t('ui.table.loading'), { exact: true })).toBeVisible();
    serious.push(...(await seriousViolations(page)).map((v) => `first load: ${v}`));

    await page.unroute('**/api/tenant/paginated');
    for (const route of held) await route.abort().catch(() => undefined);
    expect(serious, 'serious or critical axe violations').toEqual([]);
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`who may do what, ${theme}: a customer's tenant, features and instance form, a manager's users and role editor pass axe; screenshots`, async ({
    page,
    stableApp: app,
  }) => {
    test.setTimeout(180_000);
    await stablePage(page);
    await useTheme(page, theme);
    const password = 'Pharm#cy!Blue';
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    // The server is this test's own: the same names and CNPJ on every run, as the screenshots show them.
    const tenant = await createTenant(api, `${TEST_TENANT_PREFIX}axecust`, ['chat', 'campaigns'], SCREENS_CNPJ);
    const inTenant = await apiLogin(app.origin, app.admin.email, app.admin.password, tenant);
    await inTenant.rest('POST', '/api/instance', {
      name: 'WhatsApp Oficial',
      tenantName: tenant,
      isOfficial: true,
      isUnlimited: false,
    });
    const customer = await createUserWithRole(inTenant, 'axecust', password, { name: 'administrador' }, 'axecust');
    const managerRole = await createRoleWith(api, 'axemgr', ['users', 'roles-list', 'roles-edit'], 'screens');
    const manager = await createUserWithRole(api, 'axemgr', password, { id: managerRole.id }, 'axemgr');
    const serious: string[] = [];
    // `layer`: an open dialog or menu, shot within the viewport (support/stable-server.ts); `open`: what
    // opens it again at each width (a menu stays where its button was before the resize).
    const shoot = async (
      name: string,
      { layer = false, open }: { layer?: boolean; open?: () => Promise<void> } = {},
    ) => {
      serious.push(...(await seriousViolations(page)).map((v) => `${name}: ${v}`));
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await open?.();
        await stableScreenshot(page, `access-${name}-${theme}-${viewport.width}`, { viewport: layer });
      }
      await page.setViewportSize(VIEWPORTS[0]);
    };

    // The customer's administrador: its tenant read-only, its features, its instance form.
    await page.goto(`${app.origin}${tenantPath('/login', tenant)}?to=${encodeURIComponent('/tenants')}`);
    await submitLogin(page, { email: customer.email, password });
    await expect(page.getByText(t('tenants.screen.readOnlyNote'), { exact: true })).toBeVisible();
    await settle(page);
    await shoot('tenants-customer');
    await page.goto(`${app.origin}${tenantPath(`/tenants?panel=features&tenant=${tenant}`, tenant)}`);
    await expect(page.getByText(t('features.editor.readOnly'), { exact: true })).toBeVisible();
    await shoot('features-customer');
    await page.goto(`${app.origin}${tenantPath(`/tenants?panel=instances&tenant=${tenant}`, tenant)}`);
    await page.getByRole('button', { name: t('instances.actions.editLabel', { name: 'WhatsApp Oficial' }) }).click();
    await expect(page.getByText(t('access.staffBillingFlags'), { exact: true })).toBeVisible();
    await shoot('instance-form-customer', { layer: true });
    await page.evaluate(() => localStorage.clear());

    // A manager holding users and the role editor: an administrador's row locked, a role it cannot fill.
    // Its own row (below) shows it online when the list is read after its presence call is answered.
    const presence = presenceAnswered(page);
    await signIn(page, app.origin, { email: manager.email, password });
    await presence;
    await navigateInApp(page, tenantPath('/users'));
    // The demo users (short names and e-mails) fit at 1366: both are locked for this manager.
    await page.getByRole('searchbox', { name: t('users.search.label') }).fill('demo.local');
    await expect(page.getByRole('button', { name: /^Por que não posso alterar/ })).toHaveCount(2);
    await settle(page);
    await shoot('users-manager');
    // Its own record: the e-mail disabled, the note and link to its settings (it changes there, with the password).
    await page.getByRole('searchbox', { name: t('users.search.label') }).fill(manager.email);
    await page.getByRole('button', { name: t('users.actions.editNamed', { name: manager.name }) }).click();
    const ownForm = page.getByRole('dialog', { name: t('users.form.editTitle', { name: manager.name }) });
    await expect(ownForm.getByRole('textbox', { name: t('users.form.email'), exact: true })).toBeDisabled();
    await expect(ownForm.getByRole('link', { name: t('routes.user-settings') })).toBeVisible();
    await shoot('users-own-edit', { layer: true });
    await page.keyboard.press('Escape');
    await expect(ownForm).toBeHidden();
    // Its own row's menu: no two-factor entry, the e-mail a link to its settings.
    const ownMenu = async () => {
      const item = page.getByRole('menuitem', { name: t('users.actions.ownAccount'), exact: true });
      if (await item.isVisible()) {
        await page.keyboard.press('Escape');
        await expect(item).toBeHidden();
      }
      await page.getByRole('button', { name: t('users.actions.more', { name: manager.name }) }).click();
      await expect(item).toBeVisible();
    };
    await ownMenu();
    await shoot('users-own-menu', { layer: true, open: ownMenu });
    await page.keyboard.press('Escape');
    const operador = (
      await api.graphql<{ roles: { id: string; name: string }[] }>('query roles { roles { id name } }', {}, 'roles')
    ).roles.find((r) => r.name === 'operador');
    await page.goto(`${app.origin}${tenantPath(getHref('roles-edit', { id: operador?.id ?? '2' }))}`);
    await expect(page.getByText(t('roles.edit.lockedNotice'), { exact: true })).toBeVisible();
    // What the operador holds and the manager lacks stays on, locked: the manager can neither give nor take it.
    const kept = page.getByRole('checkbox', { checked: true, disabled: true });
    await expect(kept.first()).toBeVisible();
    await expect(kept.first()).toHaveAccessibleDescription(t('roles.edit.lockedNotice'));
    await settle(page);
    await shoot('role-editor-manager');
    await page.goto(`${app.origin}${tenantPath(getHref('roles-edit', { id: String(managerRole.id) }))}`);
    await expect(page.getByText(t('access.ownRolePermissions'), { exact: true })).toBeVisible();
    await settle(page);
    await shoot('role-editor-own');
    await page.evaluate(() => localStorage.clear());

    // The customer's company closed by the provider: its right password says so on the login page.
    await api.rest('POST', '/api/tenant/delete', { id: await tenantId(api, tenant) });
    await page.goto(`${app.origin}${tenantPath('/login')}`);
    await submitLogin(page, { email: customer.email, password });
    await expect(page.getByText(t('auth.login.tenantDeleted'), { exact: true })).toBeVisible();
    await shoot('login-closed');
    expect(serious, 'serious or critical axe violations').toEqual([]);
  });
}
