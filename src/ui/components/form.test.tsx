// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Button } from './button';
import { Form, FormActions } from './form';
import { renderUi } from '../test-support/test-utils';
import { PasswordField, TextField } from './text-field';

afterEach(cleanup);

function LoginLikeForm({
  onSubmit,
  formError,
  validationErrors,
}: {
  onSubmit: () => void;
  formError?: string;
  validationErrors?: Record<string, string>;
}) {
  return (
    <Form
      aria-label="Entrar"
      formError={formError}
      validationErrors={validationErrors}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <TextField name="email" label="Email" type="email" isRequired errorMessage="Informe um email válido" />
      <PasswordField name="password" label="Senha" isRequired errorMessage="Informe a senha" />
      <FormActions>
        <Button type="submit">Entrar</Button>
      </FormActions>
    </Form>
  );
}

describe('Form', () => {
  it('blocks submit while required fields are empty, shows field errors and focuses the first', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<LoginLikeForm onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(onSubmit).not.toHaveBeenCalled();
    const email = screen.getByRole('textbox', { name: /Email/ });
    expect(email).toHaveFocus();
    expect(email).toHaveAccessibleDescription('Informe um email válido');
    expect(screen.getByText('Informe a senha')).toBeInTheDocument();
  });

  it('submits with Enter once the fields are valid', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<LoginLikeForm onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'admin@demo.local');
    await user.type(screen.getByLabelText(/Senha/, { selector: 'input' }), 'Back#Office!Demo{Enter}');
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('announces a form-level error with role=alert', () => {
    renderUi(<LoginLikeForm onSubmit={vi.fn()} formError="Email ou/e senha errado(s)" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Email ou/e senha errado(s)');
  });

  it('shows server errors on the named field', () => {
    renderUi(<LoginLikeForm onSubmit={vi.fn()} validationErrors={{ email: 'Email já cadastrado' }} />);
    const email = screen.getByRole('textbox', { name: /Email/ });
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Email já cadastrado');
  });
});
