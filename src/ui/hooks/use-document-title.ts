import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppRoute } from '../../domain/paths';

/** The tab title names the page, then the product (WCAG 2.4.2): also the prerendered login page's. */
export function documentTitle(t: TFunction, route: AppRoute): string {
  return `${t(route.titleKey)} · ${t('app.name')}`;
}

/** The tab title names the page, then the product (WCAG 2.4.2), in the current language. */
export function useDocumentTitle(route: AppRoute): void {
  const { t } = useTranslation();
  const title = documentTitle(t, route);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
