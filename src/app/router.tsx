import { useSelector } from '@xstate/react';
import { Suspense, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Redirect, Route, Router, useLocation, useSearch } from 'wouter';
import { DEFAULT_TENANT, matchPath, splitTenantPath, type AppRoute } from '../domain/paths';
import { selectAllowedRoute, selectGuardRedirect } from '../machines/navigation/route-guard.machine';
import { usePreferences, useServices } from '../ui/hooks/services-context';
import { BlankLayout } from '../ui/layouts/blank-layout';
import { ErrorBoundary } from './error-boundary';
import { LazyMainLayout, SCREENS } from './screens-registry';
import { PageFallback } from './page-fallback';
import { SignedInPreloader } from './signed-in-preloader';
import { useThemeClass } from '../ui/components/theme-class';

/**
 * The tenant router (docs/product.md, Tenants in the address): the first path segment is the tenant and wouter's base; every route
 * of the table (src/domain/paths.ts) renders in its layout once the route guard allows it. The guard
 * runs after every navigation (docs/product.md, Routes) and on every session change; its redirects replace history.
 */
export function AppRouter() {
  const [location] = useLocation();
  const { tenant } = splitTenantPath(location);
  if (tenant === null) return <Redirect to={`/${DEFAULT_TENANT}/`} replace />;
  return (
    <Router base={`/${tenant}`}>
      <TenantSocket tenant={tenant} />
      <ThemedRoutes />
    </Router>
  );
}

/** A tenant switch (first segment changed) reconnects the socket for the new tenant (socket.md §4.4). */
function TenantSocket({ tenant }: { tenant: string }) {
  const { app } = useServices();
  const previous = useRef(tenant);
  useLayoutEffect(() => {
    if (previous.current === tenant) return;
    previous.current = tenant;
    // The root forwards it to a running socket; before sign-in the socket reads the tenant when it starts.
    app.send({ type: 'app.tenant', tenant });
  }, [app, tenant]);
  return null;
}

function ThemedRoutes() {
  const theme = usePreferences((s) => s.context.theme);
  // The theme on every route; React Aria's providers live in the main layout (the login route has no RAC).
  useThemeClass(theme);
  return <GuardedRoute />;
}

/** Tells the guard where we are (before paint), follows its redirects, renders what it allows. */
function GuardedRoute() {
  const { guard } = useServices();
  const [path, navigate] = useLocation();
  const search = useSearch();
  useLayoutEffect(() => {
    guard.send({ type: 'route.navigate', pathname: path, search });
  }, [guard, path, search]);

  const redirect = useSelector(guard, selectGuardRedirect);
  const allowed = useSelector(guard, selectAllowedRoute);
  useLayoutEffect(() => {
    if (redirect !== null) navigate(redirect, { replace: true });
  }, [navigate, redirect]);

  // Render only a decision about THIS path: never a screen the guard has not cleared yet.
  const current = matchPath(path);
  if (redirect !== null || allowed === null || current?.route.name !== allowed.route.name) return <PageFallback />;
  return (
    <>
      <RouteFrame route={allowed.route}>
        {/* A new route (or :id) is a new screen: its machines start fresh. */}
        <ScreenFor key={`${allowed.route.name}:${JSON.stringify(allowed.params)}`} route={allowed.route} />
      </RouteFrame>
      {allowed.route.name === 'login' ? <SignedInPreloader /> : null}
    </>
  );
}

/**
 * The route's chrome: a `page` route (404, 500, not-authorized, coming soon) stays inside the shell
 * when there is a session, so the user keeps the menu (docs/panel.md, Navigation and pages inside the shell).
 */
function RouteFrame({ route, children }: { route: AppRoute; children: ReactNode }) {
  // The guard holds who is navigating (route.session); reading it keeps the session selectors off the login path.
  const signedIn = useSelector(useServices().guard, (s) => s.context.subject.authenticated);
  if (route.layout === 'blank' || (route.layout === 'page' && !signedIn)) {
    return <BlankLayout route={route}>{children}</BlankLayout>;
  }
  return (
    <Suspense fallback={<PageFallback />}>
      <LazyMainLayout route={route}>{children}</LazyMainLayout>
    </Suspense>
  );
}

function ScreenFor({ route }: { route: AppRoute }) {
  const Screen = SCREENS[route.name];
  return (
    <ErrorBoundary headingLevel={route.layout === 'main' ? 2 : 1}>
      <Suspense fallback={<PageFallback />}>
        {/* Inside a <Route> of its table path, so screens read `:params` with wouter's useParams(). */}
        <Route path={route.path}>
          <Screen />
        </Route>
      </Suspense>
    </ErrorBoundary>
  );
}
