// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import ptBR from '../../i18n/pt-BR.json';
import { useState } from 'react';
import { ComboBox } from './combo-box';
import type { SelectOption } from './list-box';
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
      <ComboBox
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

const others: SelectOption[] = [
  { id: 'backoffice', label: 'Backoffice' },
  { id: 'farmacia-sol', label: 'Farmácia Sol' },
  { id: 'drogaria-lua', label: 'Drogaria Lua' },
];

const options = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('ComboBox', () => {
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

  it('filters as you type (accent-insensitive) and picks with Enter', async () => {
    const onSelectionChange = vi.fn();
    function Chosen() {
      const [key, setKey] = useState<string | number | null>(null);
      return (
        <ComboBox
          label="Tenant"
          items={others}
          selectedKey={key}
          onSelectionChange={(next) => {
            onSelectionChange(next);
            setKey(next);
          }}
        />
      );
    }
    const { user } = renderUi(<Chosen />);
    const input = screen.getByRole('combobox', { name: 'Tenant' });
    await user.click(input);
    await user.keyboard('farmacia');
    const listbox = screen.getByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Farmácia Sol']);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onSelectionChange).toHaveBeenLastCalledWith('farmacia-sol');
    expect(input).toHaveValue('Farmácia Sol');
  });

  it('says so when nothing matches', async () => {
    const { user } = renderUi(
      <ComboBox label="Tenant" items={others} selectedKey={null} onSelectionChange={vi.fn()} />,
    );
    await user.click(screen.getByRole('combobox', { name: 'Tenant' }));
    await user.keyboard('zzz');
    expect(screen.getByText(ptBR.ui.select.noResults)).toBeInTheDocument();
  });

  it('has a named button that opens all options', async () => {
    const { user } = renderUi(
      <ComboBox label="Tenant" items={others} selectedKey={null} onSelectionChange={vi.fn()} />,
    );
    await user.click(screen.getByRole('button', { name: ptBR.ui.select.showOptions }));
    expect(screen.getAllByRole('option')).toHaveLength(3);
  });
  it('inside a form (the audit filters), Enter on an open list with no active option does not submit the form', async () => {
    const submitted = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const { user } = renderUi(
      <form onSubmit={submitted}>
        <ComboBox label="Tenant" items={others} selectedKey="backoffice" onSelectionChange={vi.fn()} />
        <button type="submit">Filtrar</button>
      </form>,
    );
    const input = screen.getByRole('combobox', { name: 'Tenant' });
    await user.clear(input);
    await user.type(input, 'sol');
    expect(options()).toEqual(['Farmácia Sol']);
    await user.keyboard('{Enter}');
    // The list was open: this Enter belongs to the combo box, as it did with React Aria's, not to the form,
    // which would apply the filters with the old tenant while the field shows what was typed.
    expect(submitted).not.toHaveBeenCalled();
  });
});
