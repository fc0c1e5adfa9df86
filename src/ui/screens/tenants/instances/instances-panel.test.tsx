// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import { connection, instance, instancesApi, TENANT } from '../../../../machines/test-support/instances-fixtures';
import { deferred, json } from '../../../../machines/test-support/fake-fetch';
import type { Responder } from '../../../../machines/test-support/fake-fetch';
import { appToasts } from '../../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../../test-support/render';
import InstancesPanel from './instances-panel';
import { setupUser } from '../../../test-support/user-event';

const keys = setupUser();

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

function render(respond: Responder) {
  view = renderWithServices(<InstancesPanel tenantName={TENANT} />, {
    path: `/tenants?panel=instances&tenant=${TENANT}`,
    signedIn: {},
    respond,
  });
  return view;
}

const toasts = () => appToasts.visibleToasts.map((t) => t.content.title);
const card = (name: string) => screen.getByRole('listitem', { name });

describe('InstancesPanel: states', () => {
  it('shows its heading and a loading state, then the instances and connections', async () => {
    const held = deferred<Response>();
    const state = {
      instances: [
        instance(1, { isOfficial: true, status: 'done', syncProgress: 100, syncedMessages: 1234, totalMessages: 1234 }),
        instance(2, { activated: false, isUnlimited: true, status: 'failed', syncedMessages: 300 }),
        instance(3),
      ],
      connections: [connection(1, 1), connection(2, 2, { phone: null, status: 'qrcode', last_seen_at: null })],
    };
    render(instancesApi(state, { list: () => held.promise }));
    expect(screen.getByRole('heading', { level: 2, name: 'Instâncias de farmacia-central' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Carregando instâncias…' })).toBeInTheDocument();
    held.resolve(json(200, state.instances));
    const first = await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' });
    expect(within(first).getByText('Oficial')).toBeInTheDocument();
    expect(within(first).getByText('Ativada')).toBeInTheDocument();
    expect(within(first).getByText('Sincronizada')).toBeInTheDocument();
    expect(within(first).getByText('Última sincronização concluída: 1.234 mensagens.')).toBeInTheDocument();
    const second = card('WhatsApp Loja 2');
    expect(within(second).getByText('Desativada')).toBeInTheDocument();
    expect(within(second).getByText('Ilimitada')).toBeInTheDocument();
    expect(within(second).getByText('A última sincronização falhou após 300 mensagens.')).toBeInTheDocument();
    expect(within(second).getByRole('button', { name: 'Usar como ativa a instância WhatsApp Loja 2' })).toBeDisabled();
    expect(within(card('WhatsApp Loja 3')).getByText('Nunca sincronizada')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Conexões de farmacia-central' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('WhatsApp Loja 1');
    expect(rows[0]).toHaveTextContent('+5511987654321');
    expect(rows[0]).toHaveTextContent('Conectada');
    expect(rows[1]).toHaveTextContent('Sem número');
    expect(rows[1]).toHaveTextContent('Aguardando leitura do QR code');
    expect(rows[1]).toHaveTextContent('Nunca vista');
  });

  it('shows empty states that offer to create the first instance', async () => {
    render(instancesApi({ instances: [], connections: [] }));
    expect(await screen.findByText('Nenhuma instância cadastrada')).toBeInTheDocument();
    expect(screen.getByText('Nenhuma conexão registrada')).toBeInTheDocument();
    const inEmptyState = screen.getAllByRole('button', { name: 'Nova instância' }).at(-1);
    await keys.click(inEmptyState!);
    expect(await screen.findByRole('dialog', { name: 'Nova instância' })).toBeInTheDocument();
  });

  it('says why the load failed and retries', async () => {
    let down = true;
    render(
      instancesApi(
        { instances: [instance(1)], connections: [] },
        { list: () => (down ? json(503, { status: 'unavailable', message: 'down' }) : undefined) },
      ),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar as instâncias e conexões.');
    expect(alert).toHaveTextContent('Serviço indisponível. Tente mais tarde.');
    down = false;
    await keys.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' })).toBeInTheDocument();
  });

  it('chooses the active instance (activeInstance) and shows it as such', async () => {
    const app = render(instancesApi({ instances: [instance(1), instance(2)], connections: [] }));
    await screen.findByRole('listitem', { name: 'WhatsApp Loja 2' });
    await keys.click(
      within(card('WhatsApp Loja 2')).getByRole('button', { name: 'Usar como ativa a instância WhatsApp Loja 2' }),
    );
    expect(app.services.preferences.getSnapshot().context.activeInstance).toEqual({ id: 2, name: 'WhatsApp Loja 2' });
    expect(within(card('WhatsApp Loja 2')).getByText('Instância ativa')).toBeInTheDocument();
    expect(within(card('WhatsApp Loja 1')).queryByText('Instância ativa')).toBeNull();
    expect(toasts()).toEqual(['WhatsApp Loja 2 agora é a instância ativa.']);
    // A rename (here, from another tab's socket event) reaches the stored choice.
    act(() =>
      app.services.bus.publish({
        name: 'instanceUpdated',
        data: instance(2, { name: 'Delivery' }),
        tenantName: TENANT,
        sentAt: new Date().toISOString(),
      }),
    );
    expect(app.services.preferences.getSnapshot().context.activeInstance).toEqual({ id: 2, name: 'Delivery' });
    await keys.click(
      within(card('Delivery')).getByRole('button', { name: 'Deixar de usar Delivery como instância ativa' }),
    );
    expect(app.services.preferences.getSnapshot().context.activeInstance).toBeNull();
    expect(within(card('Delivery')).queryByText('Instância ativa')).toBeNull();
  });

  it('refetches when the socket opens again after a drop', async () => {
    const app = render(instancesApi({ instances: [instance(1)], connections: [] }));
    await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' });
    const gets = () => app.requests.filter((r) => r.path === '/api/instance').length;
    await waitFor(() => expect(app.sockets.all).toHaveLength(1));
    // Opened after the list loaded: events sent in between were lost too.
    act(() => app.sockets.all[0]?.open());
    await waitFor(() => expect(gets()).toBe(2));
    act(() => app.sockets.all[0]?.drop(1006));
    await waitFor(() => expect(app.sockets.all).toHaveLength(2), { timeout: 3000 });
    act(() => app.sockets.all[1]?.open());
    await waitFor(() => expect(gets()).toBe(3));
  });
});
