// @vitest-environment jsdom
import { CalendarDate } from '@internationalized/date';
import { cleanup, screen, within } from '@testing-library/react';
import ptBR from '../../i18n/pt-BR.json';
import { DateRangePicker, type DateRange } from './date-range-picker';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

const march: DateRange = { start: new CalendarDate(2026, 3, 2), end: new CalendarDate(2026, 3, 15) };

function segmentsText(group: HTMLElement): string[] {
  return within(group)
    .getAllByRole('spinbutton')
    .map((s) => s.textContent ?? '');
}

describe('DateRangePicker', () => {
  it('shows pt-BR day/month/year segments for start and end', () => {
    renderUi(<DateRangePicker label="Período" defaultValue={march} />);
    const group = screen.getByRole('group', { name: 'Período' });
    expect(segmentsText(group)).toEqual(['02', '03', '2026', '15', '03', '2026']);
  });

  it('orders segments month/day/year in English', () => {
    renderUi(<DateRangePicker label="Period" defaultValue={march} />, { language: 'en' });
    expect(segmentsText(screen.getByRole('group', { name: 'Period' }))).toEqual(['3', '2', '2026', '3', '15', '2026']);
  });

  it('is typed with the keyboard: digits fill the segments and onChange gets CalendarDates', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<DateRangePicker label="Período" onChange={onChange} />);
    await user.tab();
    await user.keyboard('01022026');
    await user.keyboard('28022026');
    const last = onChange.mock.calls.at(-1)?.[0] as DateRange;
    expect(last.start.toString()).toBe('2026-02-01');
    expect(last.end.toString()).toBe('2026-02-28');
  });

  it('opens a pt-BR calendar dialog from the named button; arrows move by day, clicks pick the range', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<DateRangePicker label="Período" defaultValue={march} onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: new RegExp(ptBR.ui.dateRange.openCalendar) }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('heading')).toHaveTextContent(/março de 2026/i);
    // Focus starts on the range start, with RAC's pt-BR label for the day.
    expect(document.activeElement).toHaveAccessibleName(/2 de março de 2026/);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toHaveAccessibleName(/9 de março de 2026/);
    await user.click(within(dialog).getByRole('button', { name: /^[^,]+, 5 de março de 2026/ }));
    await user.click(within(dialog).getByRole('button', { name: /^[^,]+, 20 de março de 2026/ }));
    const last = onChange.mock.calls.at(-1)?.[0] as DateRange;
    expect(last.start.toString()).toBe('2026-03-05');
    expect(last.end.toString()).toBe('2026-03-20');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows errors and honours min/max', () => {
    renderUi(
      <DateRangePicker
        label="Período"
        defaultValue={march}
        minValue={new CalendarDate(2026, 3, 10)}
        errorMessage="Período fora do permitido"
        validationBehavior="aria"
      />,
    );
    expect(screen.getByText('Período fora do permitido')).toBeInTheDocument();
  });
});
