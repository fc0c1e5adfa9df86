// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import en from '../../i18n/en.json';
import ptBR from '../../i18n/pt-BR.json';
import { PasswordField } from './password-field';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

function passwordInput(): HTMLInputElement {
  // type=password inputs have no ARIA role; find it through its label.
  return screen.getByLabelText('Senha', { selector: 'input' });
}

describe('PasswordField', () => {
  it('hides the password and offers a named toggle that reveals and hides it', async () => {
    const { user } = renderUi(<PasswordField label="Senha" defaultValue="Back#Office!Demo" />);
    expect(passwordInput()).toHaveAttribute('type', 'password');
    expect(passwordInput()).toHaveAttribute('autocomplete', 'current-password');

    await user.click(screen.getByRole('button', { name: ptBR.ui.password.show }));
    expect(passwordInput()).toHaveAttribute('type', 'text');
    expect(passwordInput()).toHaveValue('Back#Office!Demo');

    await user.click(screen.getByRole('button', { name: ptBR.ui.password.hide }));
    expect(passwordInput()).toHaveAttribute('type', 'password');
  });

  it('toggles by keyboard: Tab from the input to the toggle, then Enter', async () => {
    const { user } = renderUi(<PasswordField label="Senha" />);
    await user.tab();
    expect(passwordInput()).toHaveFocus();
    await user.keyboard('x');
    await user.tab();
    const toggle = screen.getByRole('button', { name: ptBR.ui.password.show });
    expect(toggle).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(passwordInput()).toHaveAttribute('type', 'text');
  });

  it('does not submit the surrounding form when the toggle is pressed', async () => {
    const onSubmit = vi.fn((e: React.FormEvent) => e.preventDefault());
    const { user } = renderUi(
      <form onSubmit={onSubmit}>
        <PasswordField label="Senha" />
      </form>,
    );
    await user.click(screen.getByRole('button', { name: ptBR.ui.password.show }));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('names the toggle in the active language', () => {
    renderUi(<PasswordField label="Password" />, { language: 'en' });
    expect(screen.getByRole('button', { name: en.ui.password.show })).toBeInTheDocument();
  });

  it('shows invalid and disabled states', () => {
    renderUi(<PasswordField label="Senha" isInvalid errorMessage="Senha fraca" isDisabled />);
    expect(passwordInput()).toHaveAttribute('aria-invalid', 'true');
    expect(passwordInput()).toHaveAccessibleDescription('Senha fraca');
    expect(passwordInput()).toBeDisabled();
    expect(screen.getByRole('button', { name: ptBR.ui.password.show })).toBeDisabled();
  });
});
