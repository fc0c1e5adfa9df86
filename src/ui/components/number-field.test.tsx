// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { NumberField } from './number-field';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('NumberField', () => {
  it('steps with arrow keys within bounds and reports numbers', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(
      <NumberField label="Limite de usuários" defaultValue={9} minValue={0} maxValue={10} onChange={onChange} />,
    );
    await user.tab();
    const input = screen.getByRole('textbox', { name: 'Limite de usuários' });
    expect(input).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    await user.keyboard('{ArrowUp}');
    expect(input).toHaveValue('10');
    expect(onChange).toHaveBeenLastCalledWith(10);
  });

  it('formats in pt-BR and has localized stepper buttons', () => {
    renderUi(<NumberField label="Valor" defaultValue={1234.5} />);
    expect(screen.getByRole('textbox', { name: 'Valor' })).toHaveValue('1.234,5');
    // React Aria names the steppers itself, in the active locale.
    expect(screen.getByRole('button', { name: /Aumentar/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Diminuir/ })).toBeInTheDocument();
  });

  it('formats in English when the language is en', () => {
    renderUi(<NumberField label="Value" defaultValue={1234.5} />, { language: 'en' });
    expect(screen.getByRole('textbox', { name: 'Value' })).toHaveValue('1,234.5');
  });

  it('shows an error and disables the steppers when disabled', () => {
    renderUi(<NumberField label="Dias" isInvalid errorMessage="Informe os dias" isDisabled defaultValue={1} />);
    const input = screen.getByRole('textbox', { name: 'Dias' });
    expect(input).toHaveAccessibleDescription('Informe os dias');
    expect(input).toBeDisabled();
    for (const button of screen.getAllByRole('button', { hidden: true })) expect(button).toBeDisabled();
  });
});
