// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { PasswordField } from './text-field';
import { PasswordStrengthMeter } from './password-strength-meter';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('PasswordStrengthMeter', () => {
  it.each([
    ['abc12345', '50', 'fraca'],
    ['Farmacia9', '75', 'média'],
    ['Farm@c1a#Boa', '100', 'forte'],
  ])('scores %s as %s (%s) with the word visible and as aria-valuetext', (password, score, word) => {
    renderUi(<PasswordStrengthMeter password={password} />);
    const meter = screen.getByRole('meter', { name: 'Força da senha' });
    expect(meter).toHaveAttribute('aria-valuenow', score);
    expect(meter).toHaveAttribute('aria-valuetext', word);
    expect(meter).toHaveTextContent(word);
    expect(screen.getByRole('status')).toHaveTextContent(`Força da senha: ${word}`);
  });

  it('fills one, two or three segments so colour is not the only cue', () => {
    const { rerender } = renderUi(<PasswordStrengthMeter password="aaa" />);
    const filled = () => screen.getByRole('meter').querySelectorAll('[class*="filled"]').length;
    expect(filled()).toBe(1);
    rerender(<PasswordStrengthMeter password="Farmacia9" />);
    expect(filled()).toBe(2);
    rerender(<PasswordStrengthMeter password="Farm@c1a#Boa" />);
    expect(filled()).toBe(3);
  });

  it('shows nothing while the password is empty', () => {
    renderUi(<PasswordStrengthMeter password="" />);
    expect(screen.queryByRole('meter')).toBeNull();
  });

  it('follows the language (en) and takes a custom label', () => {
    renderUi(<PasswordStrengthMeter password="Farm@c1a#Boa" label="Nova senha" />, { language: 'en' });
    expect(screen.getByRole('meter', { name: 'Nova senha' })).toHaveAttribute('aria-valuetext', 'strong');
  });

  it('describes the password field it is linked to, updating as the user types', async () => {
    function Field() {
      const [value, setValue] = useState('');
      return (
        <>
          <PasswordField
            label="Senha"
            value={value}
            onChange={setValue}
            aria-describedby="strength"
            autoComplete="new-password"
          />
          <PasswordStrengthMeter id="strength" password={value} />
        </>
      );
    }
    const { user } = renderUi(<Field />);
    const input = screen.getByLabelText('Senha');
    await user.type(input, 'abc');
    expect(input).toHaveAccessibleDescription('Força da senha: fraca');
    await user.clear(input);
    await user.type(input, 'Xq#7!pLm9');
    expect(input).toHaveAccessibleDescription('Força da senha: forte');
    expect(screen.getByRole('meter')).toHaveAttribute('aria-valuenow', '100');
  });
});
