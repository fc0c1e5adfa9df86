// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import ptBR from '../../i18n/pt-BR.json';
import { Select, type SelectOption } from './select';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

const roles: SelectOption[] = [
  { id: 1, label: 'Administrador' },
  { id: 2, label: 'Operador', description: 'Atende tickets' },
  { id: 3, label: 'Supervisor', isDisabled: true },
];

describe('Select', () => {
  it('shows the translated placeholder and opens a listbox with the keyboard', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Select label="Função" items={roles} onChange={onChange} />);
    const trigger = screen.getByRole('button', { name: new RegExp(`Função`) });
    expect(trigger).toHaveTextContent(ptBR.ui.select.placeholder);
    await user.tab();
    expect(trigger).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    const listbox = screen.getByRole('listbox');
    expect(within(listbox).getAllByRole('option')).toHaveLength(3);
    expect(within(listbox).getByRole('option', { name: /Supervisor/ })).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(2);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(trigger).toHaveTextContent('Operador');
  });

  it('submits the selected id through a hidden native select and reports required errors', async () => {
    const { user, container } = renderUi(
      <form>
        <Select
          label="Função"
          name="role_id"
          items={roles}
          defaultValue={1}
          isInvalid
          errorMessage="Escolha uma função"
        />
      </form>,
    );
    const hidden = container.querySelector('select[name="role_id"]');
    expect(hidden).toHaveValue('1');
    expect(screen.getByText('Escolha uma função')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Função/ }));
    expect(screen.getByRole('option', { name: 'Administrador' })).toHaveAttribute('aria-selected', 'true');
  });

  it('when disabled does not open', async () => {
    const { user } = renderUi(<Select label="Função" items={roles} isDisabled />);
    await user.click(screen.getByRole('button', { name: /Função/ }));
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
