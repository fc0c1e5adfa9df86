// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import type { Instance } from '../../../../machines/instances/instances.machine';
import { instance, instancesApi, TENANT } from '../../../../machines/test-support/instances-fixtures';
import { json } from '../../../../machines/test-support/fake-fetch';
import { appToasts } from '../../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../../test-support/render';
import InstancesPanel from './instances-panel';
import { setupUser } from '../../../test-support/user-event';

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

type State = Parameters<typeof instancesApi>[0];

function render(state: State, override: Parameters<typeof instancesApi>[1] = {}) {
  view = renderWithServices(<InstancesPanel tenantName={TENANT} />, {
    path: `/tenants?panel=instances&tenant=${TENANT}`,
    signedIn: {},
    respond: instancesApi(state, override),
  });
  const app = view;
  /** The server's side of a change: its state, then its InstanceUpdated on the app bus (as the socket forwards it). */
  const push = (row: Instance) => {
    state.instances = state.instances.map((r) => (r.id === row.id ? row : r));
    act(() =>
      app.services.bus.publish({
        name: 'instanceUpdated',
        data: row,
        tenantName: TENANT,
        sentAt: new Date().toISOString(),
      }),
    );
  };
  const posts = (path: string) => app.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.body);
  return { app, push, posts };
}

const toasts = () => appToasts.visibleToasts.map((t) => t.content.title);
const card = (name: string) => screen.getByRole('listitem', { name });
const announced = () => screen.getAllByRole('status').map((s) => s.textContent ?? '');
const syncing = (progress: number, synced: number): Instance =>
  instance(1, { status: 'syncing', syncProgress: progress, syncedMessages: synced, totalMessages: 4000 });

describe('InstancesPanel: create and update', () => {
  it('creates an instance in a dialog: local refusal, server refusal by field, then the new card', async () => {
    const user = setupUser();
    let duplicate = true;
    const { posts } = render(
      { instances: [instance(1)], connections: [] },
      { create: () => (duplicate ? json(409, { message: 'exists', field: 'name' }) : undefined) },
    );
    await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' });
    await user.click(screen.getByRole('button', { name: 'Nova instância' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova instância' });
    const name = within(dialog).getByRole('textbox', { name: /^Nome/ });
    await user.type(name, '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Criar instância' }));
    expect(await within(dialog).findByText('Informe um nome de 1 a 80 caracteres.')).toBeInTheDocument();
    expect(posts('/api/instance')).toHaveLength(0);
    await user.clear(name);
    await user.type(name, 'Loja Centro');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Oficial (API oficial do WhatsApp)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Criar instância' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Não foi possível criar a instância. Já existe uma instância com este nome nesta empresa.',
    );
    expect(within(dialog).getByText('Já está em uso.')).toBeInTheDocument();
    duplicate = false;
    await user.type(name, ' 2');
    await user.tab();
    expect(within(dialog).queryByText('Já está em uso.')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Criar instância' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts('/api/instance').at(-1)).toEqual({
      name: 'Loja Centro 2',
      isOfficial: true,
      isUnlimited: false,
      tenantName: TENANT,
    });
    expect(within(card('Loja Centro 2')).getByText('Oficial')).toBeInTheDocument();
    expect(toasts()).toEqual(['Instância Loja Centro 2 criada.']);
  });

  it('a stale edit shows the other person’s change beside the typed one; "Reaplicar as minhas" saves it over theirs', async () => {
    const user = setupUser();
    const state: State = { instances: [instance(1)], connections: [] };
    const { posts } = render(state, {
      update: (request) => {
        const body = request.body as { version?: number; name?: string };
        const row = state.instances[0] as Instance;
        if (body.version === row.version) {
          const updated = { ...row, name: body.name ?? row.name, version: row.version + 1 };
          state.instances = [updated];
          return json(200, updated);
        }
        return json(409, {
          error: 'stale',
          message: 'changed since',
          field: 'version',
          version: row.version,
          changes: [
            {
              id: 70,
              at: '2026-11-28T10:00:00.000Z',
              actor_name: 'Outra Pessoa',
              actor_staff: false,
              operation: 'instance.update',
              changes: [{ field: 'activated', before: 'true', after: 'false' }],
            },
          ],
        });
      },
    });
    await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' });
    await user.click(screen.getByRole('button', { name: 'Editar WhatsApp Loja 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp Loja 1' });
    // Someone else deactivates it meanwhile.
    state.instances = [{ ...(state.instances[0] as Instance), activated: false, version: 2 }];
    const name = within(dialog).getByRole('textbox', { name: /^Nome/ });
    await user.clear(name);
    await user.type(name, 'Balcão');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar alterações' }));
    const notice = await within(dialog).findByTestId('conflict-notice');
    expect(within(notice).getByRole('heading', { name: 'Este registro foi alterado em outro lugar' })).toHaveFocus();
    expect(notice).toHaveTextContent(/Outra Pessoa/);
    expect(notice).toHaveTextContent(/Balcão/);
    expect(within(dialog).queryByRole('button', { name: 'Salvar alterações' })).toBeNull();
    expect(within(dialog).getByRole('textbox', { name: /^Nome/ })).toHaveAttribute('readonly');
    await user.click(within(notice).getByRole('button', { name: 'Reaplicar as minhas' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts('/api/instance/update')).toEqual([
      { id: 1, tenantName: TENANT, name: 'Balcão', version: 1 },
      { id: 1, tenantName: TENANT, name: 'Balcão', version: 2 },
    ]);
    expect(state.instances[0]).toMatchObject({ name: 'Balcão', activated: false, version: 3 });
  });

  it('edits an instance: only the changed fields are sent', async () => {
    const user = setupUser();
    const { posts } = render({ instances: [instance(1), instance(2)], connections: [] });
    await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' });
    await user.click(screen.getByRole('button', { name: 'Editar WhatsApp Loja 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp Loja 1' });
    const name = within(dialog).getByRole('textbox', { name: /^Nome/ });
    expect(name).toHaveValue('WhatsApp Loja 1');
    await user.clear(name);
    await user.type(name, 'Balcão');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Ativada' }));
    await user.click(within(dialog).getByRole('button', { name: 'Salvar alterações' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts('/api/instance/update')).toEqual([
      { id: 1, tenantName: TENANT, name: 'Balcão', activated: false, version: 1 },
    ]);
    expect(within(card('Balcão')).getByText('Desativada')).toBeInTheDocument();
    expect(toasts()).toEqual(['Instância Balcão salva.']);
  });
});

describe('InstancesPanel: sync', () => {
  it('starts a sync and follows its progress from socket events until done, announcing milestones only', async () => {
    const user = setupUser();
    const { push, posts } = render({ instances: [instance(1)], connections: [] });
    await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' });
    await user.click(screen.getByRole('button', { name: 'Sincronizar mensagens de WhatsApp Loja 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sincronizar WhatsApp Loja 1' });
    const days = within(dialog).getByRole('textbox', { name: /Dias para trás/ });
    expect(days).toHaveValue('30');
    await user.clear(days);
    await user.type(days, '90');
    await user.click(within(dialog).getByRole('button', { name: 'Iniciar sincronização' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts('/api/instance/syncMessages')).toEqual([
      { id: 1, tenantName: TENANT, daysAgo: 90, unlimitedSync: false },
    ]);
    expect(toasts()).toEqual(['Sincronização de WhatsApp Loja 1 iniciada.']);
    expect(
      within(card('WhatsApp Loja 1')).getByRole('button', { name: 'Sincronizar mensagens de WhatsApp Loja 1' }),
    ).toBeDisabled();

    const bar = () =>
      within(card('WhatsApp Loja 1')).getByRole('progressbar', {
        name: 'Sincronização de mensagens de WhatsApp Loja 1',
      });
    push(syncing(10, 400));
    expect(bar()).toHaveAttribute('aria-valuenow', '10');
    expect(bar()).toHaveAttribute('aria-valuetext', '400 de 4.000 mensagens · 10%');
    expect(announced()).not.toContain('WhatsApp Loja 1: 25% das mensagens sincronizadas.');
    push(syncing(30, 1200));
    expect(bar()).toHaveAttribute('aria-valuetext', '1.200 de 4.000 mensagens · 30%');
    expect(announced()).toContain('WhatsApp Loja 1: 25% das mensagens sincronizadas.');
    push(syncing(42, 1680));
    expect(bar()).toHaveAttribute('aria-valuenow', '42');
    // 42 % crosses no milestone: the region still says 25 %.
    expect(announced()).toContain('WhatsApp Loja 1: 25% das mensagens sincronizadas.');
    push(syncing(77, 3080));
    expect(announced()).toContain('WhatsApp Loja 1: 75% das mensagens sincronizadas.');
    push(instance(1, { status: 'done', syncProgress: 100, syncedMessages: 4000, totalMessages: 4000 }));
    expect(within(card('WhatsApp Loja 1')).queryByRole('progressbar')).toBeNull();
    expect(within(card('WhatsApp Loja 1')).getByText('Sincronizada')).toBeInTheDocument();
    expect(
      within(card('WhatsApp Loja 1')).getByText('Última sincronização concluída: 4.000 mensagens.'),
    ).toBeInTheDocument();
    expect(announced()).toContain('Sincronização de WhatsApp Loja 1 concluída: 4.000 mensagens.');
    expect(
      within(card('WhatsApp Loja 1')).getByRole('button', { name: 'Sincronizar mensagens de WhatsApp Loja 1' }),
    ).toBeEnabled();
  });

  it('syncs every message with the unlimited switch, and shows a failed sync', async () => {
    const user = setupUser();
    const { push, posts } = render({ instances: [instance(1)], connections: [] });
    await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' });
    await user.click(screen.getByRole('button', { name: 'Sincronizar mensagens de WhatsApp Loja 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sincronizar WhatsApp Loja 1' });
    await user.click(within(dialog).getByRole('switch', { name: 'Todas as mensagens, sem limite de dias' }));
    expect(within(dialog).getByRole('textbox', { name: /Dias para trás/ })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Iniciar sincronização' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts('/api/instance/syncMessages')).toEqual([
      { id: 1, tenantName: TENANT, daysAgo: null, unlimitedSync: true },
    ]);
    push(syncing(20, 800));
    push(instance(1, { status: 'failed', syncProgress: 20, syncedMessages: 800, totalMessages: 4000 }));
    const failed = card('WhatsApp Loja 1');
    expect(within(failed).queryByRole('progressbar')).toBeNull();
    expect(within(failed).getByText('Falha na sincronização')).toBeInTheDocument();
    expect(within(failed).getByText('A última sincronização falhou após 800 mensagens.')).toBeInTheDocument();
    expect(announced()).toContain('A sincronização de WhatsApp Loja 1 falhou.');
  });

  it('says when a sync of the instance is already running', async () => {
    const user = setupUser();
    render(
      { instances: [instance(1)], connections: [] },
      { sync: () => json(409, { message: 'A sync of this instance is already running', field: 'id' }) },
    );
    await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' });
    await user.click(screen.getByRole('button', { name: 'Sincronizar mensagens de WhatsApp Loja 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sincronizar WhatsApp Loja 1' });
    await user.click(within(dialog).getByRole('button', { name: 'Iniciar sincronização' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Não foi possível iniciar a sincronização. Já há uma sincronização em andamento para esta instância.',
    );
  });
});
