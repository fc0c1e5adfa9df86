import { useSelector } from '@xstate/react';
import { Suspense, useState } from 'react';
import { useLocale } from 'react-aria-components/I18nProvider';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../domain/format';
import type { DashboardActor } from '../../../machines/dashboard/dashboard.machine';
import { PERIOD_PRESETS, presetOf, presetRange, type PeriodPreset } from '../../../domain/dashboard-query';
import { Button } from '../../components/button';
import { lazyPart } from '../../components/lazy-with-timeout';
import { FilterSelect } from '../../components/filter-select';
import { Skeleton } from '../../components/skeleton';
import { VisuallyHidden } from '../../components/visually-hidden';
import * as styles from './dashboard.css';

// The date picker stack (calendar, segmented fields, every calendar system) is ~44 KB gzipped:
// fetched only when a custom period is asked for, so the presets keep the route light.
const CustomRange = lazyPart(() => import('./custom-range'));

const CUSTOM = 'custom';

function DatesFallback() {
  const { t } = useTranslation();
  return (
    <div className={styles.filterField} aria-busy="true">
      <VisuallyHidden>{t('dashboard.filters.loadingDates')}</VisuallyHidden>
      <Skeleton height="4.25rem" />
    </div>
  );
}

/**
 * The period: a preset (last 7/30/90 days, this or last month) or custom dates. The dates field
 * (and its chunk) comes only when asked for: choosing "Personalizado", or "Editar datas" beside a
 * custom range that came with the address. It then takes the focus.
 */
export function PeriodFilter({ actor }: { actor: DashboardActor }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const startAt = useSelector(actor, (s) => s.context.query.startAt);
  const finishAt = useSelector(actor, (s) => s.context.query.finishAt);
  const today = useSelector(actor, (s) => s.context.defaults.finishAt);
  const [datesOpen, setDatesOpen] = useState(false);
  // Two presets can cover the same days (on the 7th, "Este mês" is "Últimos 7 dias"): the one chosen here
  // is shown while the range is still its; a range from the address shows the first that covers it.
  const [chosen, setChosen] = useState<PeriodPreset | null>(null);
  const chosenRange = chosen === null ? null : presetRange(chosen, today);
  const preset =
    chosen !== null && chosenRange?.startAt === startAt && chosenRange.finishAt === finishAt
      ? chosen
      : presetOf({ startAt, finishAt }, today);
  const custom = datesOpen || preset === null;
  const options = [...PERIOD_PRESETS, CUSTOM].map((id) => ({
    value: id,
    label: t(`dashboard.filters.presets.${id as PeriodPreset | typeof CUSTOM}`),
  }));
  return (
    <>
      {/* Native: React Aria's select was most of the dashboards' chunks (docs/performance.md, Bundle). */}
      <FilterSelect
        className={styles.filterField}
        label={t('dashboard.filters.period')}
        description={t('dashboard.filters.rangeText', {
          from: formatDate(startAt, locale),
          to: formatDate(finishAt, locale),
        })}
        options={options}
        value={custom ? CUSTOM : (preset ?? CUSTOM)}
        onChange={(key) => {
          if (key === CUSTOM) return setDatesOpen(true);
          setDatesOpen(false);
          setChosen(key as PeriodPreset);
          actor.send({ type: 'dashboard.range', ...presetRange(key as PeriodPreset, today) });
        }}
      />
      {datesOpen ? (
        <Suspense fallback={<DatesFallback />}>
          <CustomRange actor={actor} />
        </Suspense>
      ) : custom ? (
        <Button variant="secondary" className={styles.editDates} onPress={() => setDatesOpen(true)}>
          {t('dashboard.filters.editDates')}
        </Button>
      ) : null}
    </>
  );
}
