// @vitest-environment jsdom
import { getLocalTimeZone, today } from '@internationalized/date';
import { cleanup, screen, within } from '@testing-library/react';
import { isoDaysAgo, RangeField } from './range-field';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

const segments = (name: string) =>
  within(screen.getByRole('group', { name }))
    .getAllByRole('spinbutton')
    .map((s) => s.textContent ?? '');

describe('RangeField', () => {
  it('shows the YYYY-MM-DD strings as pt-BR segments', () => {
    renderUi(<RangeField label="Período" startAt="2026-03-02" finishAt="2026-03-15" onChange={() => {}} />);
    expect(segments('Período')).toEqual(['02', '03', '2026', '15', '03', '2026']);
  });

  it('shows an empty field for an empty or unreadable end', () => {
    renderUi(<RangeField label="Período" startAt="2026-03-02" finishAt="2026-02-30x" onChange={() => {}} />);
    expect(segments('Período')).toEqual(['dd', 'mm', 'aaaa', 'dd', 'mm', 'aaaa']);
  });

  it('answers an edited day as YYYY-MM-DD strings', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(
      <RangeField label="Período" startAt="2026-02-01" finishAt="2026-02-20" onChange={onChange} />,
    );
    const end = within(screen.getByRole('group', { name: 'Período' })).getAllByRole('spinbutton')[3];
    await user.click(end!);
    await user.keyboard('28');
    expect(onChange).toHaveBeenLastCalledWith('2026-02-01', '2026-02-28');
  });

  it("shows the machine's refusal under the field and marks it invalid", () => {
    renderUi(
      <RangeField
        label="Período"
        startAt="2026-03-15"
        finishAt="2026-03-02"
        errorMessage="O início vem depois do fim."
        onChange={() => {}}
      />,
    );
    expect(screen.getByText('O início vem depois do fim.')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Período' })).toHaveAttribute('data-invalid', 'true');
  });

  it('can be disabled', () => {
    renderUi(<RangeField label="Período" startAt="" finishAt="" isDisabled onChange={() => {}} />);
    for (const segment of within(screen.getByRole('group', { name: 'Período' })).getAllByRole('spinbutton'))
      expect(segment).toHaveAttribute('aria-disabled', 'true');
  });
});

describe('isoDaysAgo', () => {
  it("counts back from today in the browser's zone", () => {
    const now = today(getLocalTimeZone());
    expect(isoDaysAgo(0)).toBe(now.toString());
    expect(isoDaysAgo(29)).toBe(now.subtract({ days: 29 }).toString());
    expect(isoDaysAgo(6) < isoDaysAgo(0)).toBe(true);
  });
});
