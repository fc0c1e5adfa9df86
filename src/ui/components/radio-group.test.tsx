// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { RadioGroup } from './radio-group';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('RadioGroup', () => {
  it('is a named radiogroup: Tab enters at the checked radio, arrows choose the next', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(
      <RadioGroup
        label="Tema"
        value="light"
        onChange={onChange}
        options={[
          { value: 'light', label: 'Claro' },
          { value: 'dark', label: 'Escuro' },
        ]}
      />,
    );
    const group = screen.getByRole('radiogroup', { name: 'Tema' });
    expect(group).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Claro' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Escuro' })).not.toBeChecked();
    await user.tab();
    expect(screen.getByRole('radio', { name: 'Claro' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(onChange).toHaveBeenCalledWith('dark');
    // Controlled: the group shows `value` until the caller changes it.
    expect(screen.getByRole('radio', { name: 'Claro' })).toBeChecked();
    await user.click(screen.getByText('Escuro'));
    expect(onChange).toHaveBeenCalledTimes(2);
    expect(onChange).toHaveBeenLastCalledWith('dark');
  });
});

function Plans(props: { isDisabled?: boolean; onChange?: (value: string) => void }) {
  const [value, setValue] = useState('basic');
  return (
    <RadioGroup
      label="Plano"
      value={value}
      onChange={(next) => {
        setValue(next);
        props.onChange?.(next);
      }}
      isDisabled={props.isDisabled}
      options={[
        { value: 'basic', label: 'Básico' },
        { value: 'pro', label: 'Pro' },
        { value: 'enterprise', label: 'Enterprise' },
      ]}
    />
  );
}

describe('RadioGroup, chosen by the caller', () => {
  it('is a labelled radiogroup; Tab lands on the selected radio, arrows move and select', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Plans onChange={onChange} />);
    expect(screen.getByRole('radiogroup', { name: 'Plano' })).toBeInTheDocument();
    await user.tab();
    expect(screen.getByRole('radio', { name: 'Básico' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('radio', { name: 'Pro' })).toBeChecked();
    expect(onChange).toHaveBeenLastCalledWith('pro');
  });

  it('when disabled no radio can be chosen', async () => {
    const { user } = renderUi(<Plans isDisabled />);
    await user.click(screen.getByRole('radio', { name: 'Pro' }));
    expect(screen.getByRole('radio', { name: 'Básico' })).toBeChecked();
    for (const radio of screen.getAllByRole('radio')) expect(radio).toBeDisabled();
  });
});
