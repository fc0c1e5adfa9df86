// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { NativeModal } from './native-overlay';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

function Harness({
  isDismissable,
  isKeyboardDismissDisabled,
}: {
  isDismissable?: boolean;
  isKeyboardDismissDisabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Abrir
      </button>
      <NativeModal
        title="Preferências"
        isOpen={open}
        onOpenChange={setOpen}
        isDismissable={isDismissable}
        isKeyboardDismissDisabled={isKeyboardDismissDisabled}
        footer={(close) => (
          <button type="button" onClick={close}>
            Cancelar
          </button>
        )}
      >
        {() => <input aria-label="Nome" />}
      </NativeModal>
    </>
  );
}

describe('NativeModal', () => {
  it('is a <dialog> named by its title, takes focus, closes with Escape and gives focus back to the opener', async () => {
    const { user } = renderUi(<Harness />);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Abrir' }));
    const dialog = screen.getByRole('dialog', { name: 'Preferências' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog).toHaveAttribute('open');
    expect(dialog).toHaveFocus();
    expect(screen.getByRole('heading', { name: 'Preferências' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Abrir' })).toHaveFocus();
  });

  it('closes from its named close button, from the footer and from a click on the backdrop, not from a click inside', async () => {
    const { user } = renderUi(<Harness />);
    const opener = screen.getByRole('button', { name: 'Abrir' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Fechar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(opener);
    await user.click(screen.getByRole('textbox', { name: 'Nome' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    const dialog = screen.getByRole('dialog');
    fireEvent.pointerDown(dialog, { clientX: 4000, clientY: 10 });
    fireEvent.click(dialog, { clientX: 4000, clientY: 10 });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stays open on Escape or an outside click when told so', async () => {
    const { user } = renderUi(<Harness isDismissable={false} isKeyboardDismissDisabled />);
    await user.click(screen.getByRole('button', { name: 'Abrir' }));
    await user.keyboard('{Escape}');
    const dialog = screen.getByRole('dialog');
    fireEvent.pointerDown(dialog, { clientX: 4000, clientY: 10 });
    fireEvent.click(dialog, { clientX: 4000, clientY: 10 });
    expect(screen.getByRole('dialog', { name: 'Preferências' })).toBeInTheDocument();
  });
});
