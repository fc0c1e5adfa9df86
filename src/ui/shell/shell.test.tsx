// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { setupUser } from '../test-support/user-event';
import ptBR from '../../i18n/pt-BR.json';
import { json, type Responder } from '../../machines/test-support/fake-fetch';
import { ADMIN_USER, renderApp, type RenderedApp } from '../test-support/render';

/** The navbar's native controls over the real machines: tenant switcher, user menu, preferences. */
const api: Responder = (request) => {
  const route = `${request.method} ${request.path}`;
  if (route === 'GET /api/auth/userInfo') return json(200, { user: ADMIN_USER, has_permission_routes: [] });
  if (route === 'GET /api/permission/email') return json(200, []);
  if (route === 'GET /api/tenant/false')
    return json(200, [
      { id: 1, name: 'backoffice' },
      { id: 2, name: 'farmacia-central' },
      { id: 3, name: 'loja-centro' },
    ]);
  return json(404, { message: `no fake for ${route}` });
};

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  document.documentElement.className = '';
});

describe('shell', () => {
  it('staff switch tenant by searching: the page stays, the first path segment changes', async () => {
    view = renderApp({ path: '/roles/list', respond: api, signedIn: {} });
    const user = setupUser();
    const switcher = await screen.findByRole('combobox', { name: ptBR.shell.tenant });
    expect(switcher).toHaveValue('backoffice');
    await waitFor(() => expect(view?.requests.some((r) => r.path === '/api/tenant/false')).toBe(true));
    await user.clear(switcher);
    await user.type(switcher, 'CENTR');
    await waitFor(() =>
      expect(
        within(screen.getByRole('listbox', { name: ptBR.shell.tenant }))
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['farmacia-central', 'loja-centro']),
    );
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(() => expect(view?.location()).toBe('/loja-centro/roles/list'));
  });

  it('opens the preferences from the user menu: a modal dialog whose radios apply at once; Escape closes it and focus goes back to the menu button', async () => {
    view = renderApp({ path: '/', respond: api, signedIn: {} });
    const user = setupUser();
    const menuButton = await screen.findByRole('button', { name: `${ptBR.shell.userMenu}: ${ADMIN_USER.name}` });
    await user.click(menuButton);
    const menu = screen.getByRole('menu', { name: ptBR.shell.userMenu });
    expect(within(menu).getByRole('menuitem', { name: ptBR.shell.profile })).toHaveAttribute(
      'href',
      '/backoffice/user-settings',
    );
    await user.click(within(menu).getByRole('menuitem', { name: ptBR.shell.preferences.title }));
    const dialog = await screen.findByRole('dialog', { name: ptBR.shell.preferences.title });
    expect(within(dialog).getByRole('radio', { name: ptBR.shell.preferences.vertical })).toBeChecked();
    expect(within(dialog).getByRole('switch', { name: ptBR.shell.preferences.collapsed })).toBeEnabled();
    await user.click(within(dialog).getByRole('radio', { name: ptBR.shell.preferences.horizontal }));
    expect(within(dialog).getByRole('radio', { name: ptBR.shell.preferences.horizontal })).toBeChecked();
    // Horizontal: the sidebar switch no longer applies.
    expect(within(dialog).getByRole('switch', { name: ptBR.shell.preferences.collapsed })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(menuButton).toHaveFocus();
    expect(JSON.parse(window.localStorage.getItem('preferences') ?? '{}')).toMatchObject({ layout: 'horizontal' });

    // The horizontal bar: a menu button per section, its pages as links.
    const bar = screen.getByRole('navigation', { name: ptBR.shell.mainNavigation });
    await user.click(within(bar).getByRole('button', { name: ptBR.menu.groups.people }));
    const pages = screen.getByRole('menu', { name: ptBR.menu.groups.people });
    await user.click(within(pages).getByRole('menuitem', { name: ptBR.routes['roles-list'] }));
    await waitFor(() => expect(view?.location()).toBe('/backoffice/roles/list'));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
