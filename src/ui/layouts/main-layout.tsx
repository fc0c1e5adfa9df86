import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { warmFormats } from '../../domain/format';
import type { AppRoute } from '../../domain/paths';
import { AriaProviders } from '../components/ui-provider';
import { usePreferences, useRealtime, useServices } from '../hooks/services-context';
import { HorizontalMenu } from '../shell/horizontal-menu';
import { MobileNav } from '../shell/mobile-nav';
import { Navbar } from '../shell/navbar';
import { NavSections } from '../shell/nav-sections';
import { PageHeader } from '../shell/page-header';
import { RequestBar } from '../shell/request-bar';
import { useAfterFirstPaint } from '../hooks/use-after-first-paint';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useMediaQuery } from '../hooks/use-media-query';
import { useOwnTenant } from '../hooks/use-own-tenant';
import * as styles from './main-layout.css';

export interface MainLayoutProps {
  route: AppRoute;
  children: ReactNode;
}

// The lists' formatters, built as this chunk loads (while the login page is idle, src/app/signed-in-preloader.tsx),
// in the language the app started in: not in the first list's render (src/domain/format.ts warmFormats).
if (typeof document !== 'undefined') warmFormats(document.documentElement.lang || undefined);

/** Below this width the menu is a drawer whatever the layout preference. */
export const NARROW_QUERY = '(max-width: 64rem)';

/**
 * The signed-in chrome (docs/product.md, Preferences and global state): vertical (sidebar, default) or horizontal (top menu)
 * layout, collapsible sidebar, navbar, the request indicator, the page title with its star. React
 * Aria's provider (its locale) starts here: the signed-out routes do without RAC.
 */
export default function MainLayout(props: MainLayoutProps) {
  // The socket and activity feed the navbar shows load at sign-in: the layout waits for them as a
  // whole (under the route's page fallback) rather than piece by piece.
  useRealtime();
  const elsewhere = useOwnTenant();
  if (elsewhere) return null;
  return (
    <AriaProviders>
      <Shell {...props} />
    </AriaProviders>
  );
}

function Shell({ route, children }: MainLayoutProps) {
  const { t } = useTranslation();
  const { preferences } = useServices();
  const { layout, sidebarCollapsed, navbarWidth } = usePreferences((s) => s.context);
  const narrow = useMediaQuery(NARROW_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The sidebar's sections come after the screen's first paint (its width is fixed: nothing moves).
  const menu = useAfterFirstPaint();
  useDocumentTitle(route);

  const toggleMenu = () =>
    narrow || layout === 'horizontal' ? setDrawerOpen(true) : preferences.send({ type: 'prefs.sidebar.toggle' });
  const sidebar = layout === 'vertical' && !narrow;

  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skip}>
        {t('shell.skipToContent')}
      </a>
      {sidebar ? (
        <nav
          aria-label={t('shell.mainNavigation')}
          className={sidebarCollapsed ? styles.sidebarCollapsed : styles.sidebar}
        >
          <p className={styles.brand}>{sidebarCollapsed ? t('app.short') : t('app.name')}</p>
          {menu ? <NavSections collapsed={sidebarCollapsed} /> : null}
        </nav>
      ) : null}
      <div className={styles.column}>
        <Navbar onToggleMenu={toggleMenu} />
        {layout === 'horizontal' && !narrow ? <HorizontalMenu /> : null}
        <RequestBar />
        <main id="main" tabIndex={-1} className={navbarWidth === 'boxed' ? styles.mainBoxed : styles.main}>
          {/* A `page` route (404, not-authorized…) titles itself: its h1 says what happened. */}
          {route.layout === 'page' ? null : <PageHeader route={route} />}
          {children}
        </main>
      </div>
      <MobileNav isOpen={drawerOpen} onOpenChange={setDrawerOpen} />
    </div>
  );
}
