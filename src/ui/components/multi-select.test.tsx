// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import ptBR from '../../i18n/pt-BR.json';
import type { SelectOption } from './list-box';
import { MultiSelect } from './multi-select';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

const users: SelectOption[] = ['Ana', 'Bruno', 'Carla', 'Davi', 'Érica', 'Fábio', 'Gabi', 'Heitor'].map((name, i) => ({
  id: i + 1,
  label: name,
  description: `${name.toLowerCase()}@demo.local`,
}));
const types: SelectOption[] = [
  { id: 'sent', label: 'Enviadas' },
  { id: 'read', label: 'Lidas' },
];

describe('MultiSelect', () => {
  it('selects several options with the keyboard and keeps the list open', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<MultiSelect label="Tipos" items={types} onChange={onChange} />);
    const trigger = screen.getByRole('button', { name: /Tipos/ });
    expect(trigger).toHaveTextContent(ptBR.ui.multiSelect.none);
    await user.tab();
    await user.keyboard('{ArrowDown}');
    const listbox = screen.getByRole('listbox');
    expect(listbox).toHaveAttribute('aria-multiselectable', 'true');
    await user.keyboard('{Enter}{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['sent', 'read']);
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(trigger).toHaveTextContent('2 selecionados');
  });

  it('shows the chosen items as tags that can be removed by their button or Backspace', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(
      <MultiSelect label="Tipos" items={types} defaultValue={['sent', 'read']} onChange={onChange} />,
    );
    const tags = screen.getByRole('grid', { name: ptBR.ui.multiSelect.selectedList });
    expect(
      within(tags)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['Enviadas', 'Lidas']);
    await user.click(within(tags).getAllByRole('button', { name: /Remover/ })[0] as HTMLElement);
    expect(onChange).toHaveBeenLastCalledWith(['read']);
    const lidas = screen.getByRole('row', { name: 'Lidas' });
    lidas.focus();
    await user.keyboard('{Backspace}');
    expect(onChange).toHaveBeenLastCalledWith([]);
    expect(screen.queryByRole('grid')).toBeNull();
  });

  it('filters long lists through a search box in the popover', async () => {
    const { user } = renderUi(<MultiSelect label="Usuários" items={users} />);
    await user.click(screen.getByRole('button', { name: /Usuários/ }));
    const search = screen.getByRole('searchbox', { name: ptBR.ui.multiSelect.filter });
    await user.type(search, 'erica');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Éricaérica@demo.local']);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByRole('option', { name: /Érica/ })).toHaveAttribute('aria-selected', 'true');
  });

  it('submits every selected id under its name and shows errors', () => {
    const { container } = renderUi(
      <MultiSelect
        label="Tipos"
        name="types"
        items={types}
        defaultValue={['read']}
        isInvalid
        errorMessage="Escolha os tipos"
      />,
    );
    const hidden = container.querySelector('select[name="types"]') as HTMLSelectElement;
    expect([...hidden.selectedOptions].map((o) => o.value)).toEqual(['read']);
    expect(screen.getByText('Escolha os tipos')).toBeInTheDocument();
  });
});
