// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { json } from '../../../machines/test-support/fake-fetch';
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

async function render(api: FakeTenantsApi, path = '/tenants') {
  view = renderWithServices(<TenantsScreen />, { path, signedIn: {}, respond: api.respond });
  await screen.findByRole('row', { name: new RegExp(api.tenants.at(-1)?.name ?? '') });
  return view;
}

const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
const toasts = () =>
  appToasts.visibleToasts.map(({ content }) => [content.variant, content.title, content.description]);
const posts = (requests: RenderedApp['requests'], path: string) =>
  requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.body);

/** Types into a plain field in one go (the CNPJ mask is typed key by key where it matters). */
async function fill(field: HTMLElement, text: string) {
  await keys.click(field);
  await keys.paste(text);
}

/** Opens the row's menu and picks an item. */
async function pick(name: string, item: string) {
  await keys.click(within(row(name)).getByRole('button', { name: `Ações de ${name}` }));
  await keys.click(await screen.findByRole('menuitem', { name: item }));
}

const central = tenant(1, { name: 'farmacia-central', plan: 'professional', userLimit: 25, ticketLimit: 10_000 });
const sul = tenant(2, { name: 'drogaria-sul' });

describe('TenantsScreen: create', () => {
  it('refuses a CNPJ with wrong check digits on its field, then creates with a good one', async () => {
    const api = fakeTenantsApi([central]);
    const { requests } = await render(api);
    await keys.click(screen.getByRole('button', { name: 'Nova empresa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova empresa' });
    await within(dialog).findByRole('checkbox', { name: 'Chatbot' });
    await fill(within(dialog).getByRole('textbox', { name: /Nome/ }), 'farmacia-do-povo');
    const cnpj = within(dialog).getByRole('textbox', { name: /CNPJ/ });
    await keys.type(cnpj, '11222333000182');
    // The mask is applied while typing, and the check digits are verified at the 14th digit.
    expect(cnpj).toHaveValue('11.222.333/0001-82');
    expect(cnpj).toHaveAccessibleDescription(
      /CNPJ inválido: os dígitos verificadores \(os 2 últimos\) não conferem com os 12 primeiros caracteres\./,
    );
    await fill(within(dialog).getByRole('textbox', { name: /Modelo/ }), 'farmacia');
    await fill(within(dialog).getByRole('textbox', { name: /Grupo de servidores/ }), 'pool-a');
    await keys.click(within(dialog).getByRole('checkbox', { name: 'Chatbot' }));
    await keys.click(within(dialog).getByRole('button', { name: 'Criar empresa' }));
    expect(cnpj).toHaveAttribute('aria-invalid', 'true');
    expect(cnpj).toHaveFocus();
    expect(posts(requests, '/api/tenant')).toEqual([]);

    await keys.clear(cnpj);
    await keys.paste('11222333000181');
    expect(cnpj).not.toHaveAttribute('aria-invalid');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar empresa' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(requests, '/api/tenant')).toEqual([
      {
        name: 'farmacia-do-povo',
        cnpj: '11.222.333/0001-81',
        features: ['chatbot'],
        template: 'farmacia',
        pool: 'pool-a',
        plan: 'starter',
        userLimit: 5,
        ticketLimit: 1000,
      },
    ]);
    expect(toasts()).toContainEqual(['success', 'Empresa criada.', 'farmacia-do-povo']);
    expect(await screen.findByRole('row', { name: /farmacia-do-povo/ })).toBeInTheDocument();
  });

  it('takes an alphanumeric CNPJ typed in lower case without punctuation: upper-cased and masked as typed', async () => {
    const api = fakeTenantsApi([central]);
    const { requests } = await render(api);
    await keys.click(screen.getByRole('button', { name: 'Nova empresa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova empresa' });
    await within(dialog).findByRole('checkbox', { name: 'Chatbot' });
    const cnpj = within(dialog).getByRole('textbox', { name: /CNPJ/ });
    expect(cnpj).toHaveAttribute('placeholder', 'Ex.: 12.ABC.345/01DE-35');
    expect(cnpj).toHaveAccessibleDescription(/12 letras ou números e 2 dígitos verificadores/);
    await keys.type(cnpj, '12abc');
    expect(cnpj).toHaveValue('12.ABC');
    // A letter where a check digit goes is not taken.
    await keys.type(cnpj, '34501dex');
    expect(cnpj).toHaveValue('12.ABC.345/01DE');
    await keys.type(cnpj, '35');
    expect(cnpj).toHaveValue('12.ABC.345/01DE-35');
    expect(cnpj).not.toHaveAttribute('aria-invalid');
    await fill(within(dialog).getByRole('textbox', { name: /Nome/ }), 'drogaria-nova');
    await fill(within(dialog).getByRole('textbox', { name: /Modelo/ }), 'farmacia');
    await fill(within(dialog).getByRole('textbox', { name: /Grupo de servidores/ }), 'pool-a');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar empresa' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(requests, '/api/tenant')).toEqual([
      {
        name: 'drogaria-nova',
        cnpj: '12.ABC.345/01DE-35',
        features: [],
        template: 'farmacia',
        pool: 'pool-a',
        plan: 'starter',
        userLimit: 5,
        ticketLimit: 1000,
      },
    ]);
    expect(
      within(await screen.findByRole('row', { name: /drogaria-nova/ })).getByText('12.ABC.345/01DE-35'),
    ).toBeInTheDocument();
  });

  it.each([
    ['12abc34501de', /CNPJ incompleto: são 14 caracteres, 12 letras ou números e 2 dígitos verificadores\./],
    ['aaaaaaaaaaaa45', /CNPJ inválido: os 12 primeiros caracteres não podem ser todos iguais\./],
    ['12abc34501de53', /CNPJ inválido: os dígitos verificadores \(os 2 últimos\) não conferem/],
  ])('says what is wrong with the CNPJ %j', async (typed, message) => {
    const api = fakeTenantsApi([central]);
    const { requests } = await render(api);
    await keys.click(screen.getByRole('button', { name: 'Nova empresa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova empresa' });
    await fill(within(dialog).getByRole('textbox', { name: /Nome/ }), 'drogaria-nova');
    await fill(within(dialog).getByRole('textbox', { name: /Modelo/ }), 'farmacia');
    await fill(within(dialog).getByRole('textbox', { name: /Grupo de servidores/ }), 'pool-a');
    const cnpj = within(dialog).getByRole('textbox', { name: /CNPJ/ });
    await fill(cnpj, typed);
    await keys.click(within(dialog).getByRole('button', { name: 'Criar empresa' }));
    expect(cnpj).toHaveAttribute('aria-invalid', 'true');
    expect(cnpj).toHaveAccessibleDescription(message);
    expect(posts(requests, '/api/tenant')).toEqual([]);
  });

  it('shows the server refusals on their fields and keeps what was typed', async () => {
    const api = fakeTenantsApi([central]);
    await render(api);
    await keys.click(screen.getByRole('button', { name: 'Nova empresa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova empresa' });
    const name = within(dialog).getByRole('textbox', { name: /Nome/ });
    await fill(name, 'farmacia-central');
    await fill(within(dialog).getByRole('textbox', { name: /CNPJ/ }), '11222333000181');
    await fill(within(dialog).getByRole('textbox', { name: /Modelo/ }), 'farmacia');
    await fill(within(dialog).getByRole('textbox', { name: /Grupo de servidores/ }), 'pool-a');
    // Picking a plan suggests its limits.
    await keys.click(within(dialog).getByRole('button', { name: /Plano/ }));
    await keys.click(await screen.findByRole('option', { name: 'Empresarial' }));
    expect(within(dialog).getByRole('textbox', { name: /Limite de usuários/ })).toHaveValue('200');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar empresa' }));
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(/Já está em uso\./);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Não foi possível criar a empresa. A alteração conflita com o estado atual',
    );
    expect(name).toHaveFocus();
    expect(name).toHaveValue('farmacia-central');
  });

  it('says which fields are missing or malformed before any call', async () => {
    const api = fakeTenantsApi([central]);
    const { requests } = await render(api);
    await keys.click(screen.getByRole('button', { name: 'Nova empresa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova empresa' });
    await fill(within(dialog).getByRole('textbox', { name: /Nome/ }), 'Farmácia X');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar empresa' }));
    expect(within(dialog).getByRole('textbox', { name: /Nome/ })).toHaveAccessibleDescription(
      /Use até 63 letras minúsculas/,
    );
    expect(within(dialog).getByRole('textbox', { name: /CNPJ/ })).toHaveAccessibleDescription(/Preencha este campo\./);
    expect(within(dialog).getByRole('textbox', { name: /Grupo de servidores/ })).toHaveAccessibleDescription(
      /Preencha este campo\./,
    );
    expect(posts(requests, '/api/tenant')).toEqual([]);
  });
});

describe('TenantsScreen: delete, restore and plan', () => {
  it('deletes after confirmation, lists it among the deleted, and restores it', async () => {
    const api = fakeTenantsApi([central, sul]);
    const { requests, location } = await render(api);
    await pick('farmacia-central', 'Excluir');
    const confirm = await screen.findByRole('alertdialog', { name: 'Excluir empresa' });
    expect(confirm).toHaveTextContent('Excluir a empresa farmacia-central? Ela poderá ser restaurada depois.');
    expect(within(confirm).getByRole('button', { name: 'Cancelar' })).toHaveFocus();
    // Cancel first: nothing is sent, and focus is back on the row's menu button.
    await keys.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(posts(requests, '/api/tenant/delete')).toEqual([]);
    expect(within(row('farmacia-central')).getByRole('button', { name: 'Ações de farmacia-central' })).toHaveFocus();

    await pick('farmacia-central', 'Excluir');
    await keys.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /farmacia-central/ })).toBeNull());
    expect(posts(requests, '/api/tenant/delete')).toEqual([{ id: 1 }]);
    expect(toasts()).toContainEqual(['success', 'Empresa excluída.', 'farmacia-central']);

    await keys.click(screen.getByRole('radio', { name: 'Excluídas' }));
    await waitFor(() => expect(location()).toBe('/tenants?view=deleted'));
    const deleted = await screen.findByRole('row', { name: /farmacia-central/ });
    expect(within(deleted).getByText('02/03/2026')).toBeInTheDocument();
    await keys.click(within(deleted).getByRole('button', { name: 'Restaurar farmacia-central' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /farmacia-central/ })).toBeNull());
    expect(posts(requests, '/api/tenant/restore')).toEqual([{ id: 1 }]);
    expect(toasts()).toContainEqual(['success', 'Empresa restaurada.', 'farmacia-central']);
    expect(await screen.findByText('Nenhuma empresa excluída')).toBeInTheDocument();
  });

  it('says why a delete was refused', async () => {
    const api = fakeTenantsApi([central, sul]);
    api.override.set('POST /api/tenant/delete', () => json(409, { message: 'You cannot delete your own tenant' }));
    await render(api);
    await pick('drogaria-sul', 'Excluir');
    await keys.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Excluir' }));
    await waitFor(() =>
      expect(toasts()).toContainEqual([
        'error',
        'Não foi possível excluir a empresa.',
        'drogaria-sul: A alteração conflita com o estado atual (duplicado ou já alterado).',
      ]),
    );
    expect(row('drogaria-sul')).toBeInTheDocument();
  });

  it('sets the plan, user limit and ticket limit', async () => {
    const api = fakeTenantsApi([central]);
    const { requests } = await render(api);
    await pick('farmacia-central', 'Alterar plano');
    const dialog = await screen.findByRole('dialog', { name: 'Alterar plano de farmacia-central' });
    const users = within(dialog).getByRole('textbox', { name: /Limite de usuários/ });
    expect(users).toHaveValue('25');
    await keys.clear(users);
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar plano' }));
    expect(users).toHaveAccessibleDescription(/Preencha este campo\./);
    expect(posts(requests, '/api/tenant/set-plan')).toEqual([]);
    await keys.type(users, '40');
    const tickets = within(dialog).getByRole('textbox', { name: /Limite de tickets/ });
    await keys.clear(tickets);
    await keys.type(tickets, '20000');
    await keys.click(within(dialog).getByRole('button', { name: /Plano/ }));
    await keys.click(await screen.findByRole('option', { name: 'Empresarial' }));
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar plano' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(requests, '/api/tenant/set-plan')).toEqual([{ id: 1, plan: 'enterprise', user: 40, ticket: 20_000 }]);
    expect(toasts()).toContainEqual(['success', 'Plano alterado.', 'farmacia-central']);
    const updated = await screen.findByRole('row', { name: /farmacia-central/ });
    await waitFor(() => expect(within(updated).getByText('Empresarial')).toBeInTheDocument());
    expect(within(updated).getByText('3 de 40')).toBeInTheDocument();
  });
});
