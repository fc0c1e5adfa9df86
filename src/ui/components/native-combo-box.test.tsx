// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { NativeComboBox } from './native-combo-box';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

const tenants = [
  { id: 'backoffice', label: 'backoffice' },
  { id: 'farmacia-central', label: 'farmacia-central' },
  { id: 'sao-paulo', label: 'São Paulo Matriz' },
];

function Harness({ onChange }: { onChange: (key: string | number) => void }) {
  const [selected, setSelected] = useState<string | number>('backoffice');
  return (
    <>
      <NativeComboBox
        label="Tenant"
        labelHidden
        items={tenants}
        selectedKey={selected}
        onSelectionChange={(key) => {
          onChange(key);
          setSelected(key);
        }}
      />
      <button type="button">depois</button>
    </>
  );
}

const options = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('NativeComboBox', () => {
  it('is a named combobox showing the chosen option; typing filters (case and accents ignored), Enter picks the option the arrows reached', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Harness onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Tenant' });
    expect(input).toHaveValue('backoffice');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    await user.clear(input);
    await user.type(input, 'SAO');
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(options()).toEqual(['São Paulo Matriz']);
    expect(input).toHaveAttribute('aria-controls', screen.getByRole('listbox', { name: 'Tenant' }).id);
    await user.clear(input);
    await user.type(input, 'a');
    expect(options()).toEqual(['backoffice', 'farmacia-central', 'São Paulo Matriz']);
    await user.type(input, 'r');
    expect(options()).toEqual(['farmacia-central']);
    // Enter with no active option does nothing; ArrowDown reaches the first, focus stays in the input.
    await user.keyboard('{Enter}');
    expect(onChange).not.toHaveBeenCalled();
    await user.keyboard('{ArrowDown}');
    const option = screen.getByRole('option', { name: 'farmacia-central' });
    expect(input).toHaveAttribute('aria-activedescendant', option.id);
    expect(input).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenCalledWith('farmacia-central');
    expect(input).toHaveValue('farmacia-central');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens on every option with ArrowDown at the chosen one (checked) and ArrowUp at the last; the arrows wrap; Escape closes and puts the label back', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Harness onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Tenant' });
    await user.tab();
    expect(input).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(options()).toHaveLength(3);
    expect(screen.getByRole('option', { name: 'backoffice' })).toHaveAttribute('aria-selected', 'true');
    expect(input).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'backoffice' }).id);
    await user.keyboard('{ArrowUp}');
    expect(input).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'São Paulo Matriz' }).id);
    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'backoffice' }).id);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.keyboard('{ArrowUp}');
    expect(input).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'São Paulo Matriz' }).id);
    await user.keyboard('{Escape}');
    await user.type(input, 'zzz');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByText('Nenhum resultado encontrado')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(input).toHaveValue('backoffice');
    expect(screen.queryByText('Nenhum resultado encontrado')).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('the chevron (not a tab stop) shows every option; a click picks one; leaving the field closes it and puts the label back', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Harness onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Tenant' });
    const chevron = screen.getByRole('button', { name: 'Mostrar opções' });
    expect(chevron).toHaveAttribute('tabindex', '-1');
    await user.click(chevron);
    expect(input).toHaveFocus();
    expect(options()).toHaveLength(3);
    await user.click(screen.getByRole('option', { name: 'São Paulo Matriz' }));
    expect(onChange).toHaveBeenCalledWith('sao-paulo');
    expect(input).toHaveValue('São Paulo Matriz');
    await user.clear(input);
    await user.type(input, 'back');
    expect(options()).toEqual(['backoffice']);
    await user.tab();
    expect(screen.getByRole('button', { name: 'depois' })).toHaveFocus();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input).toHaveValue('São Paulo Matriz');
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
