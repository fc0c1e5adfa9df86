import type { ComponentType } from 'react';
import { matchPath, type RouteName } from '../domain/paths';
import { lazyWithTimeout, type PreloadableComponent } from '../ui/components/preloadable';
import { ensureAppLocale } from '../i18n/runtime';
import type { MainLayoutProps } from '../ui/layouts/main-layout';
// The login screen is the first paint of a signed-out visit (LCP): in the entry chunk, not lazy.
import LoginScreen from '../ui/screens/login/login';

// Every screen through lazyWithTimeout (src/ui/components/preloadable.tsx): its chunk times out, the router's boundary shows the failure.

/** Every screen but login, loaded on first visit (the login route carries none of them). */
export const SCREENS: Readonly<Record<RouteName, ComponentType | PreloadableComponent<object>>> = {
  home: lazyWithTimeout(() => import('../ui/screens/home/home')),
  'user-settings': lazyWithTimeout(() => import('../ui/screens/account/user-settings/user-settings')),
  users: lazyWithTimeout(() => import('../ui/screens/users/users')),
  'two-factor': lazyWithTimeout(() => import('../ui/screens/account/two-factor/two-factor')),
  tenants: lazyWithTimeout(() => import('../ui/screens/tenants/tenants')),
  'roles-list': lazyWithTimeout(() => import('../ui/screens/roles/list/roles-list')),
  'roles-edit': lazyWithTimeout(() => import('../ui/screens/roles/edit/roles-edit')),
  departments: lazyWithTimeout(() => import('../ui/screens/departments/departments')),
  audit: lazyWithTimeout(() => import('../ui/screens/audit/audit')),
  webhooks: lazyWithTimeout(() => import('../ui/screens/webhooks/webhooks')),
  support: lazyWithTimeout(() => import('../ui/screens/support/support')),
  'support-person': lazyWithTimeout(() => import('../ui/screens/support/support-person')),
  'dashboard-analytics': lazyWithTimeout(() => import('../ui/screens/dashboard/dashboard')),
  'dashboard-control-panel': lazyWithTimeout(() => import('../ui/screens/dashboard/dashboard')),
  'dashboard-maria-panel': lazyWithTimeout(() => import('../ui/screens/dashboard/dashboard')),
  'dashboard-produtivity-report': lazyWithTimeout(
    () => import('../ui/screens/productivity-report/productivity-report'),
  ),
  'dashboard-report': lazyWithTimeout(() => import('../ui/screens/login-failure-report/login-failure-report')),
  'dashboard-report-smart': lazyWithTimeout(() => import('../ui/screens/login-failure-report/login-failure-report')),
  login: LoginScreen,
  // With the complete messages: its strength meter's words are not among the core ones.
  'reset-password': lazyWithTimeout(() =>
    Promise.all([import('../ui/screens/login/reset-password'), ensureAppLocale()]).then(([screen]) => screen),
  ),
  // The 404, not-authorized and coming-soon pages speak from the complete messages (their words are
  // not among the core ones the login carries); the 500 content is in the entry, with its words.
  comingsoon: lazyWithTimeout(() =>
    Promise.all([import('../ui/screens/errors/comingsoon'), ensureAppLocale()]).then(([screen]) => screen),
  ),
  'error-404': lazyWithTimeout(() =>
    Promise.all([import('../ui/screens/errors/not-found'), ensureAppLocale()]).then(([screen]) => screen),
  ),
  'error-500': lazyWithTimeout(() => import('../ui/screens/errors/server-error')),
  'not-authorized': lazyWithTimeout(() =>
    Promise.all([import('../ui/screens/errors/not-authorized'), ensureAppLocale()]).then(([screen]) => screen),
  ),
};

/**
 * The main layout (navbar, menus, switchers) is its own chunk: the login route never needs it. It
 * renders once the current language's complete messages are in (src/i18n/runtime.ts).
 */
export const LazyMainLayout: PreloadableComponent<MainLayoutProps> = lazyWithTimeout(() =>
  Promise.all([import('../ui/layouts/main-layout'), ensureAppLocale()]).then(([layout]) => layout),
);

/**
 * Fetches what showing `target` (a tenant-relative address) after sign-in takes — the main layout,
 * the complete messages and the target's screen — so the first signed-in render does not wait for
 * the network or suspend. The login screen calls it once the form is idle.
 */
export function preloadSignedIn(target: string): Promise<unknown> {
  const route = matchPath(target.split(/[?#]/)[0] ?? '/')?.route;
  const loads: Promise<unknown>[] = [];
  if (route?.layout === 'main') {
    loads.push(LazyMainLayout.preload());
    const screen = SCREENS[route.name];
    if ('preload' in screen) loads.push(screen.preload());
  }
  return Promise.all(loads);
}
