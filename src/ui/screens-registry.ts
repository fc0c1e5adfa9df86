import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { RouteName } from '../domain/paths';
import { ensureAppLocale } from '../i18n/runtime';
import type { MainLayoutProps } from './layouts/main-layout';
// The login screen is the first paint of a signed-out visit (LCP): in the entry chunk, not lazy.
import LoginScreen from './screens/login/login';

/** SPEC §8: a chunk that has not loaded after 120 s is an error (the boundary offers a retry). */
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkTimeoutError extends Error {
  override readonly name = 'ChunkTimeoutError';
}

/** `React.lazy` with SPEC §8's timeout: a stalled network ends in the error page, not a spinner forever. */
export function lazyWithTimeout<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  timeoutMs = CHUNK_TIMEOUT_MS,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ChunkTimeoutError(`chunk load timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([load(), timeout]).finally(() => clearTimeout(timer));
  });
}

const comingSoon = lazyWithTimeout(() => import('./screens/comingsoon/comingsoon'));

/** Every screen but login, loaded on first visit (the login route carries none of them). */
export const SCREENS: Readonly<Record<RouteName, ComponentType>> = {
  home: lazyWithTimeout(() => import('./screens/home/home')),
  // Screens still being built (issue #6 tenants, dashboards, reports) show the coming-soon page until they land.
  'user-settings': lazyWithTimeout(() => import('./screens/user-settings/user-settings')),
  users: lazyWithTimeout(() => import('./screens/users/users')),
  'two-factor': lazyWithTimeout(() => import('./screens/two-factor/two-factor')),
  tenants: lazyWithTimeout(() => import('./screens/tenants/tenants')),
  'roles-list': lazyWithTimeout(() => import('./screens/roles-list/roles-list')),
  'roles-edit': lazyWithTimeout(() => import('./screens/roles-edit/roles-edit')),
  'dashboard-analytics': lazyWithTimeout(() => import('./screens/dashboard/dashboard')),
  'dashboard-control-panel': lazyWithTimeout(() => import('./screens/dashboard/dashboard')),
  'dashboard-maria-panel': lazyWithTimeout(() => import('./screens/dashboard/dashboard')),
  'dashboard-produtivity-report': lazyWithTimeout(() => import('./screens/productivity-report/productivity-report')),
  'dashboard-report': lazyWithTimeout(() => import('./screens/login-failure-report/login-failure-report')),
  'dashboard-report-smart': lazyWithTimeout(() => import('./screens/login-failure-report/login-failure-report')),
  login: LoginScreen,
  comingsoon: comingSoon,
  'error-404': lazyWithTimeout(() => import('./screens/errors/not-found')),
  'error-500': lazyWithTimeout(() => import('./screens/errors/server-error')),
  'not-authorized': lazyWithTimeout(() => import('./screens/errors/not-authorized')),
};

/**
 * The main layout (navbar, menus, switchers) is its own chunk: the login route never needs it. It
 * renders once the current language's complete messages are in (src/i18n/runtime.ts).
 */
export const LazyMainLayout: LazyExoticComponent<ComponentType<MainLayoutProps>> = lazyWithTimeout(() =>
  Promise.all([import('./layouts/main-layout'), ensureAppLocale()]).then(([layout]) => layout),
);
