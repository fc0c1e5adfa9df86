// @vitest-environment jsdom
import { act, cleanup } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { StrictMode } from 'react';
import { createRuntimeI18n } from '../i18n/runtime';
import { createAppServices, type AppServices, type AppServicesOptions } from './app-services';
import { PREFERENCES_KEY, readPreferences } from '../machines/preferences/preferences.machine';
import { FIRST_VISIT_LOOK } from '../domain/look-cookie';
import { writeStoredSession } from '../machines/session/session-storage';
import { USER } from '../machines/test-support/session-fakes';
import { loginPages, renderLoginPage, withPrerenderedPage } from './prerender';
import { App } from './app';
import { mountApp } from './mount-app';
import { decideFirstRoute, prerenderKey, type LoginMailVariant } from './prerender-state';
import { darkTheme, lightTheme } from '../ui/theme.css';
import ptBR from '../i18n/pt-BR.json';

const INDEX = `<!doctype html>
<html lang="pt-BR">
  <head>
    <meta name="color-scheme" content="light dark" />
    <title>Painel Back-office</title>
  <script defer src="/static/js/index.js"></script></head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

let services: AppServices | undefined;
// mountApp's root is not RTL's: cleanup() does not unmount it (tests/setup.ts checks nothing is left).
let mounted: Root | undefined;
afterEach(() => {
  cleanup();
  act(() => mounted?.unmount());
  mounted = undefined;
  services?.stop();
  services = undefined;
  window.localStorage.clear();
  document.documentElement.removeAttribute('class');
  document.body.innerHTML = '';
  document.cookie = 'panel_look=; Path=/; Max-Age=0';
});

/** Puts the prerendered page in the document, as the server sends it for `/backoffice/login`. */
async function loadPrerendered(path = '/backoffice/login', variant: LoginMailVariant = 'mail') {
  const page = await renderLoginPage(variant);
  window.history.replaceState(null, '', path);
  document.documentElement.className = page.htmlClass;
  document.body.innerHTML = `<div id="root" data-prerendered="${page.key}">${page.markup}</div>`;
  const container = document.getElementById('root');
  if (!container) throw new Error('no #root');
  return { page, container };
}

/** What src/app/main.tsx does, on this document. */
async function start(container: HTMLElement, options: Partial<AppServicesOptions> = {}) {
  services = createAppServices({ window, ...options });
  const i18n = await createRuntimeI18n(services.preferences.getSnapshot().context.locale);
  decideFirstRoute(services, window.location);
  const key = prerenderKey(services, window.location.pathname);
  let how: string | undefined;
  await act(async () => {
    const app = mountApp(
      container,
      <StrictMode>
        <App services={services!} i18n={i18n} />
      </StrictMode>,
      key,
    );
    how = app.how;
    mounted = app.root;
  });
  return how;
}

describe('the prerendered login page', () => {
  it('is the login form in pt-BR, its fields open to typing and every other control disabled until hydrated, with no inline style or script', async () => {
    const page = await renderLoginPage();
    expect(page.key).toBe('login pt-BR light mail');
    expect(page.lang).toBe('pt-BR');
    expect(page.title).toBe(`${ptBR.routes.login} · ${ptBR.app.name}`);
    const root = document.createElement('div');
    root.innerHTML = page.markup;
    expect(root.querySelector('h1')?.textContent).toBe(ptBR.auth.login.title);
    const fields = root.querySelectorAll('input');
    expect([...fields].map((field) => field.name)).toEqual(['email', 'password', 'remember']);
    for (const field of fields) expect(field).toBeEnabled();
    const controls = root.querySelectorAll('select, button');
    expect(controls.length).toBeGreaterThanOrEqual(3);
    for (const control of controls) expect(control).toBeDisabled();
    expect(root.querySelector('button[type=submit]')).toBeDisabled();
    expect(page.markup).not.toMatch(/style=|<script/i);

    const html = withPrerenderedPage(INDEX, page);
    expect(html).toContain(`<html lang="pt-BR" class="${lightTheme}">`);
    expect(html).toContain('<meta name="color-scheme" content="light" />');
    expect(html).toContain(`<title>${page.title}</title>`);
    expect(html).toContain(`<div id="root" data-prerendered="login pt-BR light mail">${page.markup}</div>`);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(() => withPrerenderedPage('<html><body></body></html>', page)).toThrow(/index.html has no/);
  });

  it('is hydrated on a first visit: the same nodes come alive, the e-mail field gets the focus, nothing is rendered again', async () => {
    const errors = vi.spyOn(console, 'error');
    const { container } = await loadPrerendered('/backoffice/login?to=%2Ftenants');
    const email = container.querySelector('input[name="email"]');
    expect(container.querySelector('button[type=submit]')).toBeDisabled();
    expect(await start(container)).toBe('hydrated');
    // The very element the server sent, now enabled and focused.
    expect(container.querySelector('input[name="email"]')).toBe(email);
    await vi.waitFor(() => expect(email).toBeEnabled());
    expect(document.activeElement).toBe(email);
    for (const control of container.querySelectorAll('input, select, button')) expect(control).toBeEnabled();
    expect(container.dataset.prerendered).toBe('login pt-BR light mail');
    expect(errors).not.toHaveBeenCalled();
  });

  it('for a server without reset mail, shows the forgot link off with its reason from the first paint, hydrates, and asks nothing', async () => {
    const errors = vi.spyOn(console, 'error');
    const { page, container } = await loadPrerendered('/backoffice/login', 'no-mail');
    expect(page.key).toBe('login pt-BR light no-mail');
    const forgot = [...container.querySelectorAll('button')].find((b) => b.textContent === ptBR.auth.forgot.link);
    const hint = container.querySelector(`#${CSS.escape(forgot?.getAttribute('aria-describedby') ?? '-')}`);
    expect(forgot).toBeDisabled();
    expect(hint).toHaveTextContent(ptBR.auth.forgot.disabled);
    const requests: string[] = [];
    const fetch = (request: Request) => {
      requests.push(new URL(request.url, 'http://panel.test').pathname);
      return new Promise<Response>(() => undefined);
    };
    expect(await start(container, { settings: { passwordResetMail: false }, fetch })).toBe('hydrated');
    await vi.waitFor(() => expect(container.querySelector('button[type=submit]')).toBeEnabled());
    // The same nodes, still off and still saying why; the status is not asked (the page said it).
    expect([...container.querySelectorAll('button')].find((b) => b.textContent === ptBR.auth.forgot.link)).toBe(forgot);
    expect(forgot).toBeDisabled();
    expect(hint?.isConnected).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests.filter((path) => path.includes('password-reset'))).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
  });

  it("is dropped when the server cannot send mail but the page sent was the link's: rendered from scratch, the link off", async () => {
    const { container } = await loadPrerendered('/backoffice/login', 'mail');
    expect(await start(container, { settings: { passwordResetMail: false } })).not.toBe('hydrated');
    await vi.waitFor(() =>
      expect(
        [...container.querySelectorAll('button')].find((b) => b.textContent === ptBR.auth.forgot.link),
      ).toBeDisabled(),
    );
  });

  it('for a returning English dark-theme visitor, is their page: English, dark, hydrated, and their look kept in the cookie', async () => {
    const errors = vi.spyOn(console, 'error');
    window.localStorage.setItem(PREFERENCES_KEY, JSON.stringify({ locale: 'en', theme: 'dark' }));
    const page = await renderLoginPage('mail', { locale: 'en', theme: 'dark' });
    expect(page.key).toBe('login en dark mail');
    expect([page.lang, page.htmlClass, page.colorScheme]).toEqual(['en', darkTheme, 'dark']);
    expect(withPrerenderedPage(INDEX, page)).toContain('<meta name="color-scheme" content="dark" />');
    window.history.replaceState(null, '', '/backoffice/login');
    document.documentElement.className = page.htmlClass;
    document.body.innerHTML = `<div id="root" data-prerendered="${page.key}">${page.markup}</div>`;
    const container = document.getElementById('root')!;
    const heading = container.querySelector('h1');
    expect(heading).toHaveTextContent('Log in to the panel');
    expect(await start(container)).toBe('hydrated');
    expect(container.querySelector('h1')).toBe(heading);
    await vi.waitFor(() => expect(document.cookie).toContain('panel_look=en.dark'));
    expect(errors).not.toHaveBeenCalled();
  });

  it("is rendered first, and sent without a cookie, in a first visit's preferences (or every first visit replaces it)", async () => {
    const { locale, theme } = readPreferences(null);
    expect(FIRST_VISIT_LOOK).toEqual({ locale, theme });
    expect((await renderLoginPage()).key).toBe(`login ${locale} ${theme} mail`);
  });

  it('hydrates in every look and mail variant the build writes, with no console error and the same nodes', async () => {
    for (const { variant, look } of loginPages()) {
      const errors = vi.spyOn(console, 'error');
      // A returning visitor has more than the look stored: none of it is on the login page.
      const stored = { ...look, layout: 'horizontal', navbarWidth: 'boxed', sidebarCollapsed: true };
      window.localStorage.setItem(PREFERENCES_KEY, JSON.stringify(stored));
      const page = await renderLoginPage(variant, look);
      window.history.replaceState(null, '', '/backoffice/login');
      document.documentElement.className = page.htmlClass;
      document.body.innerHTML = `<div id="root" data-prerendered="${page.key}">${page.markup}</div>`;
      const container = document.getElementById('root')!;
      const heading = container.querySelector('h1');
      const how = await start(container, { settings: { passwordResetMail: variant === 'mail' } });
      expect(how, page.key).toBe('hydrated');
      await vi.waitFor(() => expect(container.querySelector('button[type=submit]'), page.key).toBeEnabled());
      expect(container.querySelector('h1'), page.key).toBe(heading);
      expect(errors, page.key).not.toHaveBeenCalled();
      errors.mockRestore();
      act(() => mounted?.unmount());
      mounted = undefined;
      services?.stop();
      services = undefined;
      window.localStorage.clear();
    }
  }, 60_000);

  it('writes the look cookie at start and when the language or theme changes', async () => {
    services = createAppServices({ window });
    await vi.waitFor(() => expect(document.cookie).toContain('panel_look=pt-BR.light'));
    services.preferences.send({ type: 'prefs.locale.set', locale: 'pt' });
    expect(document.cookie).toContain('panel_look=pt.light');
    services.preferences.send({ type: 'prefs.theme.toggle' });
    expect(document.cookie).toContain('panel_look=pt.dark');
  });

  it('keeps what was typed before the script ran, and focus where the user put it', async () => {
    const errors = vi.spyOn(console, 'error');
    const { container } = await loadPrerendered('/backoffice/login?to=%2Ftenants');
    const email = container.querySelector<HTMLInputElement>('input[name="email"]');
    const password = container.querySelector<HTMLInputElement>('input[name="password"]');
    if (!email || !password) throw new Error('the prerendered form has no fields');
    email.value = 'admin@demo.local';
    password.value = 'Back#Office!Demo';
    password.focus();
    expect(await start(container)).toBe('hydrated');
    await vi.waitFor(() => expect(container.querySelector('button[type=submit]')).toBeEnabled());
    expect(container.querySelector('input[name="email"]')).toBe(email);
    expect(email.value).toBe('admin@demo.local');
    expect(password.value).toBe('Back#Office!Demo');
    expect(document.activeElement).toBe(password);
    expect(errors).not.toHaveBeenCalled();
  });

  it('is dropped for a visitor who chose English: rendered from scratch in English, without the prerendered theme class', async () => {
    window.localStorage.setItem(PREFERENCES_KEY, JSON.stringify({ locale: 'en' }));
    const { container } = await loadPrerendered();
    const prerenderedEmail = container.querySelector('input[name="email"]');
    const services0 = createAppServices({ window });
    const chosen = services0.preferences.getSnapshot().context.locale;
    services0.stop();
    expect(chosen).toBe('en');
    expect(await start(container)).toBe('rendered');
    await vi.waitFor(() => expect(container.querySelector('h1')).toHaveTextContent('Log in to the panel'));
    expect(container.querySelector('input[name="email"]')).not.toBe(prerenderedEmail);
    expect(container.querySelector('input[name="email"]')).toBeEnabled();
    expect(container.dataset.prerendered).toBeUndefined();
    // useThemeClass puts the chosen theme's class back; the prerendered one went with the markup.
    expect(document.documentElement.classList).toContain(lightTheme);
  });

  it('is replaced, not emptied first: it stays on screen and inert until the app commits, then only the chosen theme is on <html>', async () => {
    window.localStorage.setItem(PREFERENCES_KEY, JSON.stringify({ locale: 'en', theme: 'dark' }));
    const { container } = await loadPrerendered();
    services = createAppServices({ window });
    const i18n = await createRuntimeI18n(services.preferences.getSnapshot().context.locale);
    decideFirstRoute(services, window.location);
    const key = prerenderKey(services, window.location.pathname);
    let before: { h1: string | null | undefined; inert: boolean; light: boolean } | undefined;
    await act(async () => {
      const app = mountApp(container, <App services={services!} i18n={i18n} />, key);
      mounted = app.root;
      // The transition has not rendered yet: the prerendered form is what the visitor sees.
      before = {
        h1: container.querySelector('h1')?.textContent,
        inert: container.inert,
        light: document.documentElement.classList.contains(lightTheme),
      };
    });
    expect(before).toEqual({ h1: ptBR.auth.login.title, inert: true, light: true });
    await vi.waitFor(() => expect(container.querySelector('h1')).toHaveTextContent('Log in to the panel'));
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    expect(container.inert).toBe(false);
    expect([...document.documentElement.classList]).toEqual([darkTheme]);
  });

  it('has a key only for the state it was rendered in', async () => {
    services = createAppServices({ window });
    expect(prerenderKey(services, '/backoffice/login')).toBe('login pt-BR light mail');
    expect(prerenderKey(services, '/farmacia/login/')).toBe('login pt-BR light mail');
    expect(prerenderKey(services, '/backoffice/tenants')).toBeNull();
    services.stop();
    services = createAppServices({ window, settings: { passwordResetMail: false } });
    expect(prerenderKey(services, '/backoffice/login')).toBe('login pt-BR light no-mail');
    expect(prerenderKey(services, '/')).toBeNull();
    services.preferences.send({ type: 'prefs.theme.set', theme: 'dark' });
    expect(prerenderKey(services, '/backoffice/login')).toBe('login pt-BR dark no-mail');
    services.preferences.send({ type: 'prefs.theme.set', theme: 'light' });
    services.preferences.send({ type: 'prefs.locale.set', locale: 'pt' });
    expect(prerenderKey(services, '/backoffice/login')).toBe('login pt light no-mail');
  });

  it('has no key with a stored session (the login page only redirects then)', () => {
    writeStoredSession(window.localStorage, {
      token: 'stored-token',
      expiresAt: Date.now() + 3_600_000,
      email: USER.email,
      originBackoffice: true,
      user: USER,
      permittedRoutes: [],
      permissions: [],
      baseUrl: '',
    });
    services = createAppServices({ window, fetch: () => new Promise<Response>(() => undefined) });
    expect(prerenderKey(services, '/backoffice/login')).toBeNull();
  });
});
