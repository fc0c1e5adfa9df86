import { getLocalTimeZone, parseDate, today, type CalendarDate } from '@internationalized/date';
import { DateRangePicker, type DateRange } from '../date-range-picker';

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
  /** A refusal (e.g. the machine's invalid range), shown under the field and marking it invalid. */
  errorMessage?: string | null;
  isDisabled?: boolean;
  className?: string;
}

/**
 * The design system's date range over the `YYYY-MM-DD` strings machines and the API use: typed with
 * the keyboard (dd/mm/aaaa in pt-BR) or picked in the calendar; no day after today.
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
