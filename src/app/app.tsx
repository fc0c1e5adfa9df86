import type { i18n as I18n } from 'i18next';
import { useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Router } from 'wouter';
import { ensureLocale } from '../i18n/runtime';
import type { AppServices } from './app-services';
import { LazyToastRegion } from '../ui/components/lazy-toast-region';
import { AppRouter } from './router';
import { ServicesProvider, usePreferences, useServices } from '../ui/hooks/services-context';
import './global.css';

export interface AppProps {
  services: AppServices;
  i18n: I18n;
  /** A wouter location hook (tests pass a memory location); default: the browser's. */
  locationHook?: Parameters<typeof Router>[0]['hook'];
  /** The address to render outside a browser (the build-time login page, src/app/prerender.tsx). */
  ssrPath?: string;
}

/**
 * The root: services and translations for every view, then the tenant router (the SPA is served
 * under `/{tenant}/…`: docs/product.md, Tenants in the address). Theme, language and `<html lang>` follow the preferences machine.
 */
export function App({ services, i18n, locationHook, ssrPath }: AppProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <ServicesProvider services={services}>
        <LocaleSync i18n={i18n} />
        <Router {...(locationHook ? { hook: locationHook } : {})} {...(ssrPath === undefined ? {} : { ssrPath })}>
          <AppRouter />
        </Router>
        <LazyToastRegion />
      </ServicesProvider>
    </I18nextProvider>
  );
}

/** Keeps i18next, `<html lang>` and the tab title in step with the chosen locale. */
function LocaleSync({ i18n }: { i18n: I18n }) {
  const locale = usePreferences((s) => s.context.locale);
  const { preferences } = useServices();
  useEffect(() => {
    let current = true;
    // pt and en are loaded on first use; <html lang> changes with the text, not before it.
    void ensureLocale(i18n, locale).then(async () => {
      if (!current) return;
      if (i18n.language !== locale) await i18n.changeLanguage(locale);
      document.documentElement.lang = locale;
    });
    return () => {
      current = false;
    };
  }, [i18n, locale, preferences]);
  return null;
}
