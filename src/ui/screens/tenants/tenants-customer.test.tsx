// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { appToasts } from '../../components/toast-queue';
import { ADMIN_USER, renderWithServices, type RenderedApp } from '../../test-support/render';
import { fakeTenantsApi, tenant } from '../../test-support/fake-tenants-api';
import { FLOW_TIMEOUT_MS, keys } from '../../test-support/tenants-user-event';
import TenantsScreen from './tenants';

vi.setConfig({ testTimeout: FLOW_TIMEOUT_MS });
// The instances panel has its own tests (instances/instances-panel.customer.test.tsx).
vi.mock('./instances/instances-slot', () => ({ InstancesSlot: () => null }));

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

/** A customer's own administrador: every route, but not back-office staff. */
const CUSTOMER = { ...ADMIN_USER, id: 40, tenantName: 'farmacia-central', origin_backoffice: false };
const central = tenant(1, { name: 'farmacia-central', plan: 'professional', userLimit: 50, ticketLimit: 20_000 });

async function render() {
  const api = fakeTenantsApi([central]);
  api.features.set('farmacia-central', {
    analytics: false,
    campaigns: true,
    chat: true,
    chatbot: false,
    webhooks: false,
  });
  view = renderWithServices(<TenantsScreen />, {
    path: '/tenants',
    tenant: 'farmacia-central',
    signedIn: { user: CUSTOMER },
    respond: api.respond,
  });
  await screen.findByRole('row', { name: /farmacia-central/ });
  return view;
}

describe('TenantsScreen: a customer administrador reads its plan, limits and features', () => {
  it('shows the plan and limits with a note on who sets them, and no control the server refuses', async () => {
    await render();
    const row = screen.getByRole('row', { name: /farmacia-central/ });
    expect(within(row).getByText('Profissional')).toBeInTheDocument();
    expect(within(row).getByText('20.000')).toBeInTheDocument();
    expect(
      screen.getByText(
        'O plano, os limites e as funcionalidades da sua empresa são definidos pela equipe do provedor. Para mudá-los, fale com o suporte.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nova empresa' })).toBeNull();
    expect(screen.queryByRole('radiogroup')).toBeNull();
    await keys.click(within(row).getByRole('button', { name: 'Ações de farmacia-central' }));
    const items = within(await screen.findByRole('menu'))
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(items).toEqual(['Funcionalidades', 'Webhooks de campanha', 'Sincronizar análises', 'Instâncias']);
  });

  it('lists the features with their state in words, without a box to tick or a save', async () => {
    const { requests } = await render();
    await keys.click(screen.getByRole('button', { name: 'Ações de farmacia-central' }));
    await keys.click(await screen.findByRole('menuitem', { name: 'Funcionalidades' }));
    const dialog = await screen.findByRole('dialog', { name: 'Empresa farmacia-central' });
    const list = await within(dialog).findByRole('list', { name: 'Funcionalidades de farmacia-central' });
    const states = within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(states).toEqual(['AnálisesInativa', 'CampanhasAtiva', 'ChatAtiva', 'ChatbotInativa', 'WebhooksInativa']);
    expect(within(dialog).getByText(/ligadas e desligadas pela equipe do provedor/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Salvar alterações' })).toBeNull();
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/api/tenant/feature')).toEqual([]);
  });
});
