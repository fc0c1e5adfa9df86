import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DateRange } from '../../../domain/date-range';
import { Button } from '../button';
import { LazyRangeField } from './lazy-fields';
import * as styles from './report-layout.css';

export interface ReportToolbarProps {
  range: DateRange;
  /** The machine's refusal of the range, translated. */
  rangeError: string | null;
  onRange: (startAt: string, finishAt: string) => void;
  onRun: () => void;
  busy: boolean;
  canExport: boolean;
  onExport: () => void;
  /** More filters between the period and the buttons (the users multi-select). */
  children?: ReactNode;
}

/**
 * A report's controls as one form: the period (Enter in it runs the report), extra filters, "Gerar
 * relatório" and "Exportar CSV" (of what the table shows).
 */
export function ReportToolbar({
  range,
  rangeError,
  onRange,
  onRun,
  busy,
  canExport,
  onExport,
  children,
}: ReportToolbarProps) {
  const { t } = useTranslation();
  return (
    <form
      className={styles.toolbar}
      onSubmit={(event) => {
        event.preventDefault();
        onRun();
      }}
    >
      <LazyRangeField
        label={t('reports.screen.range')}
        description={t('reports.screen.rangeHint')}
        startAt={range.startAt}
        finishAt={range.finishAt}
        onChange={onRange}
        errorMessage={rangeError}
        className={styles.field}
      />
      {children}
      <div className={styles.actions}>
        <span className={styles.labelSpace} aria-hidden="true">
          {'\u00a0'}
        </span>
        <div className={styles.buttons}>
          <Button type="submit" isPending={busy}>
            {t('reports.run')}
          </Button>
          <Button variant="secondary" onPress={onExport} isDisabled={!canExport}>
            {t('reports.screen.export')}
          </Button>
        </div>
      </div>
    </form>
  );
}
