// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import ptBR from '../../i18n/pt-BR.json';
import { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

function renderConfirm(props: Partial<ConfirmDialogProps> = {}) {
  const onOpenChange = vi.fn();
  const onConfirm = vi.fn();
  const result = renderUi(
    <ConfirmDialog
      isOpen
      onOpenChange={onOpenChange}
      onConfirm={onConfirm}
      title="Excluir tenant"
      message="O tenant acme será excluído."
      confirmLabel="Excluir"
      variant="danger"
      {...props}
    />,
  );
  return { ...result, onOpenChange, onConfirm };
}

describe('ConfirmDialog', () => {
  it('is an alertdialog with title and message, focus on Cancel', () => {
    renderConfirm();
    const dialog = screen.getByRole('alertdialog', { name: 'Excluir tenant' });
    expect(dialog).toHaveAccessibleDescription('O tenant acme será excluído.');
    expect(screen.getByRole('button', { name: ptBR.common.cancel })).toHaveFocus();
  });

  it('confirms with the keyboard and cancels with Escape', async () => {
    const { user, onConfirm, onOpenChange } = renderConfirm();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Excluir' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledOnce();
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('while pending shows progress and cannot be cancelled or dismissed', async () => {
    const { user, onConfirm, onOpenChange } = renderConfirm({ isPending: true });
    const confirm = screen.getByRole('button', { name: /Excluir/ });
    expect(confirm).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: ptBR.common.cancel })).toBeDisabled();
    await user.click(confirm);
    await user.keyboard('{Escape}');
    expect(onConfirm).not.toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('uses the translated default labels', () => {
    renderConfirm({ confirmLabel: undefined, variant: 'primary' });
    expect(screen.getByRole('button', { name: ptBR.common.confirm })).toBeInTheDocument();
  });
});
