// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { Button, IconButton } from './button';
import { Form, FormActions } from './form';
import { renderUi } from '../test-support/test-utils';
import { NumberField } from './number-field';
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

function ControlledLoginForm({
  onSubmit,
  formError,
  busy = false,
}: {
  onSubmit: () => void;
  formError?: string;
  busy?: boolean;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  return (
    <Form
      aria-label="Entrar"
      formError={formError}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <TextField
        name="email"
        label="Email"
        type="email"
        isRequired
        errorMessage="Informe um email válido"
        value={email}
        onChange={setEmail}
      />
      <PasswordField
        name="password"
        label="Senha"
        isRequired
        errorMessage="Informe a senha"
        value={password}
        onChange={setPassword}
      />
      <FormActions>
        <Button type="submit" isPending={busy} pendingLabel="Carregando…">
          Entrar
        </Button>
      </FormActions>
    </Form>
  );
}

describe('Form with controlled text and password fields, as on the login route (no React Aria)', () => {
  it('blocks submit while required fields are empty, shows the errors linked to the inputs and focuses the first', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<ControlledLoginForm onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(onSubmit).not.toHaveBeenCalled();
    const email = screen.getByRole('textbox', { name: /Email/ });
    expect(email).toHaveFocus();
    expect(email).toBeRequired();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Informe um email válido');
    expect(screen.getByLabelText(/Senha/, { selector: 'input' })).toHaveAccessibleDescription('Informe a senha');
  });

  it('clears a field error once the committed value is valid, and submits with Enter', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<ControlledLoginForm onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    const email = screen.getByRole('textbox', { name: /Email/ });
    await user.type(email, 'admin@demo.local');
    await user.tab();
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(email).not.toHaveAccessibleDescription();
    await user.type(screen.getByLabelText(/Senha/, { selector: 'input' }), 'Back#Office!Demo{Enter}');
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('shows and hides the password with a button named by what it will do', async () => {
    const { user } = renderUi(<ControlledLoginForm onSubmit={vi.fn()} />);
    const input = screen.getByLabelText(/Senha/, { selector: 'input' });
    expect(input).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Mostrar senha' }));
    expect(input).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Ocultar senha' })).toHaveAttribute('type', 'button');
  });

  it('announces a form-level error with role=alert', () => {
    renderUi(<ControlledLoginForm onSubmit={vi.fn()} formError="Email ou/e senha errado(s)" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Email ou/e senha errado(s)');
  });

  it('a pending submit button stays focusable, is busy, names its spinner and does not submit again', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<ControlledLoginForm onSubmit={onSubmit} busy />);
    const button = screen.getByRole('button', { name: /Entrar/ });
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAttribute('type', 'button');
    expect(screen.getByRole('progressbar', { name: 'Carregando…' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'admin@demo.local');
    await user.type(screen.getByLabelText(/Senha/, { selector: 'input' }), 'x{Enter}');
    await user.click(button);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('an icon button is named by its label, also while pending (label + spinner)', async () => {
    const onPress = vi.fn();
    const { user, rerender } = renderUi(<IconButton label="Alternar tema" icon={<span />} onPress={onPress} />);
    await user.tab();
    await user.keyboard('{Enter}');
    expect(onPress).toHaveBeenCalledOnce();
    rerender(
      <IconButton label="Alternar tema" icon={<span />} onPress={onPress} isPending pendingLabel="Carregando…" />,
    );
    expect(screen.getByRole('button')).toHaveAccessibleName('Alternar tema Carregando…');
  });
});

/** A form with one of React Aria's fields (the number field) beside a text field, as the tenant and user forms. */
function LimitsForm({
  onSubmit,
  validationErrors,
  validationBehavior,
}: {
  onSubmit: () => void;
  validationErrors?: Record<string, string>;
  validationBehavior?: 'native' | 'aria';
}) {
  return (
    <Form
      aria-label="Limites"
      validationErrors={validationErrors}
      validationBehavior={validationBehavior}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <TextField name="name" label="Nome" isRequired errorMessage="Informe o nome" />
      <NumberField name="userLimit" label="Limite de usuários" isRequired errorMessage="Informe o limite" />
      <FormActions>
        <Button type="submit">Salvar</Button>
      </FormActions>
    </Form>
  );
}

describe('Form with React Aria fields (aria-form.tsx)', () => {
  it('a required React Aria field blocks a native submit, says why, and the form submits once when filled', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<LimitsForm onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: /Nome/ }), 'Acme');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(onSubmit).not.toHaveBeenCalled();
    const limit = screen.getByRole('textbox', { name: /Limite de usuários/ });
    expect(limit).toHaveFocus();
    expect(limit).toHaveAccessibleDescription('Informe o limite');
    await user.type(limit, '5{Enter}');
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it("shows the server's error on a React Aria field until it is edited, and again with the next errors", async () => {
    const onSubmit = vi.fn();
    const first = { userLimit: 'Acima do plano' };
    const { user, rerender } = renderUi(<LimitsForm onSubmit={onSubmit} validationErrors={first} />);
    const limit = screen.getByRole('textbox', { name: /Limite de usuários/ });
    expect(limit).toHaveAttribute('aria-invalid', 'true');
    expect(limit).toHaveAccessibleDescription('Acima do plano');
    await user.type(limit, '3');
    await user.tab();
    expect(limit).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Acima do plano')).not.toBeInTheDocument();
    rerender(<LimitsForm onSubmit={onSubmit} validationErrors={{ userLimit: 'Acima do plano' }} />);
    expect(screen.getByRole('textbox', { name: /Limite de usuários/ })).toHaveAccessibleDescription('Acima do plano');
  });

  it('under aria validation nothing blocks the submit: the fields are aria-required, not required', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<LimitsForm onSubmit={onSubmit} validationBehavior="aria" />);
    const limit = screen.getByRole('textbox', { name: /Limite de usuários/ });
    expect(limit).not.toHaveAttribute('required');
    expect(limit).toHaveAttribute('aria-required', 'true');
    expect(screen.getByRole('textbox', { name: /Nome/ })).toHaveAttribute('aria-required', 'true');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(onSubmit).toHaveBeenCalledOnce();
  });
});
