// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { MenuTriggerButton, type MenuOption } from './menu';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

const items: MenuOption[] = [
  { id: 'profile', label: 'Perfil', href: '/user-settings' },
  { id: 'preferences', label: 'Preferências' },
  { id: 'off', label: 'Indisponível', isDisabled: true },
  { id: 'logout', label: 'Sair', isDanger: true },
];

function setup(onAction = vi.fn()) {
  const location = memoryLocation({ path: '/', record: true });
  const view = renderUi(
    <Router hook={location.hook} base="/acme">
      <MenuTriggerButton
        variant="ghost"
        aria-label="Menu do usuário: Ana"
        items={items}
        menuLabel="Menu do usuário"
        onAction={onAction}
      >
        Ana
      </MenuTriggerButton>
      <button type="button">depois</button>
    </Router>,
  );
  return { ...view, location, onAction, button: screen.getByRole('button', { name: 'Menu do usuário: Ana' }) };
}

describe('MenuTriggerButton', () => {
  it('opens from the keyboard on the first item, moves with arrows, Home/End and type-ahead, runs the choice and gives focus back', async () => {
    const { user, button, onAction } = setup();
    expect(button).toHaveAttribute('aria-haspopup', 'true');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).not.toHaveAttribute('aria-controls');
    await user.tab();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Menu do usuário' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', menu.id);
    // The popup around the menu is a dialog named by the button, as React Aria's was.
    expect(screen.getByRole('dialog', { name: 'Menu do usuário: Ana' })).toContainElement(menu);
    expect(screen.getByRole('menuitem', { name: 'Perfil' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Preferências' })).toHaveFocus();
    // The disabled item is skipped, and the end wraps to the start.
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Sair' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Perfil' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Sair' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('menuitem', { name: 'Perfil' })).toHaveFocus();
    await user.keyboard('pr');
    expect(screen.getByRole('menuitem', { name: 'Preferências' })).toHaveFocus();
    expect(screen.getByRole('menuitem', { name: 'Indisponível' })).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Enter}');
    expect(onAction).toHaveBeenCalledWith('preferences');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens on the last item with ArrowUp; Escape and Tab close it with focus back on the button; Space chooses', async () => {
    const { user, button, onAction } = setup();
    await user.tab();
    await user.keyboard('{ArrowUp}');
    expect(await screen.findByRole('menuitem', { name: 'Sair' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('menuitem', { name: 'Perfil' })).toHaveFocus();
    await user.keyboard('{Tab}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(onAction).not.toHaveBeenCalled();
    await user.keyboard('{ArrowUp}');
    await user.keyboard(' ');
    expect(onAction).toHaveBeenCalledWith('logout');
  });

  it('opens on a click; a click on an item runs it, a click on the backdrop closes; a link item navigates client-side with the real address', async () => {
    const { user, button, onAction, location } = setup();
    await user.click(button);
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Perfil',
      'Preferências',
      'Indisponível',
      'Sair',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Indisponível' }));
    expect(onAction).not.toHaveBeenCalled();
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Sair' }));
    expect(onAction).toHaveBeenCalledWith('logout');
    expect(screen.queryByRole('menu')).toBeNull();

    await user.click(button);
    const dialog = screen.getByRole('dialog');
    // The backdrop of a modal <dialog> is the dialog element itself, hit outside its box.
    fireEvent.pointerDown(dialog, { clientX: 4000, clientY: 4000 });
    fireEvent.click(dialog, { clientX: 4000, clientY: 4000 });
    expect(screen.queryByRole('menu')).toBeNull();

    await user.click(button);
    const profile = screen.getByRole('menuitem', { name: 'Perfil' });
    expect(profile).toHaveAttribute('href', '/acme/user-settings');
    await user.click(profile);
    expect(location.history.at(-1)).toBe('/acme/user-settings');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });
});

const userItems: MenuOption[] = [
  { id: 'profile', label: 'Perfil' },
  { id: 'settings', label: 'Configurações' },
  { id: 'logout', label: 'Sair', isDanger: true },
];

describe('MenuTriggerButton, without links', () => {
  it('opens from the keyboard, moves with arrows and runs the chosen action', async () => {
    const onAction = vi.fn();
    const { user } = renderUi(
      <MenuTriggerButton aria-label="Menu do usuário" menuLabel="Menu do usuário" items={userItems} onAction={onAction}>
        Ana
      </MenuTriggerButton>,
    );
    const trigger = screen.getByRole('button', { name: 'Menu do usuário' });
    expect(trigger).toHaveAttribute('aria-haspopup', 'true');
    await user.tab();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('menu')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Perfil' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(onAction.mock.calls[0]?.[0]).toBe('logout');
    expect(screen.queryByRole('menu')).toBeNull();
    await waitFor(() => expect(trigger).toHaveFocus());
  });

  it('closes with Escape and skips disabled items', async () => {
    const onAction = vi.fn();
    const { user } = renderUi(
      <MenuTriggerButton
        menuLabel="Ações"
        items={[
          { id: 'a', label: 'A', isDisabled: true },
          { id: 'b', label: 'B' },
        ]}
        onAction={onAction}
      >
        Ações
      </MenuTriggerButton>,
    );
    await user.click(screen.getByRole('button', { name: 'Ações' }));
    expect(screen.getByRole('menuitem', { name: 'A' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('menuitem', { name: 'A' }));
    expect(onAction).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('keeps the focus in the open menu when the item holding it leaves (the items follow the width)', async () => {
    const wide: MenuOption[] = [
      { id: 'block', label: 'Bloquear' },
      { id: 'delete', label: 'Excluir' },
    ];
    const narrow: MenuOption[] = [{ id: 'edit', label: 'Editar' }, ...wide];
    const Subject = ({ options }: { options: MenuOption[] }) => (
      <MenuTriggerButton menuLabel="Ações" items={options}>
        Ações
      </MenuTriggerButton>
    );
    const { user, rerender } = renderUi(<Subject options={narrow} />);
    await user.click(screen.getByRole('button', { name: 'Ações' }));
    // The pointer entered "Editar", which took the focus; then the screen widened and it left the menu.
    fireEvent.pointerEnter(screen.getByRole('menuitem', { name: 'Editar' }));
    expect(screen.getByRole('menuitem', { name: 'Editar' })).toHaveFocus();
    rerender(<Subject options={wide} />);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Bloquear' })).toHaveFocus();
  });
});
