// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import { deferred, json, type SeenRequest } from '../../../machines/test-support/fake-fetch';
import { appToasts } from '../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import { fakeTenantsApi, tenant, type FakeTenantsApi } from '../../test-support/fake-tenants-api';
import { FLOW_TIMEOUT_MS, keys } from '../../test-support/tenants-user-event';
import TenantsScreen from './tenants';

vi.setConfig({ testTimeout: FLOW_TIMEOUT_MS });
// The instances tab is another workspace's panel (tenant-panel.test.tsx covers its slot).
vi.mock('./instances/instances-slot', () => ({ InstancesSlot: () => null }));

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

function render(api: FakeTenantsApi, path = '/tenants') {
  view = renderWithServices(<TenantsScreen />, { path, signedIn: {}, respond: api.respond });
  return view;
}

const grid = () => screen.getByRole('grid', { name: 'Lista de empresas' });
const rowNames = () =>
  within(grid())
    .queryAllByRole('rowheader')
    .map((cell) => cell.textContent);
const pages = (requests: SeenRequest[]) =>
  requests.filter((r) => r.path === '/api/tenant/paginated').map((r) => r.body);

/** Seven tenants: ids 1..7, so the default sort (id DESC) lists 7, 6, 5, 4 first. */
const seven = () =>
  fakeTenantsApi([
    tenant(1, {
      name: 'farmacia-central',
      cnpj: '11.222.333/0001-81',
      plan: 'enterprise',
      users_count: 8,
      userLimit: 200,
      ticketLimit: 100_000,
    }),
    tenant(2, { name: 'drogaria-sul', cnpj: '45.723.174/0001-10' }),
    tenant(3, { name: 'botica-norte', plan: 'starter', users_count: 6, userLimit: 5 }),
    tenant(4, { name: 'farmacia-leste' }),
    tenant(5, { name: 'drogaria-oeste' }),
    tenant(6, { name: 'alfa-saude' }),
    tenant(7, { name: 'zeta-pharma' }),
  ]);

describe('TenantsScreen: states', () => {
  it('shows loading, then the first page of 4 with CNPJ, plan, users against the limit and dates', async () => {
    const api = seven();
    const gate = deferred<void>();
    api.override.set('POST /api/tenant/paginated', async () => {
      await gate.promise;
      api.override.delete('POST /api/tenant/paginated');
      return undefined;
    });
    const { requests } = render(api);
    expect(screen.getByRole('progressbar', { name: 'Carregando registros…' })).toBeInTheDocument();
    gate.resolve();
    await waitFor(() => expect(rowNames()).toEqual(['zeta-pharma', 'alfa-saude', 'drogaria-oeste', 'farmacia-leste']));
    expect(pages(requests)[0]).toEqual({
      filter_users: false,
      pagination_page: 1,
      pagination_limit: 4,
      search: '',
      sort_name: 'id',
      sort_type: 'DESC',
      only_deleted: false,
    });
    expect(screen.getByText('1–4 de 7')).toBeInTheDocument();
    await keys.click(screen.getByRole('button', { name: 'Página 2' }));
    const central = await screen.findByRole('row', { name: /farmacia-central/ });
    expect(within(central).getByText('11.222.333/0001-81')).toBeInTheDocument();
    expect(within(central).getByText('Empresarial')).toBeInTheDocument();
    expect(within(central).getByText('8 de 200')).toBeInTheDocument();
    expect(within(central).getByText('100.000')).toBeInTheDocument();
    expect(within(central).getByText('11/01/2026')).toBeInTheDocument();
    // Template and pool by their labels (docs/product.md, Glossary), never the raw slugs.
    expect(within(central).getByText('Farmácia')).toBeInTheDocument();
    expect(within(central).getByText('Grupo A')).toBeInTheDocument();
    expect(within(central).queryByText('farmacia')).toBeNull();
    expect(within(central).queryByText('pool-a')).toBeNull();
    const botica = screen.getByRole('row', { name: /botica-norte/ });
    expect(within(botica).getByText('Inicial')).toBeInTheDocument();
    expect(within(botica).getByText('6 de 5')).toBeInTheDocument();
    expect(within(botica).getByText('acima do limite')).toBeInTheDocument();
    expect(within(central).queryByText('acima do limite')).toBeNull();
  });

  it('asks for the feature options once: the filter and the bulk bar share them', async () => {
    const { requests } = render(seven());
    const featureReads = () => requests.filter((r) => r.method === 'GET' && r.path === '/api/tenant/feature');
    await waitFor(() => expect(rowNames()).toHaveLength(4));
    await waitFor(() => expect(featureReads()).not.toHaveLength(0));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(featureReads()).toHaveLength(1);
  });

  it('offers to create the first tenant when there is none, and says when nothing is deleted', async () => {
    render(fakeTenantsApi([]));
    expect(await screen.findByText('Nenhuma empresa cadastrada')).toBeInTheDocument();
    await keys.click(within(grid()).getByRole('button', { name: 'Nova empresa' }));
    expect(await screen.findByRole('dialog', { name: 'Nova empresa' })).toBeInTheDocument();
    await keys.click(screen.getByRole('button', { name: 'Cancelar' }));
    await keys.click(screen.getByRole('radio', { name: 'Excluídas' }));
    expect(await screen.findByText('Nenhuma empresa excluída')).toBeInTheDocument();
  });

  it('says why the list failed and retries', async () => {
    const api = seven();
    api.override.set('POST /api/tenant/paginated', () => json(503, { status: 'unavailable', message: 'down' }));
    render(api);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar as empresas.');
    expect(alert).toHaveTextContent('Serviço indisponível. Tente mais tarde.');
    api.override.clear();
    await keys.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    await waitFor(() => expect(rowNames()).toHaveLength(4));
  });
});

describe('TenantsScreen: the view lives in the address', () => {
  it('writes paging, page size, sort and search into the address (replacing it) and sends them', async () => {
    const api = seven();
    const { requests, location } = render(api);
    await waitFor(() => expect(rowNames()).toHaveLength(4));
    await keys.click(screen.getByRole('button', { name: 'Próxima página' }));
    await waitFor(() => expect(location()).toBe('/tenants?page=2'));
    await waitFor(() => expect(rowNames()).toEqual(['botica-norte', 'drogaria-sul', 'farmacia-central']));

    const pageSize = screen.getByRole('combobox', { name: 'Itens por página' });
    expect(pageSize).toHaveValue('4');
    await keys.selectOptions(pageSize, '10');
    await waitFor(() => expect(location()).toBe('/tenants?limit=10'));
    await waitFor(() => expect(rowNames()).toHaveLength(7));

    const name = within(grid()).getByRole('columnheader', { name: /Nome/ });
    await keys.click(name);
    await waitFor(() => expect(location()).toBe('/tenants?limit=10&sort=name'));
    await waitFor(() => expect(rowNames()[0]).toBe('alfa-saude'));
    expect(name).toHaveAttribute('aria-sort', 'ascending');
    await keys.click(name);
    await waitFor(() => expect(location()).toBe('/tenants?limit=10&sort=-name'));
    await waitFor(() => expect(rowNames()[0]).toBe('zeta-pharma'));
    expect(name).toHaveAttribute('aria-sort', 'descending');

    await keys.type(screen.getByRole('searchbox', { name: 'Buscar por nome ou CNPJ' }), 'farm');
    await waitFor(() => expect(location()).toBe('/tenants?limit=10&search=farm&sort=-name'));
    await waitFor(() => expect(rowNames()).toEqual(['farmacia-leste', 'farmacia-central']));
    // Debounced: one request for the four keystrokes, not four.
    expect(pages(requests).filter((body) => (body as { search: string }).search !== '')).toEqual([
      {
        filter_users: false,
        pagination_page: 1,
        pagination_limit: 10,
        search: 'farm',
        sort_name: 'name',
        sort_type: 'DESC',
        only_deleted: false,
      },
    ]);
  });

  it('finds a tenant by its CNPJ digits', async () => {
    const { location } = render(seven());
    await waitFor(() => expect(rowNames()).toHaveLength(4));
    await keys.type(screen.getByRole('searchbox', { name: 'Buscar por nome ou CNPJ' }), '45723');
    await waitFor(() => expect(rowNames()).toEqual(['drogaria-sul']));
    expect(location()).toBe('/tenants?search=45723');
  });

  it('restores the whole view from a link or a reload', async () => {
    const api = seven();
    api.tenants[0] = { ...api.tenants[0]!, deleted_at: '2026-02-01T12:00:00Z' };
    api.tenants[2] = { ...api.tenants[2]!, deleted_at: '2026-02-03T12:00:00Z' };
    api.tenants[3] = { ...api.tenants[3]!, deleted_at: '2026-02-04T12:00:00Z' };
    const { requests } = render(api, '/tenants?page=2&limit=2&sort=-name&view=deleted');
    await waitFor(() => expect(rowNames()).toEqual(['botica-norte']));
    expect(pages(requests)[0]).toEqual({
      filter_users: false,
      pagination_page: 2,
      pagination_limit: 2,
      search: '',
      sort_name: 'name',
      sort_type: 'DESC',
      only_deleted: true,
    });
    expect(screen.getByRole('radio', { name: 'Excluídas' })).toBeChecked();
    expect(within(grid()).getByRole('columnheader', { name: /Nome/ })).toHaveAttribute('aria-sort', 'descending');
    expect(within(grid()).getByRole('columnheader', { name: /Excluída em/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Página 2' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('3–3 de 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Restaurar botica-norte' })).toBeInTheDocument();
  });

  it('reloads when the window gets focus back, and with the reload button', async () => {
    const api = seven();
    const { requests } = render(api);
    await waitFor(() => expect(rowNames()).toHaveLength(4));
    api.tenants.push(tenant(8, { name: 'nova-farma' }));
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(rowNames()[0]).toBe('nova-farma'));
    api.tenants.push(tenant(9, { name: 'outra-farma' }));
    await keys.click(screen.getByRole('button', { name: 'Recarregar a lista de empresas' }));
    await waitFor(() => expect(rowNames()[0]).toBe('outra-farma'));
    expect(pages(requests)).toHaveLength(3);
  });
});
