// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { appToasts } from '../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import { fakeTenantsApi, tenant, type FakeTenantsApi } from '../../test-support/fake-tenants-api';
import { FLOW_TIMEOUT_MS, keys } from '../../test-support/tenants-user-event';
import TenantsScreen from './tenants';

vi.setConfig({ testTimeout: FLOW_TIMEOUT_MS });
vi.mock('./instances/instances-slot', () => ({ InstancesSlot: () => null }));

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

async function render(api: FakeTenantsApi) {
  view = renderWithServices(<TenantsScreen />, { path: '/tenants', signedIn: {}, respond: api.respond });
  await screen.findByRole('row', { name: new RegExp(api.tenants.at(-1)?.name ?? '') });
  return view;
}

const updates = (requests: RenderedApp['requests']) =>
  requests.filter((r) => r.method === 'POST' && r.path === '/api/tenant/update').map((r) => r.body);

describe('TenantsScreen: edit', () => {
  it("starts from the tenant's values, refuses a bad CNPJ and a taken name on their fields, then saves", async () => {
    const api = fakeTenantsApi([tenant(1, { name: 'farmacia-central' }), tenant(2, { name: 'drogaria-sul' })]);
    const { requests } = await render(api);
    const row = screen.getByRole('row', { name: /drogaria-sul/ });
    await keys.click(within(row).getByRole('button', { name: 'Ações de drogaria-sul' }));
    await keys.click(await screen.findByRole('menuitem', { name: 'Editar dados' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar dados de drogaria-sul' });
    const name = within(dialog).getByRole('textbox', { name: /Nome/ });
    const cnpj = within(dialog).getByRole('textbox', { name: /CNPJ/ });
    expect(name).toHaveValue('drogaria-sul');
    expect(name).toHaveFocus();
    expect(cnpj).toHaveValue('11.222.333/0001-81');

    await keys.clear(cnpj);
    await keys.type(cnpj, '11222333000182');
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar dados' }));
    expect(cnpj).toHaveAttribute('aria-invalid', 'true');
    expect(cnpj).toHaveAccessibleDescription(/os dígitos verificadores \(os 2 últimos\) não conferem/);
    expect(updates(requests)).toEqual([]);

    await keys.clear(cnpj);
    await keys.paste('12abc34501de35');
    await keys.clear(name);
    await keys.paste('farmacia-central');
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar dados' }));
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(/Já está em uso/);
    expect(api.tenants.map((t) => t.name)).toEqual(['farmacia-central', 'drogaria-sul']);

    await keys.clear(name);
    await keys.paste('drogaria-norte');
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar dados' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(updates(requests).at(-1)).toEqual({
      id: 2,
      name: 'drogaria-norte',
      cnpj: '12.ABC.345/01DE-35',
      template: 'farmacia',
      pool: 'pool-a',
      // The version the form loaded (docs/lists.md, Versions).
      version: 1,
    });
    expect(appToasts.visibleToasts.map(({ content }) => content.title)).toContain('Dados do tenant salvos.');
    expect(await screen.findByRole('row', { name: /drogaria-norte/ })).toBeInTheDocument();
  });
});
