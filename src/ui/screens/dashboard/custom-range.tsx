import { parseDate, type CalendarDate } from '@internationalized/date';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DashboardActor } from '../../../machines/dashboard/dashboard.machine';
import { DateRangePicker } from '../../components/date-range-picker';
import * as styles from './dashboard.css';

/**
 * Typed or picked dates; each complete range goes to the machine, which refuses a reversed or
 * over-long one. Mounted only when the user asks for dates, so it takes the focus.
 */
export default function CustomRange({ actor }: { actor: DashboardActor }) {
  const { t } = useTranslation();
  const startAt = useSelector(actor, (s) => s.context.query.startAt);
  const finishAt = useSelector(actor, (s) => s.context.query.finishAt);
  const today = useSelector(actor, (s) => s.context.defaults.finishAt);
  const invalid = useSelector(actor, (s) => s.context.invalid);
  const applied = `${startAt}/${finishAt}`;
  const initial = () => ({ for: applied, value: { start: parseDate(startAt), end: parseDate(finishAt) } });
  const [draft, setDraft] = useState(initial);
  // Derived state: a range applied from elsewhere (a preset, the address) replaces what was typed.
  if (draft.for !== applied) setDraft(initial());
  return (
    <DateRangePicker
      className={styles.filterField}
      label={t('dashboard.filters.dates')}
      description={t('dashboard.filters.periodHint')}
      value={draft.value}
      maxValue={parseDate(today)}
      isInvalid={invalid !== null}
      errorMessage={invalid ? t(invalid) : undefined}
      validationBehavior="aria"
      autoFocus
      onChange={(value) => {
        if (!value) return;
        setDraft({ for: applied, value: { start: value.start as CalendarDate, end: value.end as CalendarDate } });
        actor.send({ type: 'dashboard.range', startAt: value.start.toString(), finishAt: value.end.toString() });
      }}
    />
  );
}
