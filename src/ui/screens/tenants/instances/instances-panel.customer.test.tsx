// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { instance, instancesApi, TENANT } from '../../../../machines/test-support/instances-fixtures';
import { appToasts } from '../../../components/toast-queue';
import { ADMIN_USER, renderWithServices, type RenderedApp } from '../../../test-support/render';
import InstancesPanel from './instances-panel';
import { setupUser } from '../../../test-support/user-event';

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

const WHY = 'Só a equipe do provedor pode tornar uma instância oficial ou ilimitada.';

/** The tenant's own administrador (not back-office staff) on its instances. */
function render(state: Parameters<typeof instancesApi>[0]) {
  view = renderWithServices(<InstancesPanel tenantName={TENANT} />, {
    path: `/tenants?panel=instances&tenant=${TENANT}`,
    tenant: TENANT,
    signedIn: { user: { ...ADMIN_USER, id: 40, tenantName: TENANT, origin_backoffice: false } },
    respond: instancesApi(state),
  });
  const posts = (path: string) =>
    view!.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.body);
  return { posts };
}

describe('InstancesPanel: a customer administrador and the billing flags', () => {
  it('creates an instance with the flags shown off and disabled, saying who changes them', async () => {
    const user = setupUser();
    const { posts } = render({ instances: [instance(1)], connections: [] });
    await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' });
    await user.click(screen.getByRole('button', { name: 'Nova instância' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova instância' });
    for (const flag of ['Oficial (API oficial do WhatsApp)', 'Ilimitada (sem limite de mensagens)']) {
      const box = within(dialog).getByRole('checkbox', { name: flag });
      expect(box).toBeDisabled();
      expect(box).not.toBeChecked();
      expect(box).toHaveAccessibleDescription(WHY);
    }
    await user.type(within(dialog).getByRole('textbox', { name: /^Nome/ }), 'Loja Norte');
    await user.click(within(dialog).getByRole('button', { name: 'Criar instância' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts('/api/instance')).toEqual([
      { name: 'Loja Norte', isOfficial: false, isUnlimited: false, tenantName: TENANT },
    ]);
  });

  it("edits an official instance's name, its flags shown as they are and left alone", async () => {
    const user = setupUser();
    const { posts } = render({ instances: [instance(1, { isOfficial: true, isUnlimited: true })], connections: [] });
    await user.click(await screen.findByRole('button', { name: 'Editar WhatsApp Loja 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp Loja 1' });
    const official = within(dialog).getByRole('checkbox', { name: 'Oficial (API oficial do WhatsApp)' });
    expect(official).toBeChecked();
    expect(official).toBeDisabled();
    expect(within(dialog).getByText(WHY)).toBeInTheDocument();
    const name = within(dialog).getByRole('textbox', { name: /^Nome/ });
    await user.clear(name);
    await user.type(name, 'Balcão');
    await user.click(within(dialog).getByRole('button', { name: /Salvar/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts('/api/instance/update')).toEqual([{ id: 1, tenantName: TENANT, name: 'Balcão', version: 1 }]);
  });
});
