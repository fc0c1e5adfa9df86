import { getLocalTimeZone, parseDate, today, type CalendarDate } from '@internationalized/date';
import { DateRangePicker, type DateRange } from './date-range-picker';

/** `YYYY-MM-DD` of the day `days` before today in the browser's zone (0: today). */
export function isoDaysAgo(days: number): string {
  return today(getLocalTimeZone()).subtract({ days }).toString();
}

function toCalendar(iso: string): CalendarDate | null {
  try {
    return iso === '' ? null : parseDate(iso);
  } catch {
    return null;
  }
}

export interface RangeFieldProps {
  label: string;
  description?: string;
  startAt: string;
  finishAt: string;
  onChange: (startAt: string, finishAt: string) => void;
  /** The machine's refusal (e.g. an invalid range), shown under the field and marking it invalid. */
  errorMessage?: string | null;
  isDisabled?: boolean;
  className?: string;
}

/**
 * The design system's date range over the `YYYY-MM-DD` strings machines and the API use: typed with
 * the keyboard (dd/mm/aaaa in pt-BR) or picked in the calendar; no day after today. The report
 * screens load it lazily (`LazyRangeField`, reports/lazy-fields.tsx); the tenant panel's webhook and
 * analytics periods use it directly.
 */
export function RangeField({
  label,
  description,
  startAt,
  finishAt,
  onChange,
  errorMessage,
  isDisabled,
  className,
}: RangeFieldProps) {
  const from = toCalendar(startAt);
  const to = toCalendar(finishAt);
  const value: DateRange | null = from && to ? { start: from, end: to } : null;
  return (
    <DateRangePicker
      label={label}
      description={description}
      value={value}
      onChange={(next) => onChange(next?.start.toString() ?? '', next?.end.toString() ?? '')}
      maxValue={today(getLocalTimeZone())}
      isInvalid={Boolean(errorMessage)}
      errorMessage={errorMessage ?? undefined}
      validationBehavior="aria"
      isDisabled={isDisabled}
      className={className}
    />
  );
}
