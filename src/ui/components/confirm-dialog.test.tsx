// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import axe from 'axe-core';
import { useState } from 'react';
import ptBR from '../../i18n/pt-BR.json';
import type { ConfirmDialogProps } from './confirm-dialog';
import { ConfirmDialog } from './confirm-dialog';
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

/** A button that opens the dialog, so focus has somewhere to return. */
function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Excluir acme
      </button>
      <ConfirmDialog
        isOpen={open}
        onOpenChange={setOpen}
        onConfirm={() => setOpen(false)}
        title="Excluir tenant"
        message="O tenant acme será excluído."
      />
    </>
  );
}

describe('ConfirmDialog', () => {
  it('renders nothing while closed', () => {
    renderConfirm({ isOpen: false });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('is an alertdialog with title and message, focus on Cancel, no axe violations', async () => {
    renderConfirm();
    const dialog = screen.getByRole('alertdialog', { name: 'Excluir tenant' });
    expect(dialog).toHaveAccessibleDescription('O tenant acme será excluído.');
    expect(screen.getByRole('button', { name: ptBR.common.cancel })).toHaveFocus();
    const result = await axe.run(document.body, {
      rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
    });
    expect(result.violations.map((v) => v.id)).toEqual([]);
  });

  it('confirms with the keyboard and cancels with Escape', async () => {
    const { user, onConfirm, onOpenChange } = renderConfirm();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Excluir' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onOpenChange).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('Cancel closes it', async () => {
    const { user, onOpenChange, onConfirm } = renderConfirm();
    await user.click(screen.getByRole('button', { name: ptBR.common.cancel }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('while pending shows progress and cannot be cancelled or dismissed', async () => {
    const { user, onConfirm, onOpenChange } = renderConfirm({ isPending: true });
    const confirm = screen.getByRole('button', { name: /Excluir/ });
    expect(confirm).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('progressbar', { name: ptBR.common.loading })).toBeInTheDocument();
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

  it('returns focus to the button that opened it', async () => {
    const { user } = renderUi(<Opener />);
    const opener = screen.getByRole('button', { name: 'Excluir acme' });
    await user.click(opener);
    expect(screen.getByRole('button', { name: ptBR.common.cancel })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(opener).toHaveFocus();
  });
});
