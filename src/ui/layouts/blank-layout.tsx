import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppRoute } from '../../domain/paths';
import { LanguageSelect } from '../shell/language-select';
import { ThemeToggle } from '../shell/theme-toggle';
import { useDocumentTitle } from '../hooks/use-document-title';
import * as styles from './blank-layout.css';

export interface BlankLayoutProps {
  route: AppRoute;
  children: ReactNode;
}

/** Login and `/pages/*` (docs/product.md, Routes): no menus, just the page, with language and theme at hand. */
export function BlankLayout({ route, children }: BlankLayoutProps) {
  const { t } = useTranslation();
  useDocumentTitle(route);
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <span className={styles.brand}>{t('app.name')}</span>
        <div className={styles.tools}>
          <LanguageSelect />
          <ThemeToggle />
        </div>
      </header>
      <main id="main" className={styles.main} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
