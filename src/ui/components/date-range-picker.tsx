import { getLocalTimeZone, isToday } from '@internationalized/date';
import { Button } from 'react-aria-components/Button';
import {
  DateInput,
  DateRangePicker as RACDateRangePicker,
  DateSegment,
  Group,
  type DateRangePickerProps as RACDateRangePickerProps,
  type DateValue,
} from 'react-aria-components/DateRangePicker';
import { Dialog } from 'react-aria-components/Dialog';
import { Popover } from 'react-aria-components/Popover';
import {
  CalendarCell,
  CalendarGrid,
  CalendarGridBody,
  CalendarGridHeader,
  CalendarHeaderCell,
  Heading,
  RangeCalendar,
} from 'react-aria-components/RangeCalendar';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import { InDialogLayer } from './dialog-portal';
import * as styles from './date-range-picker.css';
import * as fieldStyles from './field.css';
import { FieldHelp, FieldLabel, type FieldChromeProps } from './field';
import { CalendarIcon, ChevronLeftIcon, ChevronRightIcon } from './icons';
import * as popoverStyles from './popover.css';
import { InAriaForm } from './aria-form';

export type { DateRange } from 'react-aria-components/DateRangePicker';

export interface DateRangePickerProps<T extends DateValue>
  extends Omit<RACDateRangePickerProps<T>, 'className' | 'style' | 'children'>, FieldChromeProps {
  className?: string;
}

/**
 * A date range (reports, sheets, webhooks, analytics sync): two segmented date inputs typed with
 * the keyboard (dd/mm/aaaa in pt-BR — the locale comes from `UiLocaleProvider`) and a calendar
 * popover. Values are `@internationalized/date` `CalendarDate`s: no time zone surprises.
 * Submits as `startName`/`endName` (ISO dates) inside a form.
 */
export function DateRangePicker<T extends DateValue>({
  label,
  description,
  errorMessage,
  className,
  ...props
}: DateRangePickerProps<T>) {
  const { t } = useTranslation();
  return (
    <InAriaForm>
      <RACDateRangePicker {...props} className={cx(fieldStyles.field, className)}>
        <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
        <Group className={styles.group}>
          <DateInput slot="start" className={styles.input}>
            {(segment) => <DateSegment segment={segment} className={styles.segment} />}
          </DateInput>
          <span aria-hidden="true" className={styles.dash}>
            –
          </span>
          <DateInput slot="end" className={styles.input}>
            {(segment) => <DateSegment segment={segment} className={styles.segment} />}
          </DateInput>
          <Button
            className={cx(fieldStyles.inputButton, styles.calendarButton)}
            aria-label={t('ui.dateRange.openCalendar')}
          >
            <CalendarIcon />
          </Button>
        </Group>
        <FieldHelp description={description} errorMessage={errorMessage} />
        <InDialogLayer>
          <Popover className={cx(popoverStyles.popover, styles.calendarPopover)} placement="bottom start">
            <Dialog className={styles.dialog}>
              <RangeCalendar>
                <header className={styles.calendarHeader}>
                  <Button slot="previous" className={fieldStyles.inputButton}>
                    <ChevronLeftIcon />
                  </Button>
                  <Heading className={styles.heading} />
                  <Button slot="next" className={fieldStyles.inputButton}>
                    <ChevronRightIcon />
                  </Button>
                </header>
                <CalendarGrid className={styles.grid}>
                  <CalendarGridHeader>
                    {(day) => <CalendarHeaderCell className={styles.headerCell}>{day}</CalendarHeaderCell>}
                  </CalendarGridHeader>
                  <CalendarGridBody>
                    {(date) => (
                      <CalendarCell
                        date={date}
                        className={cx(styles.cell, isToday(date, getLocalTimeZone()) && styles.today)}
                      />
                    )}
                  </CalendarGridBody>
                </CalendarGrid>
              </RangeCalendar>
            </Dialog>
          </Popover>
        </InDialogLayer>
      </RACDateRangePicker>
    </InAriaForm>
  );
}
