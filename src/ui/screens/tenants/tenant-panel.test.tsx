// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { selectOverlayEnabled } from '../../../machines/preferences/preferences.machine';
import { deferred, json, type SeenRequest } from '../../../machines/test-support/fake-fetch';
import { appToasts } from '../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import { fakeTenantsApi, tenant, webhookEndpoint, type FakeTenantsApi } from '../../test-support/fake-tenants-api';
import { isoDaysAgo } from '../../components/range-field';
import { FLOW_TIMEOUT_MS, keys } from '../../test-support/tenants-user-event';
import TenantsScreen from './tenants';

vi.setConfig({ testTimeout: FLOW_TIMEOUT_MS });
// The instances panel is another workspace's (lazily loaded); here a stand-in that names its tenant.
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

async function render(api: FakeTenantsApi, path = '/tenants') {
  view = renderWithServices(<TenantsScreen />, { path, signedIn: {}, respond: api.respond });
  await screen.findByRole('row', { name: /farmacia-central/ });
  return view;
}

async function openPanel(item: string) {
  await keys.click(screen.getByRole('button', { name: 'Ações de farmacia-central' }));
  await keys.click(await screen.findByRole('menuitem', { name: item }));
  return screen.findByRole('dialog', { name: 'Empresa farmacia-central' });
}

const overlayOn = () => selectOverlayEnabled(view!.services.preferences.getSnapshot());
const calls = (requests: SeenRequest[], method: string, path: string) =>
  requests.filter((r) => r.method === method && r.path === path);
const featureRow = (dialog: HTMLElement, label: string) =>
  within(dialog).getByRole('checkbox', { name: label }).closest('div') as HTMLElement;

describe('TenantPanel: features', () => {
  it('saves every change in one go with progress and a result per feature, retries the failed one, and gives the overlay back', async () => {
    const api = fakeTenantsApi([central]);
    api.features.set('farmacia-central', {
      analytics: false,
      campaigns: false,
      chat: true,
      chatbot: false,
      webhooks: false,
    });
    const held = deferred<void>();
    let chatbotFailures = 1;
    api.override.set('POST /api/tenant/feature', async (request) => {
      const option = (request.body as { option: string }).option;
      if (option === 'chatbot' && chatbotFailures > 0) {
        chatbotFailures -= 1;
        return json(503, { status: 'unavailable', message: 'down' });
      }
      if (option === 'webhooks') await held.promise;
      return undefined;
    });
    const { requests, location } = await render(api);
    const dialog = await openPanel('Funcionalidades');
    expect(location()).toBe('/tenants?panel=features&tenant=farmacia-central');
    expect(within(dialog).getByRole('tab', { name: 'Funcionalidades' })).toHaveAttribute('aria-selected', 'true');
    expect(await within(dialog).findByRole('checkbox', { name: 'Chat' })).toBeChecked();
    expect(within(dialog).getByText('Nenhuma alteração para salvar.')).toBeInTheDocument();

    for (const label of ['Campanhas', 'Chatbot', 'Webhooks'])
      await keys.click(within(dialog).getByRole('checkbox', { name: label }));
    expect(within(dialog).getByText('Alterações não salvas: 3')).toBeInTheDocument();
    expect(within(featureRow(dialog, 'Chatbot')).getByText('Alterada')).toBeInTheDocument();
    expect(overlayOn()).toBe(true);

    await keys.click(within(dialog).getByRole('button', { name: 'Salvar alterações' }));
    const progress = await within(dialog).findByRole('progressbar', { name: 'Salvando funcionalidades' });
    await waitFor(() => expect(progress).toHaveAttribute('aria-valuetext', '2 de 3'));
    expect(overlayOn()).toBe(false);
    expect(within(featureRow(dialog, 'Webhooks')).getByText('Aguardando')).toBeInTheDocument();
    expect(within(featureRow(dialog, 'Campanhas')).getByText('Salva')).toBeInTheDocument();
    // The dialog cannot be closed halfway.
    expect(within(dialog).queryByRole('button', { name: 'Fechar' })).toBeNull();
    held.resolve();

    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent(
        '1 de 3 não foi salva; as alterações continuam aqui para tentar de novo.',
      ),
    );
    expect(progress).toHaveAttribute('aria-valuetext', '3 de 3');
    expect(within(dialog).getByRole('progressbar', { name: 'Resultado do salvamento' })).toBe(progress);
    // Retrying is the way on; a second "Salvar alterações" would only do the same.
    expect(within(dialog).queryByRole('button', { name: 'Salvar alterações' })).toBeNull();
    expect(
      within(featureRow(dialog, 'Chatbot')).getByText('Falhou: Serviço indisponível. Tente mais tarde.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: 'Chatbot' })).toBeChecked();
    expect(within(dialog).getByText('Alterações não salvas: 1')).toBeInTheDocument();
    expect(overlayOn()).toBe(true);

    await keys.click(within(dialog).getByRole('button', { name: 'Tentar de novo as que falharam (1)' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent('Todas as funcionalidades foram salvas.'),
    );
    expect(within(featureRow(dialog, 'Chatbot')).getByText('Salva')).toBeInTheDocument();
    expect(calls(requests, 'POST', '/api/tenant/feature').map((r) => r.body)).toEqual([
      { option: 'campaigns', enabled: true, tenantName: 'farmacia-central' },
      { option: 'chatbot', enabled: true, tenantName: 'farmacia-central' },
      { option: 'webhooks', enabled: true, tenantName: 'farmacia-central' },
      { option: 'chatbot', enabled: true, tenantName: 'farmacia-central' },
    ]);
    expect(api.features.get('farmacia-central')).toEqual({
      analytics: false,
      campaigns: true,
      chat: true,
      chatbot: true,
      webhooks: true,
    });
    expect(overlayOn()).toBe(true);
  });

  it('keeps edits across tabs and asks before dropping them on close', async () => {
    const { location } = await render(fakeTenantsApi([central]));
    const dialog = await openPanel('Funcionalidades');
    await keys.click(await within(dialog).findByRole('checkbox', { name: 'Chatbot' }));
    await keys.click(within(dialog).getByRole('tab', { name: 'Webhooks' }));
    await waitFor(() => expect(location()).toBe('/tenants?panel=webhooks&tenant=farmacia-central'));
    await keys.click(within(dialog).getByRole('tab', { name: 'Funcionalidades' }));
    expect(within(dialog).getByRole('checkbox', { name: 'Chatbot' })).toBeChecked();
    await keys.keyboard('{Escape}');
    const confirm = await screen.findByRole('alertdialog', { name: 'Descartar alterações?' });
    expect(confirm).toHaveTextContent('Há funcionalidades alteradas e não salvas (1).');
    await keys.click(within(confirm).getByRole('button', { name: 'Descartar e fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location()).toBe('/tenants');
  });
});

describe('TenantPanel: the features editor’s conflict notice', () => {
  it('a stale answer stops the save, shows the other person’s change beside the unsaved ones, and "Reaplicar as minhas" saves them', async () => {
    const api = fakeTenantsApi([central]);
    const flags: Record<string, boolean> = { analytics: false, campaigns: false, chat: true, chatbot: false };
    let version = 7;
    const posts: Record<string, unknown>[] = [];
    const listed = () =>
      Object.entries(flags).map(([option, enabled]) => ({ option, enabled, tenantName: 'farmacia-central', version }));
    api.override.set('GET /api/tenant/feature', () => json(200, listed()));
    api.override.set('POST /api/tenant/feature', (request) => {
      const body = request.body as { option: string; enabled: boolean; version?: number };
      posts.push(body);
      if (body.version !== version)
        return json(409, {
          error: 'stale',
          message: 'changed since',
          field: 'version',
          version,
          changes: [
            {
              id: 80,
              at: '2026-11-28T10:00:00.000Z',
              actor_name: 'Outra Pessoa',
              actor_staff: true,
              operation: 'tenant.feature',
              changes: [{ field: 'analytics', before: 'false', after: 'true' }],
            },
          ],
        });
      flags[body.option] = body.enabled;
      version += 1;
      // Someone else turns analytics on right after the first feature is saved.
      if (posts.length === 1) {
        flags.analytics = true;
        version += 1;
      }
      return json(200, { ...body, tenantName: 'farmacia-central', version: body.version + 1 });
    });
    await render(api);
    const dialog = await openPanel('Funcionalidades');
    await within(dialog).findByRole('checkbox', { name: 'Chat' });
    for (const label of ['Campanhas', 'Chatbot'])
      await keys.click(within(dialog).getByRole('checkbox', { name: label }));
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar alterações' }));
    const notice = await within(dialog).findByTestId('conflict-notice');
    expect(within(notice).getByRole('heading', { name: 'Este registro foi alterado em outro lugar' })).toHaveFocus();
    expect(notice).toHaveTextContent(/Outra Pessoa/);
    expect(notice).toHaveTextContent(/Análises/);
    expect(notice).toHaveTextContent(/Chatbot/);
    // The feature saved before the stale answer shows as saved; the ticks are held and no save is offered.
    expect(within(featureRow(dialog, 'Campanhas')).getByText('Salva')).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: 'Chatbot' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Salvar alterações' })).toBeNull();
    await keys.click(within(notice).getByRole('button', { name: 'Reaplicar as minhas' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent('Todas as funcionalidades foram salvas.'),
    );
    expect(posts.map((p) => [p.option, p.version])).toEqual([
      ['campaigns', 7],
      ['chatbot', 8],
      ['chatbot', 9],
    ]);
    expect(flags).toEqual({ analytics: true, campaigns: true, chat: true, chatbot: true });
    expect(within(dialog).getByRole('checkbox', { name: 'Análises' })).toBeChecked();
  });
});

describe('TenantPanel: webhooks and analytics', () => {
  it('generates webhooks for two types, shows each result, and retries only the failed type', async () => {
    const api = fakeTenantsApi([central]);
    api.webhooks.endpoints = [webhookEndpoint(1)];
    let readFailures = 1;
    api.override.set('GET /api/tenant/generate-campaign-status-webhook', (request) => {
      if (request.query.get('type') !== 'read' || readFailures === 0) return undefined;
      readFailures -= 1;
      return json(503, { status: 'unavailable', message: 'down' });
    });
    const { requests } = await render(api);
    const dialog = await openPanel('Webhooks de campanha');
    await keys.click(within(dialog).getByRole('button', { name: 'Gerar' }));
    expect(await within(dialog).findByText('Selecione ao menos um tipo.')).toBeInTheDocument();
    expect(calls(requests, 'GET', '/api/tenant/generate-campaign-status-webhook')).toHaveLength(0);

    await keys.click(within(dialog).getByRole('button', { name: /Tipos de status/ }));
    await keys.click(await screen.findByRole('option', { name: 'Enviada' }));
    await keys.click(screen.getByRole('option', { name: 'Lida' }));
    await keys.keyboard('{Escape}');
    await keys.click(within(dialog).getByRole('button', { name: 'Gerar' }));

    const results = await within(dialog).findByRole('list', { name: 'Resultado por tipo' });
    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent('1 de 2 tipos falhou; tente de novo só esse.'),
    );
    expect(
      within(results)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(/^EnviadaEntregas geradas: 12.*Ver no histórico$/),
      'LidaFalhou: Serviço indisponível. Tente mais tarde.',
    ]);
    expect(within(dialog).getByRole('progressbar', { name: 'Resultado da geração' })).toHaveAttribute(
      'aria-valuetext',
      '2 de 2 tipos',
    );
    expect(overlayOn()).toBe(true);

    await keys.click(within(dialog).getByRole('button', { name: 'Tentar de novo os que falharam (1)' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent('Webhooks gerados para todos os tipos.'),
    );
    const sent = calls(requests, 'GET', '/api/tenant/generate-campaign-status-webhook').map((r) =>
      Object.fromEntries(r.query),
    );
    const range = { tenantName: 'farmacia-central', startAt: isoDaysAgo(6), finishAt: isoDaysAgo(0) };
    expect(sent).toEqual([
      { ...range, type: 'sent' },
      { ...range, type: 'read' },
      { ...range, type: 'read' },
    ]);
    expect(overlayOn()).toBe(true);
  });

  it('syncs analytics with force update and shows what was recomputed', async () => {
    const { requests } = await render(fakeTenantsApi([central]));
    const dialog = await openPanel('Sincronizar análises');
    await keys.click(within(dialog).getByRole('switch', { name: 'Forçar atualização' }));
    await keys.click(within(dialog).getByRole('button', { name: 'Sincronizar' }));
    expect(await within(dialog).findByText('Sincronização concluída')).toBeInTheDocument();
    expect(within(dialog).getByText('Dias recalculados').nextElementSibling).toHaveTextContent('31');
    expect(within(dialog).getByText('Registros lidos').nextElementSibling).toHaveTextContent('4.120');
    expect(within(dialog).getByText('Duração').nextElementSibling).toHaveTextContent('180 ms');
    expect(within(dialog).getByText('Atualização forçada').nextElementSibling).toHaveTextContent('Sim');
    const [sync] = calls(requests, 'GET', '/api/tenant/syncAnalytics').map((r) => Object.fromEntries(r.query));
    expect(sync).toEqual({
      tenantName: 'farmacia-central',
      fromDate: isoDaysAgo(29),
      toDate: isoDaysAgo(0),
      forceUpdate: 'true',
    });
  });

  it('says why a sync failed', async () => {
    const api = fakeTenantsApi([central]);
    api.override.set('GET /api/tenant/syncAnalytics', () => json(503, { status: 'unavailable', message: 'down' }));
    await render(api);
    const dialog = await openPanel('Sincronizar análises');
    await keys.click(within(dialog).getByRole('button', { name: 'Sincronizar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Não foi possível sincronizar as análises. Serviço indisponível. Tente mais tarde.',
    );
  });
});

describe('TenantPanel: instances', () => {
  it('opens from the menu address on the tenant of the address, with a tenant chooser', async () => {
    const api = fakeTenantsApi([central, tenant(2, { name: 'drogaria-sul' })]);
    view = renderWithServices(<TenantsScreen />, {
      path: '/tenants?panel=instances',
      signedIn: {},
      respond: api.respond,
    });
    const { location } = view;
    const dialog = await screen.findByRole('dialog', { name: 'Empresa backoffice' });
    expect(within(dialog).getByRole('tab', { name: 'Instâncias' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByText('instâncias de backoffice')).toBeInTheDocument();
    const chooser = within(dialog).getByRole('combobox', { name: 'Empresa' });
    expect(chooser).toHaveValue('backoffice');
    await keys.click(within(dialog).getByRole('button', { name: /Mostrar opções/ }));
    await keys.click(await screen.findByRole('option', { name: 'drogaria-sul' }));
    await waitFor(() => expect(location()).toBe('/tenants?panel=instances&tenant=drogaria-sul'));
    expect(await screen.findByText('instâncias de drogaria-sul')).toBeInTheDocument();
  });

  it('opens a tenant\u2019s instances from its row', async () => {
    const { location } = await render(fakeTenantsApi([central]));
    const dialog = await openPanel('Instâncias');
    expect(within(dialog).getByText('instâncias de farmacia-central')).toBeInTheDocument();
    expect(location()).toBe('/tenants?panel=instances&tenant=farmacia-central');
    expect(within(dialog).queryByRole('combobox', { name: 'Empresa' })).toBeNull();
  });
});
