// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { appToasts } from '../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import { fakeTenantsApi, tenant, type FakeTenantsApi } from '../../test-support/fake-tenants-api';
import { FLOW_TIMEOUT_MS, keys } from '../../test-support/tenants-user-event';
import { json } from '../../../machines/test-support/fake-fetch';
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
    expect(appToasts.visibleToasts.map(({ content }) => content.title)).toContain('Dados da empresa salvos.');
    expect(await screen.findByRole('row', { name: /drogaria-norte/ })).toBeInTheDocument();
  });

  it("a stale save shows the other person's change beside the user's; reapply saves both with the new version", async () => {
    const api = fakeTenantsApi([tenant(1, { name: 'farmacia-central' }), tenant(2, { name: 'drogaria-sul' })]);
    // The server's version check (server/src/tenants/service.ts): an older version is refused 409 `stale`.
    api.override.set('POST /api/tenant/update', (request) => {
      const body = request.body as { id: number; version?: number };
      const found = api.tenants.find((t) => t.id === body.id);
      if (!found || body.version === undefined || body.version === found.version) return undefined;
      return json(409, {
        error: 'stale',
        message: 'changed since',
        field: 'version',
        version: found.version,
        changes: [
          {
            id: 70,
            at: '2026-11-28T10:00:00.000Z',
            actor_name: 'Outra Pessoa',
            actor_staff: true,
            operation: 'tenant.update',
            version: found.version,
            changes: [{ field: 'pool', before: '"pool-a"', after: '"pool-z"' }],
          },
        ],
      });
    });
    const { requests } = await render(api);
    const row = screen.getByRole('row', { name: /drogaria-sul/ });
    await keys.click(within(row).getByRole('button', { name: 'Ações de drogaria-sul' }));
    await keys.click(await screen.findByRole('menuitem', { name: 'Editar dados' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar dados de drogaria-sul' });
    // Someone else changes the pool meanwhile.
    Object.assign(api.tenants[1]!, { pool: 'pool-z', version: 2 });
    const template = within(dialog).getByRole('textbox', { name: /Modelo/ });
    await keys.clear(template);
    await keys.paste('clinica');
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar dados' }));
    const notice = await within(dialog).findByTestId('conflict-notice');
    expect(within(notice).getByRole('heading', { name: 'Este registro foi alterado em outro lugar' })).toHaveFocus();
    expect(notice).toHaveTextContent(/Outra Pessoa/);
    // The pool and the template by their labels (docs/product.md, Glossary), never the raw values.
    expect(notice).toHaveTextContent(/Grupo A→Grupo Z/);
    expect(notice).toHaveTextContent(/Farmácia→Clinica/);
    expect(notice).not.toHaveTextContent(/pool-z/);
    // No save is offered and the fields are held while the notice waits for a choice.
    expect(within(dialog).queryByRole('button', { name: 'Salvar dados' })).toBeNull();
    expect(template).toBeDisabled();
    await keys.click(within(notice).getByRole('button', { name: 'Reaplicar as minhas' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(updates(requests)).toEqual([
      expect.objectContaining({ id: 2, template: 'clinica', pool: 'pool-a', version: 1 }),
      expect.objectContaining({ id: 2, template: 'clinica', pool: 'pool-z', version: 2 }),
    ]);
    expect(api.tenants[1]).toMatchObject({ template: 'clinica', pool: 'pool-z' });
  });
});
