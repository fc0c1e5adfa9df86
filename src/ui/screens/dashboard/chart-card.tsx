import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../components/card';
import { Switch } from '../../components/switch';
import { VisuallyHidden } from '../../components/visually-hidden';
import * as styles from './charts.css';
import { SeriesTable } from './series-table';
import { TimeChart, type ChartSeries } from './time-chart';

export interface ChartCardProps {
  title: string;
  kind: 'bar' | 'line';
  series: readonly ChartSeries[];
  dateHeader: string;
  formatValue: (value: number) => string;
  formatAxis: (value: number) => string;
  formatDate: (date: string, variant: 'long' | 'short') => string;
  /** Take the whole row of the charts grid. */
  wide?: boolean;
}

function Swatch({ tone }: { tone: ChartSeries['tone'] }) {
  return (
    <svg width="24" height="10" aria-hidden="true" focusable="false">
      <line className={styles.line[tone]} x1="0" x2="24" y1="5" y2="5" />
    </svg>
  );
}

/**
 * A chart in a card with its table fallback: "Ver como tabela" swaps the drawing for the table.
 * While the drawing shows, the same table is in the page for screen readers only (the SVG is hidden
 * from them), so everyone gets the same numbers.
 */
export function ChartCard({
  title,
  kind,
  series,
  dateHeader,
  formatValue,
  formatAxis,
  formatDate,
  wide,
}: ChartCardProps) {
  const { t } = useTranslation();
  const [asTable, setAsTable] = useState(false);
  const table = (visible: boolean) => (
    <SeriesTable
      caption={title}
      dateHeader={dateHeader}
      columns={series.map((s) => ({ label: s.label, points: s.points, format: formatValue }))}
      formatDate={(date) => formatDate(date, 'long')}
      totalLabel={t('dashboard.charts.total')}
      visible={visible}
    />
  );
  return (
    <Card
      title={title}
      className={wide ? styles.wide : undefined}
      actions={
        <Switch
          isSelected={asTable}
          onChange={setAsTable}
          aria-label={t('dashboard.charts.showTableOf', { chart: title })}
        >
          {t('dashboard.charts.showTable')}
        </Switch>
      }
    >
      {asTable ? (
        table(true)
      ) : (
        <>
          <TimeChart
            kind={kind}
            series={series}
            formatValue={formatValue}
            formatAxis={formatAxis}
            formatDate={formatDate}
          />
          {series.length > 1 ? (
            <ul className={styles.legend} aria-hidden="true">
              {series.map((s) => (
                <li key={s.label} className={styles.legendItem}>
                  <Swatch tone={s.tone} />
                  {s.label}
                </li>
              ))}
            </ul>
          ) : null}
          <VisuallyHidden elementType="div">{table(false)}</VisuallyHidden>
        </>
      )}
    </Card>
  );
}
