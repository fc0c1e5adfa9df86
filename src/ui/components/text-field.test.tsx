// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { renderUi } from '../test-support/test-utils';
import { TextField } from './text-field';

afterEach(cleanup);

describe('TextField', () => {
  it('labels its input and links the description', () => {
    renderUi(<TextField label="Email" description="Use o email corporativo" type="email" isRequired />);
    const input = screen.getByRole('textbox', { name: /Email/ });
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toBeRequired();
    expect(input).toHaveAccessibleDescription('Use o email corporativo');
  });

  it('types through the keyboard into a controlled value', async () => {
    function Controlled() {
      const [value, setValue] = useState('');
      return (
        <>
          <TextField label="Nome" value={value} onChange={setValue} />
          <output>{value}</output>
        </>
      );
    }
    const { user } = renderUi(<Controlled />);
    await user.tab();
    expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveFocus();
    await user.keyboard('Ana');
    expect(screen.getByRole('status')).toHaveTextContent('Ana');
  });

  it('shows an error message linked to the input when invalid', () => {
    renderUi(<TextField label="CNPJ" isInvalid errorMessage="CNPJ inválido" defaultValue="123" />);
    const input = screen.getByRole('textbox', { name: 'CNPJ' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('CNPJ inválido');
  });

  it('is disabled: not focusable by Tab, not editable', async () => {
    const { user } = renderUi(<TextField label="Tenant" isDisabled defaultValue="acme" />);
    await user.tab();
    const input = screen.getByRole('textbox', { name: 'Tenant' });
    expect(input).not.toHaveFocus();
    expect(input).toBeDisabled();
  });
});

describe('TextField validation text', () => {
  it('shows the message of a validate function (app text) rather than the generic errorMessage', async () => {
    const { user } = renderUi(
      <TextField
        label="Nome"
        validationBehavior="aria"
        errorMessage="Campo inválido"
        validate={(v) => (v.length < 3 ? 'Mínimo de 3 caracteres' : null)}
      />,
    );
    await user.type(screen.getByRole('textbox', { name: 'Nome' }), 'ab');
    expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveAccessibleDescription('Mínimo de 3 caracteres');
  });
});
