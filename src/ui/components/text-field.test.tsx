// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { Input } from 'react-aria-components/Input';
import { TextField as RACTextField } from 'react-aria-components/TextField';
import { useState } from 'react';
import en from '../../i18n/en.json';
import pt from '../../i18n/pt.json';
import ptBR from '../../i18n/pt-BR.json';
import { renderUi } from '../test-support/test-utils';
import { Button } from './button';
import { FieldHelp, FieldLabel } from './field';
import { Modal } from './dialog';
import { Form } from './form';
import { InAriaForm } from './aria-form';
import { PasswordField, TextField, type TextFieldProps } from './text-field';

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

  // Names and descriptions come from text and attributes. React mirrors a controlled value into the
  // `value` attribute, where a style sheet's attribute selector or anything reading the page's HTML
  // would find the password as it is typed; the field keeps it in the input's property only.
  it.each([
    ['typed into a controlled field', 'controlled'],
    ['given as its default value', 'default'],
  ] as const)(
    'keeps a password %s out of every attribute and text, shown or hidden, and out of every name',
    async (_label, kind) => {
      const secret = 'Back#Office!Demo';
      function Controlled() {
        const [value, setValue] = useState('');
        return <PasswordField label="Senha" autoComplete="new-password" value={value} onChange={setValue} />;
      }
      const { user } = renderUi(
        kind === 'controlled' ? (
          <Controlled />
        ) : (
          <PasswordField label="Senha" autoComplete="new-password" defaultValue={secret} />
        ),
      );
      if (kind === 'controlled') await user.type(passwordInput(), secret);
      const leaks = () => [
        ...(document.body.textContent?.includes(secret) ? ['text'] : []),
        ...[...document.body.querySelectorAll('*')].flatMap((element) =>
          [...element.attributes]
            .filter((attribute) => attribute.value.includes(secret))
            .map((attribute) => `${element.tagName} ${attribute.name}`),
        ),
      ];
      const unnamedBy = () => {
        for (const element of [passwordInput(), screen.getByRole('button')]) {
          expect(element).not.toHaveAccessibleName(expect.stringContaining(secret));
          expect(element).not.toHaveAccessibleDescription(expect.stringContaining(secret));
        }
      };
      expect(passwordInput()).toHaveValue(secret);
      expect(leaks()).toEqual([]);
      unnamedBy();
      await user.click(screen.getByRole('button', { name: ptBR.ui.password.show }));
      expect(passwordInput()).toHaveValue(secret);
      expect(leaks()).toEqual([]);
      unnamedBy();
      expect(passwordInput()).toHaveAttribute('autocomplete', 'new-password');
    },
  );

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

describe('TextField and PasswordField in a Form (server errors, validation)', () => {
  function Refusable({
    onSubmit = vi.fn(),
    first = { email: 'Já está em uso.', password: ptBR.users.form.passwordWeak },
  }: {
    onSubmit?: () => void;
    first?: Record<string, string>;
  }) {
    const [errors, setErrors] = useState<Record<string, string>>(first);
    return (
      <>
        <Form
          aria-label="Usuário"
          validationErrors={errors}
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          <TextField name="email" label="Email" type="email" defaultValue="ana@demo.local" />
          <TextField name="name" label="Nome" defaultValue="Ana" />
          <PasswordField name="password" label="Senha" defaultValue="abc12345" autoComplete="new-password" />
          <Button type="submit">Salvar</Button>
        </Form>
        <Button onPress={() => setErrors({ ...first })}>Recusar de novo</Button>
      </>
    );
  }

  it('shows each server error on the field of its name, linked and marked invalid', () => {
    renderUi(<Refusable />);
    const email = screen.getByRole('textbox', { name: 'Email' });
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Já está em uso.');
    expect(passwordInput()).toHaveAttribute('aria-invalid', 'true');
    expect(passwordInput()).toHaveAccessibleDescription(ptBR.users.form.passwordWeak);
    const name = screen.getByRole('textbox', { name: 'Nome' });
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(name).not.toHaveAccessibleDescription();
  });

  it('keeps a server error while the field is edited, clears it when the edit is committed, shows the next refusal', async () => {
    const { user } = renderUi(<Refusable />);
    const email = screen.getByRole('textbox', { name: 'Email' });
    await user.clear(email);
    await user.type(email, 'bia@demo.local');
    expect(email).toHaveAccessibleDescription('Já está em uso.');
    await user.tab();
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(email).not.toHaveAccessibleDescription();
    // The other field's refusal is its own: it stays.
    expect(passwordInput()).toHaveAccessibleDescription(ptBR.users.form.passwordWeak);
    // A new refusal (a new object, even with the same text) shows again.
    await user.click(screen.getByRole('button', { name: 'Recusar de novo' }));
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Já está em uso.');
  });

  it('does not submit a refusal nobody has edited: the first refused field gets focus and keeps its message', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<Refusable onSubmit={onSubmit} first={{ password: ptBR.users.form.passwordWeak }} />);
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(passwordInput()).toHaveFocus();
    expect(passwordInput()).toHaveAccessibleDescription(ptBR.users.form.passwordWeak);
    // Once edited and committed, the same form submits.
    await user.type(passwordInput(), '!');
    await user.tab();
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('says a required field is missing in the app language, not the browser’s, and names the failed constraint', async () => {
    const t = ptBR.users.form;
    function Required() {
      const [email, setEmail] = useState('');
      return (
        <Form aria-label="Usuário" onSubmit={(event) => event.preventDefault()}>
          <TextField name="name" label="Nome" isRequired errorMessage={t.required} />
          <TextField
            name="email"
            label="Email"
            type="email"
            isRequired
            value={email}
            onChange={setEmail}
            errorMessage={({ validationDetails }) =>
              validationDetails.valueMissing ? t.required : validationDetails.typeMismatch ? t.emailInvalid : null
            }
          />
          <PasswordField name="password" label="Senha" isRequired errorMessage={t.required} />
          <Button type="submit">Salvar</Button>
        </Form>
      );
    }
    const { user } = renderUi(<Required />);
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    const name = screen.getByRole('textbox', { name: /Nome/ });
    const email = screen.getByRole('textbox', { name: /Email/ });
    expect(name).toHaveFocus();
    expect(name).toBeRequired();
    expect(name).toHaveAccessibleDescription('Campo obrigatório.');
    expect(email).toHaveAccessibleDescription('Campo obrigatório.');
    expect(screen.getByLabelText(/Senha/, { selector: 'input' })).toHaveAccessibleDescription('Campo obrigatório.');
    // A malformed address says so once the edit is committed.
    await user.type(email, 'ana');
    expect(email).toHaveAccessibleDescription('Campo obrigatório.');
    await user.tab();
    expect(email).toHaveAccessibleDescription('E-mail inválido.');
  });

  it('under native validation, shows a `validate` message when the value is committed and does not submit it', async () => {
    const onSubmit = vi.fn();
    function Checked() {
      const [code, setCode] = useState('');
      return (
        <Form
          aria-label="Código"
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          <TextField
            name="code"
            label="Código"
            value={code}
            onChange={setCode}
            validate={(value) => (value.length === 6 ? null : 'São 6 dígitos.')}
          />
          <Button type="submit">Enviar</Button>
        </Form>
      );
    }
    const { user } = renderUi(<Checked />);
    const code = screen.getByRole('textbox', { name: 'Código' });
    await user.type(code, '123');
    expect(code).not.toHaveAttribute('aria-invalid');
    await user.tab();
    expect(code).toHaveAccessibleDescription('São 6 dígitos.');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(code).toHaveFocus();
    await user.type(code, '456{Enter}');
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('under aria validation, marks required without blocking, and says what `validate` finds as the value changes', async () => {
    const onSubmit = vi.fn();
    function Aria() {
      const [cnpj, setCnpj] = useState('');
      return (
        <Form
          aria-label="Tenant"
          validationBehavior="aria"
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          <TextField
            name="cnpj"
            label="CNPJ"
            isRequired
            value={cnpj}
            onChange={setCnpj}
            validate={(value) => (value.length > 3 ? 'CNPJ inválido.' : null)}
          />
          <Button type="submit">Criar</Button>
        </Form>
      );
    }
    const { user } = renderUi(<Aria />);
    const cnpj = screen.getByRole('textbox', { name: /CNPJ/ });
    expect(cnpj).not.toHaveAttribute('required');
    expect(cnpj).toHaveAttribute('aria-required', 'true');
    await user.click(screen.getByRole('button', { name: 'Criar' }));
    expect(onSubmit).toHaveBeenCalledOnce();
    await user.type(cnpj, '1234');
    expect(cnpj).toHaveAttribute('aria-invalid', 'true');
    expect(cnpj).toHaveAccessibleDescription('CNPJ inválido.');
    await user.keyboard('{Backspace}');
    expect(cnpj).not.toHaveAttribute('aria-invalid');
  });

  it('a controlled isInvalid={false} hides what the server says; true shows the errorMessage', () => {
    const { rerender } = renderUi(
      <Form aria-label="Código" validationErrors={{ code: 'Código expirado.' }}>
        <TextField name="code" label="Código" isInvalid={false} errorMessage="Código errado." />
      </Form>,
    );
    const code = screen.getByRole('textbox', { name: 'Código' });
    expect(code).not.toHaveAttribute('aria-invalid');
    rerender(
      <Form aria-label="Código" validationErrors={{ code: 'Código expirado.' }}>
        <TextField name="code" label="Código" isInvalid errorMessage="Código errado." />
      </Form>,
    );
    expect(code).toHaveAccessibleDescription('Código errado.');
  });
});

/**
 * The same steps on this TextField and on React Aria's, each alone in a Form: after each step both
 * say the same (invalid or not, the same description, the same required attributes).
 */
describe('TextField says what React Aria’s TextField said', () => {
  type Step = ['type', string] | ['clear'] | ['commit'] | ['submit'] | ['refuse', string];
  interface Case {
    name: string;
    behavior?: 'native' | 'aria';
    props: Pick<TextFieldProps, 'isRequired' | 'type' | 'validate' | 'maxLength'>;
    errorMessage?: TextFieldProps['errorMessage'];
    steps: Step[];
  }

  function Alone({
    behavior,
    props,
    errorMessage,
    errors,
    aria,
  }: Case & { errors: Record<string, string> | undefined; aria: boolean }) {
    const [value, setValue] = useState('');
    return (
      <Form
        aria-label="Campo"
        validationBehavior={behavior}
        validationErrors={errors}
        onSubmit={(event) => event.preventDefault()}
      >
        {aria ? (
          // React Aria's field reads the form from React Aria's contexts, as the screens' React Aria
          // primitives do (aria-form.tsx).
          <InAriaForm>
            <RACTextField name="field" value={value} onChange={setValue} {...props}>
              <FieldLabel isRequired={props.isRequired}>Campo</FieldLabel>
              <Input />
              <FieldHelp errorMessage={errorMessage} />
            </RACTextField>
          </InAriaForm>
        ) : (
          <TextField
            name="field"
            label="Campo"
            value={value}
            onChange={setValue}
            errorMessage={errorMessage}
            {...props}
          />
        )}
        <Button type="submit">Enviar</Button>
      </Form>
    );
  }

  /** What the field says after each step. */
  async function trail(testCase: Case, aria: boolean) {
    let errors: Record<string, string> | undefined;
    const { user, rerender, unmount } = renderUi(<Alone {...testCase} errors={errors} aria={aria} />);
    const input = screen.getByRole('textbox', { name: /Campo/ });
    const said = [];
    for (const [kind, text = ''] of testCase.steps) {
      if (kind === 'submit') await user.click(screen.getByRole('button', { name: 'Enviar' }));
      else if (kind === 'refuse') {
        errors = { field: text };
        rerender(<Alone {...testCase} errors={errors} aria={aria} />);
      } else if (kind === 'type') await user.type(input, text);
      else if (kind === 'clear') await user.clear(input);
      // A commit: the edited value leaves the field (the native `change` event).
      else {
        input.focus();
        await user.tab();
      }
      said.push({
        after: kind,
        invalid: input.getAttribute('aria-invalid'),
        // What `aria-describedby` points at, as a screen reader reads it after the name.
        description: (input.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .filter(Boolean)
          .join(' '),
        required: input.hasAttribute('required'),
        ariaRequired: input.getAttribute('aria-required'),
        focused: document.activeElement === input,
      });
    }
    unmount();
    return said;
  }

  const cases: Case[] = [
    {
      name: 'native: required email, a translated message',
      props: { isRequired: true, type: 'email' },
      errorMessage: 'Campo obrigatório.',
      steps: [
        ['submit'],
        ['type', 'ana'],
        ['commit'],
        ['submit'],
        ['type', '@demo.local'],
        ['commit'],
        ['clear'],
        ['commit'],
      ],
    },
    {
      name: 'native: a function errorMessage gets the failed constraint',
      props: { isRequired: true, type: 'email' },
      errorMessage: ({ validationDetails }) =>
        validationDetails.valueMissing ? 'Obrigatório.' : validationDetails.typeMismatch ? 'Email inválido.' : null,
      steps: [['type', 'x'], ['commit'], ['clear'], ['commit'], ['submit'], ['type', 'x@y.z'], ['submit']],
    },
    {
      name: 'native: validate, then server refusals',
      props: { validate: (value) => (value.length < 3 ? 'Mínimo de 3 caracteres.' : null) },
      steps: [
        ['type', 'ab'],
        ['submit'],
        ['type', 'c'],
        ['refuse', 'Já existe.'],
        ['submit'],
        ['type', 'd'],
        ['commit'],
        ['refuse', 'Já existe.'],
        ['clear'],
        ['commit'],
      ],
    },
    {
      name: 'aria: required and validate show as typed, server refusals until commit',
      behavior: 'aria',
      props: { isRequired: true, maxLength: 5, validate: (value) => (value.includes(' ') ? 'Sem espaços.' : null) },
      errorMessage: 'Preencha este campo.',
      steps: [
        ['submit'],
        ['type', 'a b'],
        ['type', 'x'],
        ['clear'],
        ['type', 'ab'],
        ['refuse', 'Em uso.'],
        ['type', 'c'],
        ['commit'],
        ['submit'],
      ],
    },
  ];

  it.each(cases)('$name', async (testCase) => {
    const theirs = await trail(testCase, true);
    // The steps reach states worth comparing: an error shows at some step, and goes at another.
    expect(theirs.some((step) => step.invalid === 'true')).toBe(true);
    expect(theirs.some((step) => step.invalid === null)).toBe(true);
    expect(await trail(testCase, false)).toEqual(theirs);
  });
});

describe('TextField without an errorMessage', () => {
  function Login({ onSubmit = vi.fn() }: { onSubmit?: () => void }) {
    return (
      <Form
        aria-label="Entrar"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <TextField name="email" label="Email" type="email" isRequired />
        <PasswordField name="password" label="Senha" isRequired />
        <Button type="submit">Entrar</Button>
      </Form>
    );
  }

  it.each([
    ['pt-BR', ptBR.ui.field],
    ['pt', pt.ui.field],
    ['en', en.ui.field],
  ] as const)(
    'says a required value is missing, and an email malformed, in the app language (%s)',
    async (language, texts) => {
      const { user } = renderUi(<Login />, { language });
      await user.click(screen.getByRole('button', { name: 'Entrar' }));
      const email = screen.getByRole('textbox', { name: /Email/ });
      expect(email).toHaveAccessibleDescription(texts.required);
      expect(screen.getByLabelText(/Senha/, { selector: 'input' })).toHaveAccessibleDescription(texts.required);
      await user.type(email, 'ana');
      await user.tab();
      expect(email).toHaveAccessibleDescription(texts.email);
    },
  );

  it('keeps the browser’s message for other constraints, and app text from the server as it is', async () => {
    const { user } = renderUi(
      <Form aria-label="Código" validationErrors={{ name: 'Já está em uso.' }}>
        <TextField name="code" label="Código" pattern="[0-9]{6}" defaultValue="12" />
        <TextField name="name" label="Nome" />
        <Button type="submit">Enviar</Button>
      </Form>,
    );
    expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveAccessibleDescription('Já está em uso.');
    const code = screen.getByRole('textbox', { name: 'Código' });
    await user.type(code, '3');
    await user.tab();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription((code as HTMLInputElement).validationMessage);
  });
});

describe('TextField autoFocus', () => {
  it('takes the focus in a dialog opened over another dialog (the focus trap beneath does not take it back)', async () => {
    function Nested() {
      const [inner, setInner] = useState(false);
      return (
        <Modal title="Tenant" isOpen onOpenChange={() => undefined}>
          <Button onPress={() => setInner(true)}>Editar instância</Button>
          <Modal title="Editar instância" isOpen={inner} onOpenChange={setInner}>
            <TextField label="Nome" name="name" defaultValue="WhatsApp" autoFocus />
          </Modal>
        </Modal>
      );
    }
    const { user } = renderUi(<Nested />);
    await user.click(screen.getByRole('button', { name: 'Editar instância' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveFocus());
  });
});
