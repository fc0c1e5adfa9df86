// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import ptBR from '../../i18n/pt-BR.json';
import { Button } from './button';
import { Modal } from './dialog';
import { renderUi } from '../test-support/test-utils';
import { TextField } from './text-field';

afterEach(cleanup);

/** A button that opens the dialog, as the screens do it: their state says whether it is open. */
function EditUser() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onPress={() => setOpen(true)}>Editar usuário</Button>
      <Modal
        title="Editar usuário"
        isOpen={open}
        onOpenChange={setOpen}
        footer={(close) => <Button onPress={close}>Salvar</Button>}
      >
        <TextField label="Nome" autoFocus />
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('opens from its button as a dialog named by its title, with focus inside', async () => {
    const { user } = renderUi(<EditUser />);
    await user.click(screen.getByRole('button', { name: 'Editar usuário' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar usuário' });
    expect(dialog).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveFocus();
  });

  it('traps Tab inside and closes with Escape, returning focus to the button that opened it', async () => {
    const { user } = renderUi(<EditUser />);
    const trigger = screen.getByRole('button', { name: 'Editar usuário' });
    await user.click(trigger);
    const dialog = screen.getByRole('dialog');
    for (let i = 0; i < 4; i += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    // RAC restores focus in the next animation frame.
    await waitFor(() => expect(trigger).toHaveFocus());
  });

  it('closes from the named close button and from footer actions', async () => {
    const { user } = renderUi(<EditUser />);
    await user.click(screen.getByRole('button', { name: 'Editar usuário' }));
    await user.click(screen.getByRole('button', { name: ptBR.common.close }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Editar usuário' }));
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows its content while open', () => {
    const onOpenChange = vi.fn();
    renderUi(
      <Modal title="Detalhes" isOpen onOpenChange={onOpenChange}>
        Conteúdo
      </Modal>,
    );
    expect(screen.getByRole('dialog', { name: 'Detalhes' })).toHaveTextContent('Conteúdo');
  });

  it('cannot be closed while pending: no close button, Escape and footer close() reach nobody; afterwards they do', async () => {
    const onOpenChange = vi.fn();
    const pending = (isPending: boolean) => (
      <Modal
        title="Salvando"
        isOpen
        isPending={isPending}
        onOpenChange={onOpenChange}
        footer={(close) => <Button onPress={close}>Fechar pelo rodapé</Button>}
      >
        <TextField label="Nome" autoFocus />
      </Modal>
    );
    const { user, rerender } = renderUi(pending(true));
    expect(screen.queryByRole('button', { name: ptBR.common.close })).toBeNull();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Fechar pelo rodapé' }));
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Salvando' })).toBeInTheDocument();

    rerender(pending(false));
    await user.click(screen.getByRole('button', { name: ptBR.common.close }));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    onOpenChange.mockClear();
    await user.click(screen.getByRole('button', { name: 'Fechar pelo rodapé' }));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
  });

  it('calls onClose when asked to close, never while pending', async () => {
    const onClose = vi.fn();
    const dialog = (isPending: boolean) => (
      <Modal title="Editar" isOpen isPending={isPending} onClose={onClose}>
        <TextField label="Nome" autoFocus />
      </Modal>
    );
    const { user, rerender } = renderUi(dialog(true));
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    rerender(dialog(false));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: ptBR.common.close }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
