import type { Page } from '@playwright/test';
import { passwordStrength } from '../../src/domain/password-strength';
import { apiLogin } from './support/api';
import { createRoleWith, createUser, createUserWithRole, operatorRole } from './support/users';
import { signIn, tenantPath } from './support/app';
import { expect, test } from './support/fixtures';
import { t } from './support/i18n';
import { toast } from './support/toast';

function userRow(page: Page, name: string) {
  return page.getByRole('grid', { name: t('users.list.heading') }).getByRole('row', { name });
}

test.describe('users', () => {
  test('create: a weak password is refused, medium and strong ones create the user', async ({ page, app }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const role = await operatorRole(api);
    // Passwords at each level, checked with the app's own scoring (docs/product.md, Passwords) before use.
    const passwords = { weak: 'abc12345', medium: 'Pharmacy#Blue', strong: 'Pharm#cy!Blue' } as const;
    expect(passwordStrength(passwords.weak)).toBe(50);
    expect(passwordStrength(passwords.medium)).toBe(75);
    expect(passwordStrength(passwords.strong)).toBe(100);

    await signIn(page, app.origin, app.admin, '/users');
    const stamp = Date.now().toString(36);
    for (const level of ['weak', 'medium', 'strong'] as const) {
      const name = `E2E ${level} ${stamp}`;
      await page
        .getByRole('button', { name: t('users.actions.create'), exact: true })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: t('users.form.createTitle') });
      await dialog.getByRole('textbox', { name: t('users.form.name'), exact: true }).fill(name);
      await dialog.getByRole('textbox', { name: t('users.form.username'), exact: true }).fill(`e2e.${level}.${stamp}`);
      await dialog
        .getByRole('textbox', { name: t('users.form.email'), exact: true })
        .fill(`e2e.${level}.${stamp}@e2e.local`);
      await dialog.getByRole('textbox', { name: t('users.form.password'), exact: true }).fill(passwords[level]);
      const meter = dialog.getByRole('meter');
      await expect(meter).toHaveAttribute('aria-valuenow', String(passwordStrength(passwords[level])));
      await expect(meter).toHaveAttribute('aria-valuetext', t(`password.strength.${level}`));
      await dialog.getByRole('button', { name: new RegExp(t('users.form.role')) }).click();
      await page
        .getByRole('listbox', { name: t('users.form.role') })
        .getByRole('option', { name: role.display_name, exact: true })
        .click();
      await dialog.getByRole('button', { name: t('users.form.submitCreate'), exact: true }).click();
      if (level === 'weak') {
        await expect(dialog.getByText(t('users.form.passwordWeak'))).toBeVisible();
        await dialog.getByRole('button', { name: t('common.cancel'), exact: true }).click();
        await expect(dialog).toBeHidden();
        await expect(userRow(page, name)).toHaveCount(0);
      } else {
        await expect(dialog).toBeHidden();
        await expect(toast(page, t('users.notices.created')).last()).toBeVisible();
        await expect(userRow(page, name)).toBeVisible();
      }
    }
    // The server agrees: the medium and strong users exist, the weak one does not.
    const { users } = await api.graphql<{ users: { name: string }[] }>('query users { users { name } }', {}, 'users');
    const made = users.map((u) => u.name).filter((n) => n.endsWith(stamp));
    expect(made.sort()).toEqual([`E2E medium ${stamp}`, `E2E strong ${stamp}`]);
  });

  test('block and unblock: the row says so and the blocked person cannot sign in', async ({ page, app }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const password = 'Pharm#cy!Blue';
    const user = await createUser(api, 'blk', password);
    // The user's own search: its row is on the first page however many users the journeys made, and an
    // address with a list part opens no saved default view (views.spec.ts saves one for this admin).
    await signIn(page, app.origin, app.admin, `/users?q=${encodeURIComponent(user.email)}`);
    const row = userRow(page, user.name);
    await expect(row).toContainText(t('users.status.active'));

    await row.getByRole('button', { name: t('users.actions.more', { name: user.name }) }).click();
    await page.getByRole('menuitem', { name: t('users.actions.block'), exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: t('users.confirm.block.title') });
    await confirm.getByRole('button', { name: t('users.actions.block'), exact: true }).click();
    await expect(toast(page, t('users.notices.blocked'))).toBeVisible();
    await expect(row).toContainText(t('users.status.blocked'));
    const refused = await fetch(`${app.origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password, ip: null }),
    });
    expect(refused.ok).toBe(false);

    await row.getByRole('button', { name: t('users.actions.more', { name: user.name }) }).click();
    await page.getByRole('menuitem', { name: t('users.actions.unblock'), exact: true }).click();
    await expect(toast(page, t('users.notices.unblocked'))).toBeVisible();
    await expect(row).toContainText(t('users.status.active'));
    await apiLogin(app.origin, user.email, password);
  });
});

test.describe('users: no way up', () => {
  test("a users-only manager: administrador is not offered, the administrador's row is locked, saying why", async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const usersOnly = await createRoleWith(api, 'usersonly', ['users']);
    const password = 'Pharm#cy!Blue';
    const manager = await createUserWithRole(api, 'mgr', password, { id: usersOnly.id });
    const { users } = await api.graphql<{ users: { name: string; email: string }[] }>(
      'query users { users { name email } }',
      {},
      'users',
    );
    const admin = users.find((u) => u.email === app.admin.email);
    if (!admin) throw new Error('the demo administrador is not listed');

    await signIn(page, app.origin, { email: manager.email, password }, '/users');
    const adminRow = userRow(page, admin.name);
    const why = t('access.actOnAdministrador');
    const edit = adminRow.getByRole('button', { name: t('users.actions.editNamed', { name: admin.name }) });
    const more = adminRow.getByRole('button', { name: t('users.actions.more', { name: admin.name }) });
    await expect(edit).toBeDisabled();
    await expect(more).toBeDisabled();
    await expect(edit).toHaveAccessibleDescription(why);
    await expect(more).toHaveAccessibleDescription(why);
    await adminRow.getByRole('button', { name: t('users.access.why', { name: admin.name }) }).click();
    const said = toast(page, t('users.access.lockedTitle', { name: admin.name }));
    await expect(said).toBeVisible();
    await expect(said).toContainText(why);
    // Its own row is open to it.
    await expect(
      userRow(page, manager.name).getByRole('button', { name: t('users.actions.editNamed', { name: manager.name }) }),
    ).toBeEnabled();

    // Creating: only the roles it may give, and the field says some are left out.
    await page
      .getByRole('button', { name: t('users.actions.create'), exact: true })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: t('users.form.createTitle') });
    const picker = dialog.getByRole('button', { name: new RegExp(t('users.form.role')) });
    await expect(picker).toHaveAccessibleDescription(t('users.form.roleNarrowed'));
    await picker.click();
    const options = page.getByRole('listbox', { name: t('users.form.role') }).getByRole('option');
    await expect(options.filter({ hasText: usersOnly.display_name })).toHaveCount(1);
    await expect(options.filter({ hasText: /^Administrador$/ })).toHaveCount(0);
    await expect(options.filter({ hasText: /^Operador$/ })).toHaveCount(0);
  });
});

test.describe("users: one's own row", () => {
  test('an administrador meets no entry the server refuses on its own row: no two-factor, its e-mail and password lead to its settings', async ({
    page,
    app,
  }) => {
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    const password = 'Pharm#cy!Blue';
    const self = await createUserWithRole(api, 'self', password, { name: 'administrador' });
    const other = await createUser(api, 'oth', password);
    await signIn(page, app.origin, { email: self.email, password }, '/users');
    const search = page.getByRole('searchbox', { name: t('users.search.label') });
    const menuOf = async (name: string) => {
      await search.fill(name);
      await userRow(page, name)
        .getByRole('button', { name: t('users.actions.more', { name }) })
        .click();
      const menu = page.getByRole('menu');
      await expect(menu).toBeVisible();
      return menu;
    };

    // Another user's row: its e-mail and two-factor as before.
    let menu = await menuOf(other.name);
    await expect(menu.getByRole('menuitem', { name: t('users.actions.changeEmail'), exact: true })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: t('users.actions.twoFactorRequire'), exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    // Its own: no two-factor entry (off takes a code, on the two-factor screen), the e-mail a link.
    menu = await menuOf(self.name);
    const items = menu.getByRole('menuitem');
    await expect(items).toHaveText([
      t('users.actions.rename'),
      t('users.actions.ownAccount'),
      t('users.actions.instances'),
    ]);
    await page.keyboard.press('Escape');

    // The edit form: the e-mail disabled, the note saying where it changes, its link reached by Tab.
    await userRow(page, self.name)
      .getByRole('button', { name: t('users.actions.editNamed', { name: self.name }) })
      .click();
    const dialog = page.getByRole('dialog', { name: t('users.form.editTitle', { name: self.name }) });
    const email = dialog.getByRole('textbox', { name: t('users.form.email'), exact: true });
    await expect(email).toBeDisabled();
    await expect(email).toHaveValue(self.email);
    await expect(email).toHaveAccessibleDescription(`${t('users.form.ownCredentials')} ${t('routes.user-settings')}.`);
    await dialog.getByRole('textbox', { name: t('users.form.username'), exact: true }).focus();
    await page.keyboard.press('Tab');
    const link = dialog.getByRole('link', { name: t('routes.user-settings') });
    await expect(link).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // The menu's link opens the account screen, where a new e-mail asks for the current password.
    menu = await menuOf(self.name);
    await menu.getByRole('menuitem', { name: t('users.actions.ownAccount'), exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === tenantPath('/user-settings'));
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(t('routes.user-settings'));
  });
});

test.describe('users: paged on the server', () => {
  test('more users than one page: filter by role and blocked, sort, page 2, reload: the same page and rows', async ({
    page,
    app,
  }) => {
    test.setTimeout(180_000);
    const api = await apiLogin(app.origin, app.admin.email, app.admin.password);
    // A role of this test's own, so the filter isolates its 130 users from every other journey's.
    const role = await createRoleWith(api, 'paging', []);
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const ids: number[] = [];
    for (let i = 0; i < 130; i += 1) {
      const n = String(i).padStart(3, '0');
      // "Zz…" sorts after the other journeys' users, so an unfiltered first page keeps showing theirs.
      const { newUser } = await api.graphql<{ newUser: { id: string } }>(
        'mutation newUser($username: String!, $name: String!, $email: String!, $password: String!, $role_id: Int!) { newUser(username: $username, name: $name, email: $email, password: $password, role_id: $role_id) { id } }',
        {
          username: `pg${stamp}${n}`,
          name: `Zz Paginação ${stamp} ${n}`,
          email: `pg${stamp}${n}@e2e.local`,
          password: 'Pharm#cy!Blue',
          role_id: role.id,
        },
        'newUser',
      );
      ids.push(Number(newUser.id));
    }
    // 110 blocked: two pages of them (100 and 10).
    for (const id of ids.slice(0, 110)) await api.rest('PATCH', `/api/users/${id}`, { blocked: true });

    await signIn(page, app.origin, app.admin, '/users');
    const grid = page.getByRole('grid', { name: t('users.list.heading') });
    await page.getByRole('combobox', { name: t('lists.filters.role') }).selectOption({ label: role.display_name });
    await page.getByRole('combobox', { name: t('lists.filters.blocked') }).selectOption({
      label: t('lists.filters.blockedYes'),
    });
    await expect(page.getByText(t('users.list.total', { count: 110, total: '110' }))).toBeVisible();
    // By e-mail, descending: the last e-mails first.
    const email = grid.getByRole('columnheader', { name: t('users.columns.email') });
    await email.click();
    await expect(email).toHaveAttribute('aria-sort', 'ascending');
    await email.click();
    await expect(email).toHaveAttribute('aria-sort', 'descending');
    await expect(grid.getByRole('rowheader').first()).toHaveText(`Zz Paginação ${stamp} 109`);
    const pager = page.getByRole('navigation', { name: t('ui.pagination.label') });
    await pager.getByRole('button', { name: t('ui.pagination.goTo', { page: 2 }) }).click();
    // Page 2 of 110: the last 10, 009 down to 000.
    const names = Array.from({ length: 10 }, (_, i) => `Zz Paginação ${stamp} ${String(9 - i).padStart(3, '0')}`);
    await expect(grid.getByRole('rowheader')).toHaveText(names);
    await expect(page).toHaveURL(new RegExp(`[?&]page=2(&|$)`));
    const url = page.url();
    expect(new URL(url).searchParams.get('role')).toBe(String(role.id));
    expect(new URL(url).searchParams.get('blocked')).toBe('true');
    expect(new URL(url).searchParams.get('sort')).toBe('email');
    expect(new URL(url).searchParams.get('dir')).toBe('desc');

    await page.reload();
    await expect(grid.getByRole('rowheader')).toHaveText(names);
    expect(page.url()).toBe(url);
    await expect(pager.getByRole('button', { name: t('ui.pagination.goTo', { page: 2 }) })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByText(t('users.list.total', { count: 110, total: '110' }))).toBeVisible();
  });
});
