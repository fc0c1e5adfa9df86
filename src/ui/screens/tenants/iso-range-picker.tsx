import { getLocalTimeZone, parseDate, today, type CalendarDate } from '@internationalized/date';
import { DateRangePicker, type DateRange } from '../../components/date-range-picker';

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

export interface IsoRangePickerProps {
  label: string;
  description?: string;
  start: string;
  end: string;
  onChange: (start: string, end: string) => void;
  /** The machine's refusal, shown under the field (and marking it invalid). */
  errorMessage?: string | null;
  isDisabled?: boolean;
}

/**
 * The design system's date range over the `YYYY-MM-DD` strings the machines and the API use.
 * Typed with the keyboard (dd/mm/aaaa in pt-BR) or picked in the calendar; no day after today.
 */
export function IsoRangePicker({
  label,
  description,
  start,
  end,
  onChange,
  errorMessage,
  isDisabled,
}: IsoRangePickerProps) {
  const from = toCalendar(start);
  const to = toCalendar(end);
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
    />
  );
}
