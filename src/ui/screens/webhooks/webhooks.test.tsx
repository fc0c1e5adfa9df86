// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import type { WebhookDeliveryDetail } from '../../../machines/webhooks/webhook-history.machine';
import type { WebhookRun } from '../../../machines/webhooks/webhook-runs-live';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import { fakeTenantsApi, tenant, webhookEndpoint, type FakeTenantsApi } from '../../test-support/fake-tenants-api';
import { setupUser } from '../../test-support/user-event';
import WebhooksScreen from './webhooks';

type Run = WebhookRun;
type Detail = WebhookDeliveryDetail;

const keys = setupUser();
vi.setConfig({ testTimeout: 30_000 });

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

const run = (id: number, over: Partial<Run> = {}): Run => ({
  id,
  tenantName: 'farmacia-central',
  type: 'delivered',
  startAt: '2026-11-01',
  finishAt: '2026-11-07',
  total: 3,
  pending: 0,
  succeeded: 2,
  failed: 1,
  cancelled: 0,
  created_at: '2026-11-08T15:00:00.000Z',
  created_by: { id: 1, name: 'Ana' },
  finished_at: '2026-11-08T15:01:00.000Z',
  ...over,
});

const detail = (id: number, over: Partial<Detail['delivery']> = {}, attempts: Detail['attempts'] = []): Detail => ({
  delivery: {
    id,
    run_id: 7,
    endpoint: { id: 1, url: 'https://erp.farmacia-central.com.br/hook/1', deleted: false },
    type: 'delivered',
    message_id: 100 + id,
    idempotency_key: `9b2c6f5e-4a0e-4b8e-9d53-7f0f5b1d2c1${id}`,
    state: 'succeeded',
    attempts: 1,
    next_attempt_at: null,
    last_status_code: 200,
    last_error: null,
    created_at: '2026-11-08T15:00:00.000Z',
    completed_at: '2026-11-08T15:00:01.000Z',
    ...over,
  },
  body: JSON.stringify({ id: `key-${id}`, type: 'campaign.message.delivered', data: { messageId: 100 + id } }),
  attempts,
});

function seeded(): FakeTenantsApi {
  const api = fakeTenantsApi([tenant(1, { name: 'farmacia-central' })]);
  api.webhooks.endpoints = [webhookEndpoint(1)];
  api.webhooks.runs = [run(7)];
  api.webhooks.deliveries = [
    detail(1),
    detail(2),
    detail(3, { state: 'failed', attempts: 2, last_status_code: 503, last_error: 'http_status' }, [
      {
        number: 1,
        started_at: '2026-11-08T15:00:00.000Z',
        duration_ms: 1234,
        status_code: null,
        error: 'timeout',
        response_excerpt: '',
        retry_at: '2026-11-08T15:00:30.000Z',
      },
      {
        number: 2,
        started_at: '2026-11-08T15:00:30.000Z',
        duration_ms: 87,
        status_code: 503,
        error: 'http_status',
        response_excerpt: 'Service Unavailable: try later',
        retry_at: null,
      },
    ]),
  ];
  return api;
}

function render(api: FakeTenantsApi, path = '/webhooks?tenant=farmacia-central') {
  view = renderWithServices(<WebhooksScreen />, { path, signedIn: {}, respond: api.respond });
  return view;
}

const deliveries = () => screen.findByRole('grid', { name: 'Entregas' });

describe('WebhooksScreen', () => {
  it("lists the tenant's runs and deliveries; a filter goes into the address and the list", async () => {
    const api = seeded();
    const { location, requests } = render(api);
    const runs = await screen.findByRole('list', { name: 'Execuções' });
    const item = within(runs).getByRole('listitem');
    expect(item).toHaveTextContent('Execução #7 · Entregue · 01/11/2026 a 07/11/2026');
    expect(item).toHaveTextContent('08/11/2026 12:00');
    expect(item).toHaveTextContent('Entregues: 2');
    expect(item).toHaveTextContent('Com falha: 1');
    const grid = await deliveries();
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(4));
    const failed = within(grid).getByRole('row', { name: /Entrega #3/ });
    expect(failed).toHaveTextContent('Falhou');
    expect(failed).toHaveTextContent('HTTP 503');

    await keys.selectOptions(screen.getByRole('combobox', { name: 'Situação' }), 'failed');
    await waitFor(() => expect(location()).toBe('/webhooks?tenant=farmacia-central&state=failed'));
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(2));
    expect(
      requests
        .filter((r) => r.path === '/api/webhooks/deliveries')
        .at(-1)
        ?.query.get('state'),
    ).toBe('failed');
  });

  it("opens a delivery's detail: the body pretty-printed and every attempt with its answer's first bytes", async () => {
    const api = seeded();
    render(api, '/webhooks?tenant=farmacia-central&state=failed');
    const grid = await deliveries();
    const row = await within(grid).findByRole('row', { name: /Entrega #3/ });
    await keys.click(within(row).getByRole('button', { name: 'Detalhes' }));
    const section = await screen.findByRole('region', { name: 'Detalhes da entrega #3' });
    await within(section).findByText('Corpo enviado');
    expect(section.querySelector('pre')?.textContent).toBe(
      JSON.stringify(JSON.parse(api.webhooks.deliveries[2]!.body), null, 2),
    );
    const attempts = within(section).getAllByRole('listitem');
    expect(attempts[0]).toHaveTextContent('Tentativa 1');
    expect(attempts[0]).toHaveTextContent('Sem resposta dentro do tempo limite');
    expect(attempts[0]).toHaveTextContent('1.234 ms');
    expect(attempts[0]).toHaveTextContent('nova tentativa em 08/11/2026 12:00');
    expect(attempts[1]).toHaveTextContent('HTTP 503');
    expect(within(section).getByLabelText('Início da resposta da tentativa 2')).toHaveTextContent(
      'Service Unavailable: try later',
    );
  });

  it('redelivers one delivery, and every failed one of a run after a confirmation, saying what it did', async () => {
    const api = seeded();
    render(api);
    const grid = await deliveries();
    const row = await within(grid).findByRole('row', { name: /Entrega #3/ });
    await keys.click(within(row).getByRole('button', { name: 'Reenviar a entrega #3' }));
    expect(await screen.findByText('Entrega #3 colocada na fila de novo.')).toBeInTheDocument();
    expect(within(row).getByText('Na fila')).toBeInTheDocument();

    api.webhooks.deliveries[2]!.delivery.state = 'failed';
    await keys.click(screen.getByRole('button', { name: 'Reenviar com falha (1)' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Reenviar as entregas com falha' });
    await keys.click(within(confirm).getByRole('button', { name: 'Reenviar' }));
    expect(await screen.findByText('Reenviadas: 1; ignoradas (endpoint pausado ou excluído): 0.')).toBeInTheDocument();
  });

  it('words each redelivery refusal: paused (with a way to resume), deleted, in progress', async () => {
    const api = seeded();
    render(api);
    const grid = await deliveries();
    const row = await within(grid).findByRole('row', { name: /Entrega #3/ });
    api.webhooks.endpoints[0]!.active = false;
    await keys.click(within(row).getByRole('button', { name: 'Reenviar a entrega #3' }));
    const alert = await screen.findByText(/O endpoint está pausado; retome-o antes de reenviar\./);
    expect(alert.closest('[role="alert"]')).toHaveTextContent('Não foi possível reenviar a entrega #3.');
    expect(screen.getByRole('link', { name: 'Abrir os endpoints' })).toHaveAttribute(
      'href',
      '/tenants?panel=webhooks&tenant=farmacia-central',
    );
    api.webhooks.endpoints = [];
    await keys.click(within(row).getByRole('button', { name: 'Reenviar a entrega #3' }));
    expect(await screen.findByText(/O endpoint foi excluído; não é possível reenviar\./)).toBeInTheDocument();
    api.webhooks.endpoints = [webhookEndpoint(1)];
    api.webhooks.deliveries[2]!.delivery.state = 'succeeded';
    const sending = within(grid).getByRole('row', { name: /Entrega #3/ });
    api.webhooks.deliveries[2]!.delivery.state = 'sending';
    await keys.click(within(sending).getByRole('button', { name: 'Reenviar a entrega #3' }));
    expect(await screen.findByText(/Esta entrega já está na fila ou sendo enviada\./)).toBeInTheDocument();
  });

  it("follows a run's progress from the socket", async () => {
    const api = seeded();
    api.webhooks.runs = [run(7, { pending: 3, succeeded: 0, failed: 0, finished_at: null })];
    const { services } = render(api);
    const bar = await screen.findByRole('progressbar', { name: 'Progresso da execução #7' });
    expect(bar).toHaveAttribute('aria-valuetext', '0 de 3 concluídas');
    services.bus.publish({
      name: 'webhookRunProgress',
      data: run(7, { pending: 1, succeeded: 1, failed: 1, finished_at: null }),
      tenantName: 'backoffice',
      sentAt: '2026-11-08T15:00:05Z',
    });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuetext', '2 de 3 concluídas'));
    services.bus.publish({
      name: 'webhookRunProgress',
      data: run(7),
      tenantName: 'backoffice',
      sentAt: '2026-11-08T15:00:06Z',
    });
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Reenviar com falha (1)' })).toBeInTheDocument();
  });
});
