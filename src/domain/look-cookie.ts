import { DEFAULT_LOCALE, SUPPORTED_LOCALES, type Locale } from '../i18n/options';

/**
 * The language and theme a visitor chose, also kept in a cookie (the preferences themselves live in
 * localStorage, which the server cannot read): the server sends the login page prerendered in them
 * (server/src/plugins/static.ts, src/app/prerender-state.ts), so a returning English or dark-theme visitor
 * sees their page from the first paint instead of the pt-BR light one replaced after the scripts ran.
 * Not a secret and not an identifier: `<locale>.<theme>`, e.g. `en.dark`.
 */
export const LOOK_COOKIE = 'panel_look';

export type LookTheme = 'light' | 'dark';
export interface Look {
  locale: Locale;
  theme: LookTheme;
}

export const LOOK_THEMES: readonly LookTheme[] = ['light', 'dark'];

/**
 * A visit without the cookie: the preferences' defaults (src/machines/preferences/preferences.machine.ts
 * `DEFAULT_PREFERENCES`), the page the server sends it and the one the build renders first.
 */
export const FIRST_VISIT_LOOK: Readonly<Look> = { locale: DEFAULT_LOCALE, theme: 'light' };

/** The `Set-Cookie`-style string `document.cookie` takes: a year, the whole site, first-party only. */
export function lookCookie(look: Look, secure: boolean): string {
  return `${LOOK_COOKIE}=${look.locale}.${look.theme}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The look a request's `Cookie` header names; null when it names none, or one this panel does not have. */
export function lookFromCookies(header: string | undefined): Look | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== LOOK_COOKIE) continue;
    const [locale = '', theme = '', ...rest] = part
      .slice(at + 1)
      .trim()
      .split('.');
    if (rest.length > 0) return null;
    const knownLocale = (SUPPORTED_LOCALES as readonly string[]).includes(locale);
    const knownTheme = (LOOK_THEMES as readonly string[]).includes(theme);
    return knownLocale && knownTheme ? { locale: locale as Locale, theme: theme as LookTheme } : null;
  }
  return null;
}

/** Every look, for the build's prerendered pages. */
export function everyLook(): Look[] {
  return SUPPORTED_LOCALES.flatMap((locale) => LOOK_THEMES.map((theme) => ({ locale, theme })));
}

/**
 * The build's file of the login page prerendered in `look`, for a server that can send reset links
 * (`mail`) or not (src/app/prerender-state.ts `LoginMailVariant`).
 */
export function loginPageFile(look: Look, mail: 'mail' | 'no-mail'): string {
  return `login.${look.locale}.${look.theme}.${mail}.html`;
}
