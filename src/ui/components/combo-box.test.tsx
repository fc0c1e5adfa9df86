// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import ptBR from '../../i18n/pt-BR.json';
import { ComboBox } from './combo-box';
import type { SelectOption } from './list-box';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

const tenants: SelectOption[] = [
  { id: 'backoffice', label: 'Backoffice' },
  { id: 'farmacia-sol', label: 'Farmácia Sol' },
  { id: 'drogaria-lua', label: 'Drogaria Lua' },
];

describe('ComboBox', () => {
  it('filters as you type (accent-insensitive) and picks with Enter', async () => {
    const onSelectionChange = vi.fn();
    const { user } = renderUi(<ComboBox label="Tenant" items={tenants} onSelectionChange={onSelectionChange} />);
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
    const { user } = renderUi(<ComboBox label="Tenant" items={tenants} />);
    await user.click(screen.getByRole('combobox', { name: 'Tenant' }));
    await user.keyboard('zzz');
    expect(screen.getByText(ptBR.ui.select.noResults)).toBeInTheDocument();
  });

  it('has a named button that opens all options, and shows errors', async () => {
    const { user } = renderUi(<ComboBox label="Tenant" items={tenants} isInvalid errorMessage="Escolha um tenant" />);
    expect(screen.getByRole('combobox', { name: 'Tenant' })).toHaveAccessibleDescription('Escolha um tenant');
    // RAC names the button "<our label> <field label>" through aria-labelledby.
    await user.click(screen.getByRole('button', { name: `${ptBR.ui.select.showOptions} Tenant` }));
    expect(screen.getAllByRole('option')).toHaveLength(3);
  });
});
