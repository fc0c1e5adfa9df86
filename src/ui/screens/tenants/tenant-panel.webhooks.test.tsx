// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { json } from '../../../machines/test-support/fake-fetch';
import { appToasts } from '../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import {
  FAKE_SECRET,
  fakeTenantsApi,
  tenant,
  webhookEndpoint,
  type FakeTenantsApi,
} from '../../test-support/fake-tenants-api';
import { FLOW_TIMEOUT_MS, keys } from '../../test-support/tenants-user-event';
import TenantsScreen from './tenants';

vi.setConfig({ testTimeout: FLOW_TIMEOUT_MS });
vi.mock('./instances/instances-slot', () => ({
  InstancesSlot: ({ tenantName }: { tenantName: string }) => <p>instâncias de {tenantName}</p>,
}));

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

const central = tenant(1, { name: 'farmacia-central' });

async function openWebhooks(api: FakeTenantsApi) {
  view = renderWithServices(<TenantsScreen />, {
    path: '/tenants?panel=webhooks&tenant=farmacia-central',
    signedIn: {},
    respond: api.respond,
  });
  const dialog = await screen.findByRole('dialog', { name: 'Empresa farmacia-central' });
  await within(dialog).findByRole('heading', { name: 'Endpoints' });
  return dialog;
}

const formDialog = () => screen.findByRole('dialog', { name: /Adicionar endpoint|Editar endpoint/ });

async function fillForm(url: string, types: string[]) {
  const form = await formDialog();
  const field = within(form).getByRole('textbox', { name: /Endereço \(URL\)/ });
  await keys.clear(field);
  await keys.type(field, url);
  for (const type of types) await keys.click(within(form).getByRole('checkbox', { name: type }));
  return form;
}

describe('TenantPanel: webhook endpoints', () => {
  it('adds an endpoint: checks before sending, words every refusal beside its field, then shows the secret once', async () => {
    const api = fakeTenantsApi([central]);
    api.webhooks.endpoints = [webhookEndpoint(1, { url: 'https://erp.farmacia-central.com.br/taken' })];
    const dialog = await openWebhooks(api);
    await keys.click(within(dialog).getByRole('button', { name: 'Adicionar endpoint' }));
    let form = await formDialog();
    await keys.click(within(form).getByRole('button', { name: 'Adicionar' }));
    expect(within(form).getByText('Informe o endereço.')).toBeInTheDocument();
    expect(within(form).getByText('Selecione ao menos um tipo.')).toBeInTheDocument();
    expect(view!.requests.filter((r) => r.path === '/api/webhooks/endpoints' && r.method === 'POST')).toHaveLength(0);

    form = await fillForm('erp sem esquema', ['Enviada']);
    await keys.click(within(form).getByRole('button', { name: 'Adicionar' }));
    expect(
      within(form).getByText('Informe um endereço completo, sem usuário, senha ou fragmento (#).'),
    ).toBeInTheDocument();

    const refusals: [string, string][] = [
      ['http://erp.farmacia-central.com.br/hook', 'O endereço precisa começar com https://.'],
      ['https://192.168.0.10/hook', 'O endereço não é público (local, privado ou reservado).'],
      ['https://erp.farmacia-central.com.br/taken', 'Este endereço já está cadastrado para esta empresa.'],
    ];
    for (const [url, message] of refusals) {
      await fillForm(url, []);
      await keys.click(within(form).getByRole('button', { name: 'Adicionar' }));
      const field = within(form).getByRole('textbox', { name: /Endereço \(URL\)/ });
      await waitFor(() => expect(field).toHaveAccessibleDescription(expect.stringContaining(message)));
      expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    expect(api.webhooks.endpoints).toHaveLength(1);

    await fillForm('https://erp.farmacia-central.com.br/novo', ['Entregue']);
    await keys.click(within(form).getByRole('button', { name: 'Adicionar' }));
    const secret = await screen.findByRole('alertdialog', { name: 'Segredo de assinatura' });
    expect(within(secret).getByText(FAKE_SECRET)).toBeInTheDocument();
    expect(within(secret).getByText('Copie e guarde agora: ele não será mostrado novamente.')).toBeInTheDocument();
    await keys.click(within(secret).getByRole('button', { name: 'Copiar segredo' }));
    expect(await within(secret).findByText('Segredo copiado.')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(FAKE_SECRET);
    await keys.click(within(secret).getByRole('button', { name: 'Já guardei' }));
    expect(screen.queryByText(FAKE_SECRET)).not.toBeInTheDocument();

    const card = within(dialog).getByRole('listitem', { name: 'https://erp.farmacia-central.com.br/novo' });
    expect(within(card).getByText('Ativo')).toBeInTheDocument();
    expect(within(card).getByText('Enviada')).toBeInTheDocument();
    expect(within(card).getByText('Entregue')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Histórico' })).toHaveAttribute(
      'href',
      '/webhooks?tenant=farmacia-central&endpoint=2',
    );
    expect(
      view!.requests.filter((r) => r.path === '/api/webhooks/endpoints' && r.method === 'POST').at(-1)?.body,
    ).toEqual({
      tenantName: 'farmacia-central',
      url: 'https://erp.farmacia-central.com.br/novo',
      types: ['sent', 'delivered'],
    });
  });

  it('says the limit on the form', async () => {
    const api = fakeTenantsApi([central]);
    api.webhooks.endpoints = Array.from({ length: 10 }, (_, i) => webhookEndpoint(i + 1));
    const dialog = await openWebhooks(api);
    await keys.click(within(dialog).getByRole('button', { name: 'Adicionar endpoint' }));
    const form = await fillForm('https://erp.farmacia-central.com.br/onze', ['Lida']);
    await keys.click(within(form).getByRole('button', { name: 'Adicionar' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Esta empresa já tem 10 endpoints, o máximo; exclua um antes de adicionar outro.',
    );
  });

  it('pauses, rotates the secret (confirmed, shown once, the previous one valid for a while) and deletes (confirmed)', async () => {
    const api = fakeTenantsApi([central]);
    api.webhooks.endpoints = [webhookEndpoint(1)];
    const dialog = await openWebhooks(api);
    const card = () => within(dialog).getByRole('listitem', { name: 'https://erp.farmacia-central.com.br/hook/1' });
    await keys.click(within(card()).getByRole('button', { name: 'Pausar' }));
    expect(await within(card()).findByText('Pausado')).toBeInTheDocument();
    expect(api.webhooks.endpoints[0]?.active).toBe(false);

    await keys.click(within(card()).getByRole('button', { name: 'Trocar segredo' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Trocar segredo' });
    await keys.click(within(confirm).getByRole('button', { name: 'Trocar segredo' }));
    const secret = await screen.findByRole('alertdialog', { name: 'Segredo de assinatura' });
    expect(within(secret).getByText(FAKE_SECRET.replace('Q2x9', 'R3y0'))).toBeInTheDocument();
    await keys.click(within(secret).getByRole('button', { name: 'Já guardei' }));
    expect(within(card()).getByText('Segredo anterior válido até 29/11/2026 12:00')).toBeInTheDocument();

    await keys.click(within(card()).getByRole('button', { name: 'Excluir' }));
    const remove = await screen.findByRole('alertdialog', { name: 'Excluir endpoint' });
    await keys.click(within(remove).getByRole('button', { name: 'Excluir' }));
    expect(await within(dialog).findByText(/Nenhum endpoint cadastrado/)).toBeInTheDocument();
    expect(api.webhooks.endpoints).toEqual([]);
  });

  it('an edit refused as stale shows the conflict notice and "Reaplicar as minhas" saves over the other change', async () => {
    const api = fakeTenantsApi([central]);
    api.webhooks.endpoints = [webhookEndpoint(1)];
    const dialog = await openWebhooks(api);
    // Someone else saves meanwhile: the fake's version moves on.
    api.webhooks.endpoints[0]!.version = 3;
    await keys.click(within(dialog).getByRole('button', { name: 'Editar' }));
    const form = await formDialog();
    await keys.type(within(form).getByRole('textbox', { name: /Descrição/ }), 'ERP da loja');
    await keys.click(within(form).getByRole('button', { name: 'Salvar' }));
    expect(
      await within(form).findByText(
        'Suas alterações não foram salvas: o registro mudou desde que você o abriu. Nada foi perdido: escolha o que fazer com elas.',
      ),
    ).toBeInTheDocument();
    // The notice lists the unsaved value beside the other change, as every edit form's does.
    expect(within(form).getByText('ERP da loja')).toBeInTheDocument();
    expect(within(form).getByText('Descrição (opcional)', { selector: 'dt' })).toBeInTheDocument();
    await keys.click(within(form).getByRole('button', { name: 'Reaplicar as minhas' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Editar endpoint' })).not.toBeInTheDocument());
    expect(api.webhooks.endpoints[0]).toMatchObject({ description: 'ERP da loja', version: 4 });
    const puts = view!.requests.filter((r) => r.method === 'PUT').map((r) => r.body);
    expect(puts).toEqual([
      { description: 'ERP da loja', version: 1 },
      { description: 'ERP da loja', version: 3 },
    ]);
  });
});

describe('TenantPanel: webhook generation starts runs', () => {
  async function generate(dialog: HTMLElement, types: string[]) {
    await keys.click(within(dialog).getByRole('button', { name: /Tipos de status/ }));
    for (const type of types) await keys.click(await screen.findByRole('option', { name: type }));
    await keys.keyboard('{Escape}');
    await keys.click(within(dialog).getByRole('button', { name: 'Gerar' }));
    return within(dialog).findByRole('list', { name: 'Resultado por tipo' });
  }

  it('without an endpoint for a type says so and points to "Adicionar endpoint"', async () => {
    const api = fakeTenantsApi([central]);
    const dialog = await openWebhooks(api);
    const results = await generate(dialog, ['Respondida']);
    expect(await within(results).findByText(/Nenhum endpoint ativo recebe este tipo\./)).toBeInTheDocument();
    expect(within(dialog).getByRole('note')).toHaveTextContent(
      'Para gerar, cadastre um endpoint que receba o tipo em “Adicionar endpoint”, acima.',
    );
  });

  it("shows each run's progress as the socket tells it, read again on each news, with a link to its history", async () => {
    const api = fakeTenantsApi([central]);
    api.webhooks.endpoints = [webhookEndpoint(1)];
    const dialog = await openWebhooks(api);
    const results = await generate(dialog, ['Enviada']);
    const bar = await within(results).findByRole('progressbar', { name: 'Progresso da execução #345' });
    expect(bar).toHaveAttribute('aria-valuetext', '0 de 12 concluídas');
    expect(within(results).getByRole('link', { name: 'Ver no histórico' })).toHaveAttribute(
      'href',
      '/webhooks?tenant=farmacia-central&run=345',
    );
    const run = api.webhooks.runs[0]!;
    view!.services.bus.publish({
      name: 'webhookRunProgress',
      data: { ...run, pending: 2, succeeded: 9, failed: 1 },
      tenantName: 'backoffice',
      sentAt: '2026-11-28T12:00:01Z',
    });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuetext', '10 de 12 concluídas'));
    expect(within(results).getByText(/Entregues: 9 · com falha: 1 · pendentes: 2/)).toBeInTheDocument();
  });
});

// The fake answers 409 stale on a version the endpoint no longer holds: a pause sent with an old one.
describe('TenantPanel: a card action refused as stale', () => {
  it('reads the list again and says why nothing happened', async () => {
    const api = fakeTenantsApi([central]);
    api.webhooks.endpoints = [webhookEndpoint(1)];
    const dialog = await openWebhooks(api);
    api.webhooks.endpoints[0]!.version = 2;
    api.override.set('PUT /api/webhooks/endpoints/1', () =>
      json(409, { message: 'stale', error: 'stale', version: 2, changes: [] }),
    );
    await keys.click(within(dialog).getByRole('button', { name: 'Pausar' }));
    expect(
      await within(dialog).findByText(/O endpoint mudou em outro lugar; a lista foi recarregada\./),
    ).toBeInTheDocument();
  });
});
