import { render, type RenderResult } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createAppServices, type AppServices } from '../../app/app-services';
import * as realtimeCode from '../../machines/realtime/realtime';
import { writeStoredSession, type StoredSession, type User } from '../../machines/session/session-storage';
import { fakeSockets } from '../../machines/test-support/socket-fakes';
import { fakeServer, json, type Responder, type SeenRequest } from '../../machines/test-support/fake-fetch';
import { createI18n } from '../../i18n/setup';
import { UiProvider } from '../components/ui-provider';
import { App } from '../../app/app';
import { ServicesProvider } from '../hooks/services-context';

/**
 * Renders a view against the REAL app services (session, guard, preferences, socket machines and the
 * typed clients) over a scripted network, so component tests exercise what users run. Nothing is
 * mocked above `fetch` and `WebSocket`.
 */

/** Where the fake API lives: jsdom's fetch (Node's) refuses relative URLs. */
export const API_BASE = 'http://api.test';

export const ADMIN_USER: User = {
  id: 1,
  version: 1,
  name: 'Ana Administradora',
  username: 'ana.administradora',
  email: 'admin@demo.local',
  image: null,
  isConnected: true,
  role: { id: 1, name: 'administrador', display_name: 'Administrador', version: 1, has_permission_routes: [] },
  userDepartment: { id: 1, name: 'Suporte', activated: true, version: 1 },
  userInstances: [],
  blocked: false,
  twoFactorEnabled: false,
  twoFactorEnrolmentRequired: false,
  tenantName: 'backoffice',
  origin_backoffice: true,
};

export interface RenderOptions {
  /** Tenant-relative path the router starts at (e.g. `/users?page=2`). Default `/`. */
  path?: string;
  /** Tenant (first path segment of the page address). Default `backoffice`. */
  tenant?: string;
  /** Answers every request; unmatched requests should return a 404 so a test sees them. */
  respond?: Responder;
  /** Start signed in as this user (with these permitted routes), or signed out (`false`, default). */
  signedIn?: false | { user?: User; permittedRoutes?: string[] };
  locale?: string;
}

export interface RenderedApp extends RenderResult {
  services: AppServices;
  i18n: I18n;
  /** Every request the views sent, in order. */
  requests: SeenRequest[];
  /** The router's current tenant-relative location (memory history). */
  location(): string;
  sockets: ReturnType<typeof fakeSockets>;
}

const notFound: Responder = (request) => json(404, { message: `no fake for ${request.method} ${request.path}` });

/** The socket's tickets (contracts/socket.md §1.1) answered for every test, before its own responder. */
function withSocketTickets(respond: Responder): Responder {
  let tickets = 0;
  return (request) =>
    request.method === 'POST' && request.path === '/api/auth/socket-ticket'
      ? json(200, { ticket: `ticket-${++tickets}`, expires_in: 30 })
      : respond(request);
}

/** Storage, network, socket and services for one test, as a signed-in or signed-out visitor at `path`. */
function setup(options: RenderOptions, path: string) {
  const tenant = options.tenant ?? 'backoffice';
  window.history.replaceState(null, '', `/${tenant}${path}`);
  window.localStorage.clear();
  if (options.signedIn) {
    const user = options.signedIn.user ?? ADMIN_USER;
    const stored: StoredSession = {
      token: 'test-token',
      expiresAt: Date.now() + 3_600_000,
      email: user.email,
      originBackoffice: user.origin_backoffice,
      user,
      permittedRoutes: options.signedIn.permittedRoutes ?? [],
      permissions: [],
      baseUrl: API_BASE,
    };
    writeStoredSession(window.localStorage, stored);
  }
  const server = fakeServer(withSocketTickets(options.respond ?? notFound));
  const sockets = fakeSockets();
  const services = createAppServices({
    window,
    fetch: server.fetch,
    apiBase: API_BASE,
    createSocket: sockets.create,
    realtimeCode,
  });
  const i18n = createI18n(options.locale);
  return { tenant, server, sockets, services, i18n };
}

/** Renders `ui` inside the providers the shell sets up, with a memory router at `path`. */
export function renderWithServices(ui: ReactElement, options: RenderOptions = {}): RenderedApp {
  const path = options.path ?? '/';
  const { server, sockets, services, i18n } = setup(options, path);
  const memory = memoryLocation({ path, record: true });

  const Providers = ({ children }: { children: ReactNode }) => (
    <I18nextProvider i18n={i18n}>
      <ServicesProvider services={services}>
        <Router hook={memory.hook}>
          <UiProvider>{children}</UiProvider>
        </Router>
      </ServicesProvider>
    </I18nextProvider>
  );
  const result = render(ui, { wrapper: Providers });
  return {
    ...result,
    services,
    i18n,
    requests: server.seen,
    location: () => memory.history?.at(-1) ?? path,
    sockets,
    unmount: () => {
      result.unmount();
      services.stop();
    },
  };
}

/**
 * Renders the whole app (router, guard, layouts, screens) at `/{tenant}{path}` over the real services.
 * `location()` answers the full address, tenant included.
 */
export function renderApp(options: RenderOptions = {}): RenderedApp {
  const path = options.path ?? '/';
  const { tenant, server, sockets, services, i18n } = setup(options, path);
  const memory = memoryLocation({ path: `/${tenant}${path}`, record: true });
  const result = render(<App services={services} i18n={i18n} locationHook={memory.hook} />);
  return {
    ...result,
    services,
    i18n,
    requests: server.seen,
    location: () => memory.history?.at(-1) ?? path,
    sockets,
    unmount: () => {
      result.unmount();
      services.stop();
    },
  };
}
