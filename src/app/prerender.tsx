import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { escapeHtmlText } from '../domain/html';
import { DEFAULT_TENANT, getRoute, withTenant } from '../domain/paths';
import { createRuntimeI18n } from '../i18n/runtime';
import { createAppServices } from './app-services';
import { App } from './app';
import { darkTheme, lightTheme } from '../ui/theme.css';
import { PREFERENCES_KEY } from '../machines/preferences/preferences.machine';
import { memoryStorage } from '../machines/session/session-storage';
import { everyLook, FIRST_VISIT_LOOK, loginPageFile, type Look } from '../domain/look-cookie';
import { decideFirstRoute, prerenderKey, type LoginMailVariant } from './prerender-state';
import { documentTitle } from '../ui/hooks/use-document-title';

/**
 * The build-time render of the login page (for its largest contentful paint; docs/performance.md), run by rsbuild.config.ts after a
 * production build. Its markup goes into `dist/web/login.<locale>.<theme>.<mail>.html` (src/domain/look-cookie.ts), one of which the server sends for
 * `/{tenant}/login`; src/app/main.tsx hydrates it when the app's state has the same
 * {@link prerenderKey}. The page shows at once, before any script ran; its controls are disabled
 * until hydrated (useHydrated).
 */
export interface PrerenderedPage {
  /** `#root`'s markup. */
  markup: string;
  /** The {@link prerenderKey} it was rendered for (`#root[data-prerendered]`). */
  key: string;
  /** The tab title the page sets itself (useDocumentTitle). */
  title: string;
  /** `<html lang>`. */
  lang: string;
  /** The theme class `<html>` carries (useThemeClass puts it there in the browser). */
  htmlClass: string;
  /** `<meta name="color-scheme">`: the theme's. */
  colorScheme: 'light' | 'dark';
}

/** A window for the build: a visit's address, the look's preferences stored, no events, no network. */
function buildTimeWindow(pathname: string, look: Look): Window & typeof globalThis {
  const noNetwork = () => Promise.reject(new Error('no network while prerendering'));
  const window = {
    location: { pathname, search: '', protocol: 'https:' },
    localStorage: memoryStorage({ [PREFERENCES_KEY]: JSON.stringify(look) }),
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    fetch: noNetwork,
  };
  // Only these members are read while the login page renders.
  return window as unknown as Window & typeof globalThis;
}

/**
 * The login page as a signed-out visit in `look` sees it (a first visit: pt-BR, light), for a server that
 * can send reset links (`mail`) or not.
 */
export async function renderLoginPage(
  variant: LoginMailVariant = 'mail',
  look: Look = FIRST_VISIT_LOOK,
): Promise<PrerenderedPage> {
  const pathname = withTenant(DEFAULT_TENANT, getRoute('login').path);
  const window = buildTimeWindow(pathname, look);
  const services = createAppServices({ window, settings: { passwordResetMail: variant === 'mail' } });
  try {
    const key = prerenderKey(services, pathname);
    if (key === null) throw new Error('a first visit to the login page is not in the prerendered state');
    const i18n = await createRuntimeI18n(look.locale);
    decideFirstRoute(services, window.location);
    const markup = renderToString(
      <StrictMode>
        <App services={services} i18n={i18n} ssrPath={pathname} />
      </StrictMode>,
    );
    return {
      markup,
      key,
      title: documentTitle(i18n.t, getRoute('login')),
      lang: i18n.language,
      htmlClass: look.theme === 'dark' ? darkTheme : lightTheme,
      colorScheme: look.theme,
    };
  } finally {
    services.stop();
  }
}

/**
 * index.html with the prerendered page: markup in `#root` (marked with its key), the language,
 * theme class and title on the document, `color-scheme` pinned to the theme. No inline script or
 * style: the CSP forbids both.
 */
export function withPrerenderedPage(indexHtml: string, page: PrerenderedPage): string {
  const replaceOnce = (html: string, pattern: RegExp, replacement: string) => {
    if (!pattern.test(html)) throw new Error(`index.html has no ${pattern}`);
    return html.replace(pattern, () => replacement);
  };
  let html = indexHtml;
  html = replaceOnce(
    html,
    /<html lang="[^"]*">/,
    `<html lang="${escapeHtmlText(page.lang)}" class="${escapeHtmlText(page.htmlClass)}">`,
  );
  html = replaceOnce(
    html,
    /<meta name="color-scheme" content="[^"]*"\s*\/?>/,
    `<meta name="color-scheme" content="${page.colorScheme}" />`,
  );
  html = replaceOnce(html, /<title>[^<]*<\/title>/, `<title>${escapeHtmlText(page.title)}</title>`);
  html = replaceOnce(
    html,
    /<div id="root"><\/div>/,
    `<div id="root" data-prerendered="${escapeHtmlText(page.key)}">${page.markup}</div>`,
  );
  return html;
}

/** Every page the build writes into `dist/web` beside index.html: each look, with and without reset mail. */
export function loginPages(): { file: string; variant: LoginMailVariant; look: Look }[] {
  return (['mail', 'no-mail'] as const).flatMap((variant) =>
    everyLook().map((look) => ({ file: loginPageFile(look, variant), variant, look })),
  );
}
