// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { MoreIcon } from '../screens/users/more-icon';
import { MenuButton } from './menu-button';
import type { MenuOption } from './menu';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

const items: MenuOption[] = [
  { id: 'rename', label: 'Renomear' },
  { id: 'block', label: 'Bloquear' },
  { id: 'delete', label: 'Excluir', isDanger: true },
];

describe('MenuButton', () => {
  it('opens from the keyboard on the first item, runs the choice and gives focus back', async () => {
    const onAction = vi.fn();
    const { user } = renderUi(
      <MenuButton
        label="Ações de Ana"
        icon={<MoreIcon />}
        items={() => items}
        onAction={onAction}
        pendingLabel="Carregando…"
      />,
    );
    const button = screen.getByRole('button', { name: 'Ações de Ana' });
    expect(button).toHaveAttribute('aria-haspopup', 'true');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.tab();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Ações de Ana' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', menu.id);
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Renomear' })).toHaveFocus());
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onAction).toHaveBeenCalledWith('block');
    expect(screen.queryByRole('menu')).toBeNull();
    await waitFor(() => expect(button).toHaveFocus());
  });

  it('runs the choice once the menu is gone and focus is back on the button (a dialog it opens returns focus there)', async () => {
    let focusedAtAction: Element | null = null;
    let menuAtAction: HTMLElement | null = document.body;
    const onAction = vi.fn(() => {
      focusedAtAction = document.activeElement;
      menuAtAction = screen.queryByRole('menu');
    });
    const { user } = renderUi(
      <MenuButton
        label="Ações de Ana"
        icon={<MoreIcon />}
        items={() => items}
        onAction={onAction}
        pendingLabel="Carregando…"
      />,
    );
    const button = screen.getByRole('button', { name: 'Ações de Ana' });
    await user.click(button);
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    await waitFor(() => expect(onAction).toHaveBeenCalledWith('delete'));
    expect(onAction).toHaveBeenCalledOnce();
    expect(menuAtAction).toBeNull();
    expect(focusedAtAction).toBe(button);
  });

  it('opens on the last item with ArrowUp, on a click with the mouse, and closes with Escape back on the button', async () => {
    const { user } = renderUi(
      <MenuButton
        label="Ações de Ana"
        icon={<MoreIcon />}
        items={() => items}
        onAction={() => undefined}
        pendingLabel="Carregando…"
      />,
    );
    const button = screen.getByRole('button', { name: 'Ações de Ana' });
    await user.tab();
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Excluir' })).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(button).toHaveFocus());
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    expect(await screen.findByRole('menu', { name: 'Ações de Ana' })).toBeInTheDocument();
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Renomear',
      'Bloquear',
      'Excluir',
    ]);
  });

  it('while pending: stays focusable, says so in its name and does not open; disabled: cannot be used', async () => {
    const { user, rerender } = renderUi(
      <MenuButton
        label="Ações de Ana"
        icon={<MoreIcon />}
        items={() => items}
        onAction={() => undefined}
        isPending
        pendingLabel="Carregando…"
      />,
    );
    const button = screen.getByRole('button', { name: 'Ações de Ana Carregando…' });
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).not.toBeDisabled();
    await user.tab();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.click(button);
    expect(screen.queryByRole('menu')).toBeNull();
    rerender(
      <MenuButton
        label="Ações de Ana"
        icon={<MoreIcon />}
        items={() => items}
        onAction={() => undefined}
        isDisabled
        pendingLabel="Carregando…"
      />,
    );
    expect(screen.getByRole('button', { name: 'Ações de Ana' })).toBeDisabled();
  });
});
