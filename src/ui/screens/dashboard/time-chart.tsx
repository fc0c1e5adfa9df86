import type { SeriesPoint } from '../../../machines/dashboard/dashboard-query-api';
import { labelIndices, valueAxis } from './chart-scale';
import * as styles from './charts.css';
import { useWidth } from './use-width';

/** One line (or the bars) of a chart. */
export interface ChartSeries {
  label: string;
  points: readonly SeriesPoint[];
  tone: 'primary' | 'secondary';
}

export interface TimeChartProps {
  kind: 'bar' | 'line';
  /** Series over the same buckets; a bar chart draws the first. */
  series: readonly ChartSeries[];
  formatValue: (value: number) => string;
  formatAxis: (value: number) => string;
  formatDate: (date: string, variant: 'long' | 'short') => string;
}

const HEIGHT = 220;
const TOP = 12;
const BOTTOM = 26;
const RIGHT = 12;
const CHAR = 6.5;

/**
 * A hand-written SVG chart over time (bars or lines) drawn at its container's pixel width. It is
 * `aria-hidden`: screen readers get the same numbers from the table beside it. Hovering a bar or a
 * point shows its date and value (SVG `title`).
 */
export function TimeChart({ kind, series, formatValue, formatAxis, formatDate }: TimeChartProps) {
  const [ref, width] = useWidth(640);
  const drawn = kind === 'bar' ? series.slice(0, 1) : series;
  const dates = (series[0]?.points ?? []).map((p) => p.date);
  const axis = valueAxis(Math.max(0, ...drawn.flatMap((s) => s.points.map((p) => p.value))));
  const axisLabels = axis.ticks.map(formatAxis);
  const left = Math.ceil(Math.max(...axisLabels.map((l) => l.length)) * CHAR) + 10;
  const plotWidth = Math.max(1, width - left - RIGHT);
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const band = plotWidth / Math.max(1, dates.length);
  const x = (i: number) => left + band * (i + 0.5);
  const y = (value: number) => TOP + plotHeight * (1 - value / axis.max);
  const shortDates = dates.map((d) => formatDate(d, 'short'));
  const labelWidth = Math.max(...shortDates.map((d) => d.length), 1) * CHAR + 12;

  return (
    <div ref={ref} className={styles.frame} aria-hidden="true">
      <svg className={styles.svg} viewBox={`0 0 ${width} ${HEIGHT}`} height={HEIGHT} focusable="false">
        {axis.ticks.map((tick, i) => (
          <g key={tick}>
            <line
              className={i === 0 ? styles.baseline : styles.grid}
              x1={left}
              x2={width - RIGHT}
              y1={y(tick)}
              y2={y(tick)}
            />
            <text className={styles.axisText} x={left - 6} y={y(tick)} textAnchor="end" dominantBaseline="middle">
              {axisLabels[i]}
            </text>
          </g>
        ))}
        {labelIndices(dates.length, Math.max(2, Math.floor(plotWidth / labelWidth))).map((i) => {
          const half = ((shortDates[i]?.length ?? 0) * CHAR) / 2;
          const anchor = x(i) - half < 0 ? 'start' : x(i) + half > width ? 'end' : 'middle';
          return (
            <text
              key={i}
              className={styles.axisText}
              x={anchor === 'start' ? 0 : anchor === 'end' ? width : x(i)}
              y={HEIGHT - 6}
              textAnchor={anchor}
            >
              {shortDates[i]}
            </text>
          );
        })}
        {kind === 'bar'
          ? drawn.map((s) =>
              s.points.map((p, i) => {
                const barWidth = Math.max(1, Math.min(band * 0.72, 48));
                const top = p.value > 0 ? Math.min(y(p.value), y(0) - 1) : y(0);
                return (
                  <rect
                    key={p.date}
                    className={styles.bar[s.tone]}
                    x={x(i) - barWidth / 2}
                    y={top}
                    width={barWidth}
                    height={y(0) - top}
                  >
                    <title>{`${formatDate(p.date, 'long')}: ${formatValue(p.value)}`}</title>
                  </rect>
                );
              }),
            )
          : drawn.map((s) => (
              <g key={s.label}>
                <path
                  className={styles.line[s.tone]}
                  d={s.points
                    .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)} ${y(p.value).toFixed(1)}`)
                    .join(' ')}
                />
                {s.points.map((p, i) => (
                  <circle key={p.date} className={styles.dot[s.tone]} cx={x(i)} cy={y(p.value)} r={band >= 8 ? 3 : 2}>
                    <title>{`${s.label} – ${formatDate(p.date, 'long')}: ${formatValue(p.value)}`}</title>
                  </circle>
                ))}
              </g>
            ))}
      </svg>
    </div>
  );
}
