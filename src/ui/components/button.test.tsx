// @vitest-environment jsdom
// @test-fresh: asserts :focus-visible, which jsdom's selector engine decides from the last keyboard and
// mouse events it saw on the document: a document shared with an earlier file answers from that file's.
import { cleanup, screen } from '@testing-library/react';
import { Button, IconButton } from './button';
import { CloseIcon } from './icons';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('Button', () => {
  it('is a button named by its text and pressed with Enter and Space after Tab', async () => {
    const onPress = vi.fn();
    const { user } = renderUi(<Button onPress={onPress}>Salvar</Button>);
    await user.tab();
    const button = screen.getByRole('button', { name: 'Salvar' });
    expect(button).toHaveFocus();
    // Keyboard focus is what the focus ring style selects on (native-controls.css.ts buttonState).
    expect(button.matches(':focus-visible')).toBe(true);
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(onPress).toHaveBeenCalledTimes(2);
  });

  it('while pending stays focusable, announces loading, sets aria-busy and ignores presses', async () => {
    const onPress = vi.fn();
    const { user } = renderUi(
      <Button isPending onPress={onPress}>
        Salvar
      </Button>,
    );
    const button = screen.getByRole('button');
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('progressbar', { name: 'Carregando…' })).toBeInTheDocument();
    await user.tab();
    expect(button).toHaveFocus();
    await user.click(button);
    await user.keyboard('{Enter}');
    expect(onPress).not.toHaveBeenCalled();
  });

  it('does not submit its form twice: a pending submit button is type=button', () => {
    renderUi(
      <form>
        <Button type="submit" isPending>
          Entrar
        </Button>
      </form>,
    );
    expect(screen.getByRole('button')).toHaveAttribute('type', 'button');
  });

  it('when disabled is skipped by Tab and not pressed', async () => {
    const onPress = vi.fn();
    const { user } = renderUi(
      <>
        <Button isDisabled onPress={onPress}>
          Excluir
        </Button>
        <Button variant="secondary">Cancelar</Button>
      </>,
    );
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancelar' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Excluir' }));
    expect(onPress).not.toHaveBeenCalled();
  });

  it('applies variant and size classes that differ between variants', () => {
    renderUi(
      <>
        <Button variant="danger" size="lg">
          A
        </Button>
        <Button variant="ghost" size="sm">
          B
        </Button>
      </>,
    );
    expect(screen.getByRole('button', { name: 'A' }).className).not.toBe(
      screen.getByRole('button', { name: 'B' }).className,
    );
  });
});

describe('IconButton', () => {
  it('takes its accessible name from label, not from the icon', async () => {
    const onPress = vi.fn();
    const { user } = renderUi(<IconButton label="Fechar" icon={<CloseIcon />} onPress={onPress} />);
    const button = screen.getByRole('button', { name: 'Fechar' });
    await user.click(button);
    expect(onPress).toHaveBeenCalledOnce();
  });

  it('requires a label at the type level', () => {
    // @ts-expect-error — `label` is required: an icon-only button must have an accessible name.
    const element = <IconButton icon={<CloseIcon />} />;
    expect(element.props).not.toHaveProperty('label');
  });

  it('shows the pending state with a named spinner', () => {
    renderUi(<IconButton label="Sincronizar" icon={<CloseIcon />} isPending pendingLabel="Sincronizando" />);
    expect(screen.getByRole('button')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('progressbar', { name: 'Sincronizando' })).toBeInTheDocument();
  });
});
