import { useActorRef, useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { useLocale } from 'react-aria-components/I18nProvider';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { formatDate } from '../../../domain/format';
import { matchPath } from '../../../domain/paths';
import { dashboardMachine, type DashboardActor, type SeriesData } from '../../../machines/dashboard/dashboard.machine';
import type { I18nKey } from '../../../domain/i18n-key';
import { Card } from '../../components/card';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { lazyPart } from '../../components/lazy-with-timeout';
import { Stack } from '../../components/layout';
import { Skeleton } from '../../components/skeleton';
import { VisuallyHidden } from '../../components/visually-hidden';
import { useServices, useSession } from '../../hooks/services-context';
import { useAddressSync } from '../../hooks/use-address-sync';
import { DashboardFilters } from './dashboard-filters';
import * as styles from './dashboard.css';
import { KpiGrid } from './kpi-grid';

// The chart code is its own chunk, fetched only when a dashboard shows data.
const DashboardCharts = lazyPart(() => import('./dashboard-charts'));
// Every dashboard route offers the sheets (docs/product.md, Dashboards and reports; contracts/openapi.yaml grants them to
// each dashboard permission): their tabs, filters and downloads are a chunk of their own.
const SheetsPanel = lazyPart(() => import('./sheets/sheets-panel'));

const SUBTITLES: Readonly<Record<string, I18nKey>> = {
  'dashboard-analytics': 'dashboard.subtitle.analytics',
  'dashboard-control-panel': 'dashboard.subtitle.controlPanel',
  'dashboard-maria-panel': 'dashboard.subtitle.mariaPanel',
};

const isEmpty = (series: SeriesData) =>
  Object.values(series.points).every((points) => points.every((p) => p.value === 0));

function ChartsSkeleton() {
  const { t } = useTranslation();
  return (
    <div className={styles.charts} aria-busy="true">
      <VisuallyHidden>{t('dashboard.charts.loading')}</VisuallyHidden>
      {[0, 1, 2].map((i) => (
        <Card key={i}>
          <Skeleton width="40%" height="1.5rem" />
          <Skeleton height="200px" />
        </Card>
      ))}
    </div>
  );
}

/** The charts area: skeletons, the error with a retry, the empty period, or the lazily loaded charts. */
function ChartsArea({ actor }: { actor: DashboardActor }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const loading = useSelector(actor, (s) => s.hasTag('seriesLoading'));
  const series = useSelector(actor, (s) => s.context.series);
  const error = useSelector(actor, (s) => s.context.seriesError);
  const query = useSelector(actor, (s) => s.context.query);
  if (loading) return <ChartsSkeleton />;
  if (error || !series)
    return (
      <ErrorState
        title={t(error?.key ?? 'dashboard.errors.series')}
        description={error ? t(error.reason) : undefined}
        onRetry={() => actor.send({ type: 'dashboard.retry' })}
      />
    );
  if (isEmpty(series))
    return (
      <EmptyState
        title={t('dashboard.empty.title')}
        description={t('dashboard.empty.description', {
          from: formatDate(query.startAt, locale),
          to: formatDate(query.finishAt, locale),
        })}
      />
    );
  return (
    <div className={styles.charts}>
      <Suspense fallback={<ChartsSkeleton />}>
        <DashboardCharts series={series} />
      </Suspense>
    </div>
  );
}

function Dashboard({ tenantName }: { tenantName: string }) {
  const { t } = useTranslation();
  const { clients } = useServices();
  const staff = useSession((s) => s.context.originBackoffice);
  const homeTenant = useSession((s) => s.context.user?.tenantName);
  const [path] = useLocation();
  const search = useSearch();
  const actor = useActorRef(dashboardMachine, {
    input: { rest: clients.rest, tenantName, staff, ...(homeTenant ? { homeTenant } : {}), search },
  });
  // Filters and address in step: a changed filter replaces the query string, a link or starred page reloads if it differs.
  useAddressSync(actor, { emitted: 'dashboard.queryChanged', location: 'dashboard.location' });
  const summary = useSelector(actor, (s) => s.context.summary);
  const summaryLoading = useSelector(actor, (s) => s.hasTag('summaryLoading'));
  const summaryError = useSelector(actor, (s) => s.context.summaryError);
  const subtitle = SUBTITLES[matchPath(path)?.route.name ?? ''] ?? 'dashboard.subtitle.analytics';

  return (
    <Stack gap="lg">
      <p className={styles.subtitle}>{t(subtitle)}</p>
      <DashboardFilters actor={actor} staff={staff} />
      <section aria-labelledby="dashboard-kpis" aria-busy={summaryLoading || undefined}>
        <Stack gap="sm">
          <h2 id="dashboard-kpis" className={styles.sectionTitle}>
            {t('dashboard.kpi.label')}
          </h2>
          {summaryError ? (
            <ErrorState
              title={t(summaryError.key)}
              description={t(summaryError.reason)}
              onRetry={() => actor.send({ type: 'dashboard.retry' })}
            />
          ) : (
            <KpiGrid summary={summary} isLoading={summaryLoading} />
          )}
        </Stack>
      </section>
      <section aria-labelledby="dashboard-charts">
        <Stack gap="sm">
          <h2 id="dashboard-charts" className={styles.sectionTitle}>
            {t('dashboard.charts.label')}
          </h2>
          <ChartsArea actor={actor} />
        </Stack>
      </section>
      <Sheets actor={actor} />
    </Stack>
  );
}

/** The sheets of the dashboard's tenant filter (all tenants: the caller's whole scope). */
function Sheets({ actor }: { actor: DashboardActor }) {
  const tenant = useSelector(actor, (s) => s.context.query.tenant);
  return (
    <Suspense fallback={<Skeleton height="12rem" />}>
      <SheetsPanel {...(tenant ? { tenantName: tenant } : {})} headingLevel={2} />
    </Suspense>
  );
}

/**
 * `/dashboard/analytics`, `/dashboard/control-panel`, `/dashboard/maria-panel` (the shell titles each):
 * KPI cards, charts over time with table fallbacks, period and tenant filters mirrored in the address.
 * A tenant switch (first path segment) starts a fresh dashboard for the new tenant.
 */
export default function DashboardScreen() {
  const { tenant } = useServices();
  useLocation(); // re-render when the address (and so the tenant) changes
  const tenantName = tenant();
  return <Dashboard key={tenantName} tenantName={tenantName} />;
}
