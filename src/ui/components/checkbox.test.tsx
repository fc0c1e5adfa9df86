// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Checkbox, CheckboxGroup } from './checkbox';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('Checkbox', () => {
  it('toggles with Space after Tab and reports the new state', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Checkbox onChange={onChange}>Lembrar de mim</Checkbox>);
    await user.tab();
    const box = screen.getByRole('checkbox', { name: 'Lembrar de mim' });
    expect(box).toHaveFocus();
    await user.keyboard(' ');
    expect(box).toBeChecked();
    expect(onChange).toHaveBeenLastCalledWith(true);
  });

  it('exposes the indeterminate (mixed) state', () => {
    renderUi(<Checkbox isIndeterminate>Todos</Checkbox>);
    expect((screen.getByRole('checkbox', { name: 'Todos' }) as HTMLInputElement).indeterminate).toBe(true);
  });

  it('is disabled: not toggled by click', async () => {
    const { user } = renderUi(<Checkbox isDisabled>Desativado</Checkbox>);
    const box = screen.getByRole('checkbox', { name: 'Desativado' });
    await user.click(box);
    expect(box).not.toBeChecked();
    expect(box).toBeDisabled();
  });
});

describe('CheckboxGroup', () => {
  it('is a labelled group whose value is the selected values; errors are linked', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(
      <CheckboxGroup label="Recursos" onChange={onChange} isInvalid errorMessage="Escolha ao menos um">
        <Checkbox value="chat">Chat</Checkbox>
        <Checkbox value="campaigns">Campanhas</Checkbox>
      </CheckboxGroup>,
    );
    const group = screen.getByRole('group', { name: 'Recursos' });
    expect(group).toHaveAccessibleDescription('Escolha ao menos um');
    await user.click(screen.getByRole('checkbox', { name: 'Campanhas' }));
    await user.click(screen.getByRole('checkbox', { name: 'Chat' }));
    expect(onChange).toHaveBeenLastCalledWith(['campaigns', 'chat']);
  });
});
