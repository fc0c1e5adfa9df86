// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { Switch } from './switch';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('Switch', () => {
  it('is a named switch that Space toggles; disabled, it cannot be changed', async () => {
    const onChange = vi.fn();
    const { user, rerender } = renderUi(
      <Switch isSelected={false} onChange={onChange}>
        Menu recolhido
      </Switch>,
    );
    const control = screen.getByRole('switch', { name: 'Menu recolhido' });
    expect(control).not.toBeChecked();
    await user.tab();
    await user.keyboard(' ');
    expect(onChange).toHaveBeenCalledWith(true);
    rerender(
      <Switch isSelected onChange={onChange} isDisabled>
        Menu recolhido
      </Switch>,
    );
    expect(screen.getByRole('switch', { name: 'Menu recolhido' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Menu recolhido' })).toBeDisabled();
    await user.click(screen.getByText('Menu recolhido'));
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});

function Toggle({ isDisabled, onChange }: { isDisabled?: boolean; onChange?: (value: boolean) => void }) {
  const [on, setOn] = useState(false);
  return (
    <Switch
      isSelected={on}
      isDisabled={isDisabled}
      onChange={(value) => {
        setOn(value);
        onChange?.(value);
      }}
    >
      Autenticação em dois fatores
    </Switch>
  );
}

describe('Switch, kept by the caller', () => {
  it('has role switch, toggles with Space and with a click on its label', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Toggle onChange={onChange} />);
    await user.tab();
    const control = screen.getByRole('switch', { name: 'Autenticação em dois fatores' });
    expect(control).toHaveFocus();
    await user.keyboard(' ');
    expect(control).toBeChecked();
    await user.click(screen.getByText('Autenticação em dois fatores'));
    expect(control).not.toBeChecked();
    expect(onChange.mock.calls).toEqual([[true], [false]]);
  });

  it('a disabled switch does not change', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Toggle isDisabled onChange={onChange} />);
    await user.click(screen.getByRole('switch', { name: 'Autenticação em dois fatores' }));
    expect(screen.getByRole('switch', { name: 'Autenticação em dois fatores' })).not.toBeChecked();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('an aria-label names it instead of the visible text', () => {
    renderUi(
      <Switch isSelected={false} onChange={() => {}} aria-label="Mostrar a tabela de Vendas">
        Tabela
      </Switch>,
    );
    expect(screen.getByRole('switch', { name: 'Mostrar a tabela de Vendas' })).toBeInTheDocument();
  });
});
