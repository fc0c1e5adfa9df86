import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { getRoute, isRouteName, type AppRoute } from '../../../domain/paths';
import { ErrorPage } from '../../components/error-page';

/**
 * `/pages/not-authorized`: a checked route the user's role may not open (docs/product.md, Routes).
 * The guard adds `?page=<route name>` (src/domain/route-access.ts), so the page names what that
 * route needs: its permission, or being back-office staff; and who can grant it (docs/panel.md).
 */
export default function NotAuthorizedScreen() {
  const { t } = useTranslation();
  const wanted = new URLSearchParams(useSearch()).get('page');
  const route = wanted !== null && isRouteName(wanted) ? getRoute(wanted) : null;
  const needs = route === null ? null : notAuthorizedReason(route);
  return (
    <ErrorPage
      code="403"
      title={t('pages.notAuthorized.title')}
      body={
        needs === null ? (
          t('pages.notAuthorized.body')
        ) : (
          <>
            {t(needs.key, { page: t(needs.titleKey), permission: needs.permission })}
            {needs.key === 'pages.notAuthorized.needsPermission' ? ` ${t('pages.notAuthorized.askAdmin')}` : null}
          </>
        )
      }
      action={{ label: t('pages.notAuthorized.action'), href: '/' }}
    />
  );
}

type NotAuthorizedReason = {
  key: 'pages.notAuthorized.needsPermission' | 'pages.notAuthorized.needsStaff' | 'pages.notAuthorized.needsAdmin';
  titleKey: AppRoute['titleKey'];
  permission: string;
};

/** What a route asks that the user lacks, as src/domain/route-access.ts `canAccess` decides it. */
function notAuthorizedReason(route: AppRoute): NotAuthorizedReason | null {
  const rule: string = route.rule;
  if (rule === 'all') return null;
  const permission = 'permission' in route ? route.permission : route.name;
  const key =
    'staff' in route && route.staff
      ? 'pages.notAuthorized.needsStaff'
      : rule === 'admin'
        ? 'pages.notAuthorized.needsAdmin'
        : 'pages.notAuthorized.needsPermission';
  return { key, titleKey: route.titleKey, permission };
}
