import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { getRoute, isRouteName, type AppRoute } from '../../../domain/paths';
import { canAccess } from '../../../domain/route-access';
import { grantorsMachine } from '../../../machines/navigation/grantors.machine';
import { selectAccessSubject } from '../../../machines/session/session-selectors';
import { ErrorPage } from '../../components/error-page';
import * as styles from '../../components/error-page.css';
import * as linkStyles from '../../components/link.css';
import { useServices, useSession } from '../../hooks/services-context';

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
  // Who can grant it, only for a caller that may list the tenant's users anyway (docs/panel.md).
  const mayListUsers = useSession((s) => canAccess(getRoute('users'), selectAccessSubject(s)));
  return (
    <ErrorPage
      code="403"
      title={t('pages.notAuthorized.title')}
      body={
        needs === null ? (
          t('pages.notAuthorized.body')
        ) : (
          <>
            <p className={styles.paragraph}>
              {t(needs.key, { page: t(needs.titleKey), permission: needs.permission })}
              {needs.key === 'pages.notAuthorized.needsPermission' ? ` ${t('pages.notAuthorized.askAdmin')}` : null}
            </p>
            {needs.key === 'pages.notAuthorized.needsPermission' && mayListUsers ? <Grantors /> : null}
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

/** The tenant's administradores (src/machines/navigation/grantors.machine.ts); nothing while loading or on failure. */
function Grantors() {
  const { t } = useTranslation();
  const { clients } = useServices();
  const actor = useActorRef(grantorsMachine, { input: { rest: clients.rest } });
  const { people, total } = useSelector(actor, (s) => s.context);
  const ready = useSelector(actor, (s) => s.matches('ready'));
  if (!ready || people.length === 0) return null;
  return (
    <div className={styles.paragraph}>
      <p className={styles.paragraph}>{t('pages.notAuthorized.grantors')}</p>
      <ul aria-label={t('pages.notAuthorized.grantors')} className={styles.people}>
        {people.map((person) => (
          <li key={person.id}>
            {person.name} (
            <a className={linkStyles.link} href={`mailto:${person.email}`}>
              {person.email}
            </a>
            )
          </li>
        ))}
        {total > people.length ? (
          <li>{t('pages.notAuthorized.moreGrantors', { count: total - people.length })}</li>
        ) : null}
      </ul>
    </div>
  );
}
