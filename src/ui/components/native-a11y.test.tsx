// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import axe from 'axe-core';
import { ComboBox } from './combo-box';
import { MenuTriggerButton } from './menu';
import { Modal } from './dialog';
import { RadioGroup } from './radio-group';
import { Switch } from './switch';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

/** axe-core as a11y.test.tsx runs it: no colours or landmarks in jsdom. */
async function violations(): Promise<string[]> {
  const result = await axe.run(document.body, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const tenants = [
  { id: 'backoffice', label: 'backoffice' },
  { id: 'farmacia-central', label: 'farmacia-central' },
];

describe("axe-core over the shell's native controls (jsdom)", () => {
  it('an open native menu has no violations', async () => {
    const { user } = renderUi(
      <MenuTriggerButton
        variant="ghost"
        aria-label="Menu do usuário: Ana"
        menuLabel="Menu do usuário"
        items={[
          { id: 'profile', label: 'Perfil', href: '/user-settings' },
          { id: 'logout', label: 'Sair', isDanger: true },
        ]}
      >
        Ana
      </MenuTriggerButton>,
    );
    await user.click(screen.getByRole('button', { name: 'Menu do usuário: Ana' }));
    expect(screen.getByRole('menu', { name: 'Menu do usuário' })).toBeInTheDocument();
    expect(await violations()).toEqual([]);
  });

  it('an open native modal with radios and a switch has no violations', async () => {
    renderUi(
      <Modal title="Preferências" isOpen onOpenChange={() => undefined} size="sm">
        <RadioGroup
          label="Tema"
          value="light"
          onChange={() => undefined}
          options={[
            { value: 'light', label: 'Claro' },
            { value: 'dark', label: 'Escuro' },
          ]}
        />
        <Switch isSelected={false} onChange={() => undefined} isDisabled>
          Menu recolhido
        </Switch>
      </Modal>,
    );
    expect(screen.getByRole('dialog', { name: 'Preferências' })).toBeInTheDocument();
    expect(await violations()).toEqual([]);
  });

  it('a native combo box, open with options and with no result, has no violations', async () => {
    const { user } = renderUi(
      <ComboBox
        label="Tenant"
        labelHidden
        items={tenants}
        selectedKey="backoffice"
        onSelectionChange={() => undefined}
      />,
    );
    expect(await violations()).toEqual([]);
    await user.click(screen.getByRole('combobox', { name: 'Tenant' }));
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('listbox', { name: 'Tenant' })).toBeInTheDocument();
    expect(await violations()).toEqual([]);
    await user.type(screen.getByRole('combobox'), 'zzz');
    expect(screen.getByText('Nenhum resultado encontrado')).toBeInTheDocument();
    expect(await violations()).toEqual([]);
  });
});
