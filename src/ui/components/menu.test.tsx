// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { Button, IconButton } from './button';
import { CheckIcon } from './icons';
import { Menu, MenuTrigger, type MenuOption } from './menu';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

const userItems: MenuOption[] = [
  { id: 'profile', label: 'Perfil' },
  { id: 'settings', label: 'Configurações' },
  { id: 'logout', label: 'Sair', isDanger: true },
];
const languages: MenuOption[] = [
  { id: 'pt-BR', label: 'Português (Brasil)' },
  { id: 'pt', label: 'Português (Portugal)' },
  { id: 'en', label: 'English' },
];

describe('Menu', () => {
  it('opens from the keyboard, moves with arrows and runs the chosen action', async () => {
    const onAction = vi.fn();
    const { user } = renderUi(
      <MenuTrigger>
        <IconButton label="Menu do usuário" icon={<CheckIcon />} />
        <Menu items={userItems} onAction={onAction} />
      </MenuTrigger>,
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

  it('as a single-selection menu marks the current language with menuitemradio', async () => {
    const onSelectionChange = vi.fn();
    const { user } = renderUi(
      <MenuTrigger>
        <Button variant="ghost">Idioma</Button>
        <Menu items={languages} selectionMode="single" selectedKeys={['pt-BR']} onSelectionChange={onSelectionChange} />
      </MenuTrigger>,
    );
    await user.click(screen.getByRole('button', { name: 'Idioma' }));
    expect(screen.getByRole('menuitemradio', { name: 'Português (Brasil)' })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('menuitemradio', { name: 'English' }));
    const [selection] = onSelectionChange.mock.calls.at(-1) as [Set<string>];
    expect([...selection]).toEqual(['en']);
  });

  it('closes with Escape and skips disabled items', async () => {
    const onAction = vi.fn();
    const { user } = renderUi(
      <MenuTrigger>
        <Button>Ações</Button>
        <Menu
          items={[
            { id: 'a', label: 'A', isDisabled: true },
            { id: 'b', label: 'B' },
          ]}
          onAction={onAction}
        />
      </MenuTrigger>,
    );
    await user.click(screen.getByRole('button', { name: 'Ações' }));
    expect(screen.getByRole('menuitem', { name: 'A' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('menuitem', { name: 'A' }));
    expect(onAction).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
