// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { connection, instance, instancesApi, TENANT } from '../../../../machines/test-support/instances-fixtures';
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

type State = Parameters<typeof instancesApi>[0];

function render(state: State) {
  view = renderWithServices(<InstancesPanel tenantName={TENANT} />, {
    path: `/tenants?panel=instances&tenant=${TENANT}`,
    signedIn: {},
    respond: instancesApi(state),
  });
  const app = view;
  return {
    posts: (path: string) => app.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.body),
  };
}

const toasts = () => appToasts.visibleToasts.map((t) => t.content.title);
const connectionsList = () => screen.getByRole('list', { name: `Conexões de ${TENANT}` });

describe('InstancesPanel: connections', () => {
  it('creates a connection from its instance card; a name the instance has is refused without a request', async () => {
    const state: State = { instances: [instance(1), instance(2)], connections: [connection(1, 1, { name: 'Balcão' })] };
    const { posts } = render(state);
    const card = await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' });
    await keys.click(within(card).getByRole('button', { name: 'Nova conexão em WhatsApp Loja 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova conexão em WhatsApp Loja 1' });
    const field = within(dialog).getByRole('textbox', { name: /Nome da conexão/ });
    await keys.type(field, 'BALCÃO');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar conexão' }));
    expect(await within(dialog).findByText('Já existe uma conexão com este nome nesta instância.')).toBeInTheDocument();
    expect(posts('/api/connection')).toEqual([]);
    await keys.clear(field);
    await keys.type(field, '  ');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar conexão' }));
    expect(await within(dialog).findByText('Informe o nome da conexão.')).toBeInTheDocument();
    await keys.clear(field);
    await keys.type(field, ' Caixa ');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar conexão' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts('/api/connection')).toEqual([{ tenantName: TENANT, instance_id: 1, name: 'Caixa' }]);
    expect(toasts()).toContain('Conexão Caixa criada.');
    const row = within(connectionsList()).getByText('Caixa').closest('li');
    expect(row).toHaveTextContent('Desconectada');
    expect(row).toHaveTextContent('Ativa');
    expect(state.connections.map((c) => c.name)).toEqual(['Balcão', 'Caixa']);
  });

  it('renames and deactivates a connection from its row', async () => {
    const state: State = {
      instances: [instance(1)],
      connections: [connection(1, 1, { name: 'Balcão' }), connection(2, 1, { name: 'Caixa' })],
    };
    const { posts } = render(state);
    await screen.findByRole('listitem', { name: 'WhatsApp Loja 1' });
    await keys.click(within(connectionsList()).getByRole('button', { name: 'Renomear a conexão Balcão' }));
    const dialog = await screen.findByRole('dialog', { name: 'Renomear conexão' });
    const field = within(dialog).getByRole('textbox', { name: /Nome da conexão/ });
    expect(field).toHaveValue('Balcão');
    await keys.clear(field);
    await keys.type(field, 'caixa');
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar nome' }));
    expect(await within(dialog).findByText('Já existe uma conexão com este nome nesta instância.')).toBeInTheDocument();
    await keys.clear(field);
    await keys.type(field, 'Balcão 2');
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar nome' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await keys.click(within(connectionsList()).getByRole('button', { name: 'Desativar a conexão Balcão 2' }));
    await waitFor(() =>
      expect(within(connectionsList()).getByRole('button', { name: 'Ativar a conexão Balcão 2' })).toBeInTheDocument(),
    );
    expect(posts('/api/connection/update')).toEqual([
      { tenantName: TENANT, id: 1, name: 'Balcão 2', version: 1 },
      { tenantName: TENANT, id: 1, activated: false },
    ]);
    expect(state.connections[0]).toMatchObject({ name: 'Balcão 2', activated: false });
    expect(toasts()).toContain('Conexão Balcão 2 desativada.');
  });
});
