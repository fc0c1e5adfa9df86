// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { NativeRadioGroup, NativeSwitch } from './native-toggles';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('NativeRadioGroup', () => {
  it('is a named radiogroup: Tab enters at the checked radio, arrows choose the next', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(
      <NativeRadioGroup
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

describe('NativeSwitch', () => {
  it('is a named switch that Space toggles; disabled, it cannot be changed', async () => {
    const onChange = vi.fn();
    const { user, rerender } = renderUi(
      <NativeSwitch isSelected={false} onChange={onChange}>
        Menu recolhido
      </NativeSwitch>,
    );
    const control = screen.getByRole('switch', { name: 'Menu recolhido' });
    expect(control).not.toBeChecked();
    await user.tab();
    await user.keyboard(' ');
    expect(onChange).toHaveBeenCalledWith(true);
    rerender(
      <NativeSwitch isSelected onChange={onChange} isDisabled>
        Menu recolhido
      </NativeSwitch>,
    );
    expect(screen.getByRole('switch', { name: 'Menu recolhido' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Menu recolhido' })).toBeDisabled();
    await user.click(screen.getByText('Menu recolhido'));
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
