// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import { formatDateTime } from '../../../domain/format';
import { auditRecord, fakeAuditApi } from '../../../machines/test-support/fake-audit-api';
import { json } from '../../../machines/test-support/fake-fetch';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import AuditScreen from './audit';
import { setupUser } from '../../test-support/user-event';

const keys = setupUser();

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

function render(api: ReturnType<typeof fakeAuditApi>, path = '/audit', respond = api.respond) {
  view = renderWithServices(<AuditScreen />, { path, signedIn: {}, respond });
  return view;
}

const table = () => screen.findByRole('grid', { name: 'Registros de auditoria' });

/** Expands record `id` under its row (its button says so with aria-expanded) and answers the details. */
async function expand(id: number): Promise<HTMLElement> {
  const button = await screen.findByRole('button', { name: `Ver detalhes do registro nº ${id}` });
  expect(button).toHaveAttribute('aria-expanded', 'false');
  await keys.click(button);
  expect(button).toHaveAttribute('aria-expanded', 'true');
  const details = document.getElementById(button.getAttribute('aria-controls') ?? '');
  expect(details).not.toBeNull();
  return details!;
}

describe('AuditScreen', () => {
  it('lists the records newest first, one line each: when, who, operation, target, tenant, address', async () => {
    const api = fakeAuditApi([
      auditRecord(1, { operation: 'user.create', target_type: 'user', target_id: 7, target_name: 'Olívia' }),
      auditRecord(2),
      auditRecord(3, {
        operation: 'audit.purge',
        target_type: 'system',
        target_id: null,
        target_name: null,
        actor_user_id: null,
        actor_name: null,
        actor_email: null,
        actor_tenant_name: null,
        actor_staff: false,
        address: null,
        tenant_name: null,
      }),
      // As a reader who is not staff gets a staff member's record: no name, e-mail, tenant or address.
      auditRecord(4, {
        operation: 'tenant.update',
        actor_user_id: null,
        actor_name: null,
        actor_email: null,
        actor_tenant_id: null,
        actor_tenant_name: null,
        actor_staff: true,
        address: null,
        request_id: null,
      }),
    ]);
    render(api);
    const grid = await table();
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(5));
    const [, staffMasked, purge, plan, user] = within(grid).getAllByRole('row');
    expect(staffMasked).toHaveTextContent('Equipe do provedor');
    expect(staffMasked).not.toHaveTextContent('Desconhecido');
    expect(staffMasked).not.toHaveTextContent('backoffice');
    expect(purge).toHaveTextContent('Registros antigos removidos');
    expect(purge).toHaveTextContent('Sistema');
    expect(plan).toHaveTextContent('Ana Administradora');
    // The e-mail and the actor's tenant are in the details: the row names the tenant once.
    expect(plan).not.toHaveTextContent('admin@demo.local');
    expect(plan).not.toHaveTextContent('backoffice');
    expect(plan).toHaveTextContent('Plano da empresa alterado');
    expect(plan).toHaveTextContent('Empresa farmacia-x (nº 2)');
    expect(plan).toHaveTextContent('203.0.113.7');
    expect(user).toHaveTextContent('Usuário Olívia (nº 7)');
    expect(screen.getByText('4 registros exibidos.')).toBeVisible();
    expect(screen.getByText('Não há mais registros.')).toBeVisible();
  });

  it("shows a record's detail: who, when, where, request id and each field before and after", async () => {
    const api = fakeAuditApi([
      auditRecord(5, {
        operation: 'tenant.feature',
        changes: [
          { field: 'plan', before: '"starter"', after: '"enterprise"' },
          { field: 'features', before: '["chat"]', after: '["chat","webhooks"]' },
          { field: 'blocked', before: 'false', after: 'true' },
          { field: 'deleted_at', before: null, after: '"2026-11-25T10:00:00.000Z"' },
          { field: 'webhooks', before: 'false', after: 'true' },
        ],
      }),
    ]);
    render(api);
    const dialog = await expand(5);
    const open = screen.getByRole('button', { name: 'Ver detalhes do registro nº 5' });
    expect(dialog).toHaveTextContent('req-5');
    expect(dialog).toHaveTextContent('203.0.113.7');
    expect(dialog).toHaveTextContent('Ana Administradora · admin@demo.local · backoffice');
    const diff = within(dialog).getByRole('table', { name: 'Campos alterados: antes e depois' });
    const row = (field: string) => within(diff).getByRole('row', { name: new RegExp(`^${field}`) });
    expect(
      within(row('Plano'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Inicial', 'Empresarial']);
    expect(within(row('Funcionalidades')).getAllByRole('cell')[1]).toHaveTextContent('chatwebhooks');
    expect(within(within(row('Funcionalidades')).getAllByRole('cell')[1]!).getAllByRole('listitem')).toHaveLength(2);
    expect(
      within(row('Bloqueado'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Não', 'Sim']);
    expect(
      within(row('Excluído em'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['—', formatDateTime('2026-11-25T10:00:00.000Z', 'pt-BR')]);
    // A field without a label (a feature option) reads as recorded.
    expect(within(row('webhooks')).getAllByRole('cell')[1]).toHaveTextContent('Sim');
    // The same button folds it again, by keyboard.
    expect(open).toHaveFocus();
    await keys.keyboard('{Enter}');
    expect(open).toHaveAttribute('aria-expanded', 'false');
    expect(dialog).not.toBeInTheDocument();
  });

  it("shows a retention run's counts and cut-offs: the audit log's, the sign-in attempts' and the sessions'", async () => {
    const cutoff = '2026-08-27T12:00:00.000Z';
    const api = fakeAuditApi([
      auditRecord(6, {
        operation: 'audit.purge',
        target_type: 'system',
        target_id: null,
        target_name: null,
        actor_user_id: null,
        actor_name: null,
        actor_email: null,
        actor_tenant_id: null,
        actor_tenant_name: null,
        actor_staff: false,
        address: null,
        request_id: null,
        tenant_id: null,
        tenant_name: null,
        changes: [
          { field: 'deleted', before: null, after: '12' },
          { field: 'login_attempts_deleted', before: null, after: '340' },
          { field: 'login_attempts_cutoff', before: null, after: JSON.stringify(cutoff) },
          { field: 'login_attempts_retention_days', before: null, after: '90' },
          { field: 'sessions_deleted', before: null, after: '55' },
          { field: 'sessions_begun_cutoff', before: null, after: JSON.stringify(cutoff) },
          { field: 'sessions_revoked_cutoff', before: null, after: JSON.stringify(cutoff) },
        ],
      }),
    ]);
    render(api);
    const dialog = await expand(6);
    const diff = within(dialog).getByRole('table', { name: 'Campos alterados: antes e depois' });
    const after = (field: string) =>
      within(within(diff).getByRole('row', { name: new RegExp(`^${field}`) })).getAllByRole('cell')[1]?.textContent;
    expect(after('Tentativas de login excluídas')).toBe('340');
    expect(after('Tentativas excluídas: anteriores a')).toBe(formatDateTime(cutoff, 'pt-BR'));
    expect(after('Retenção das tentativas \\(dias\\)')).toBe('90');
    expect(after('Sessões encerradas excluídas')).toBe('55');
    expect(after('Sessões excluídas: iniciadas antes de')).toBe(formatDateTime(cutoff, 'pt-BR'));
    expect(after('Sessões excluídas: revogadas antes de')).toBe(formatDateTime(cutoff, 'pt-BR'));
  });

  it('names recorded words as the app does elsewhere, by the kind of target; unknown words stay as recorded', async () => {
    const api = fakeAuditApi([
      auditRecord(9, {
        operation: 'tenant.update',
        target_type: 'tenant',
        changes: [
          { field: 'template', before: '"padrao"', after: '"rede_sul"' },
          { field: 'pool', before: '"pool-a"', after: '"pool-b"' },
        ],
      }),
      auditRecord(8, {
        operation: 'instance.update',
        target_type: 'instance',
        changes: [{ field: 'status', before: '"idle"', after: '"syncing"' }],
      }),
      auditRecord(7, {
        operation: 'connection.update',
        target_type: 'connection',
        changes: [{ field: 'status', before: '"qrcode"', after: '"connected"' }],
      }),
      auditRecord(6, {
        operation: 'session.sign-in',
        target_type: 'session',
        changes: [
          { field: 'two_factor', before: null, after: '"enrolled"' },
          { field: 'sessions', before: null, after: '"ended"' },
          { field: 'plan', before: '"legacy"', after: '"starter"' },
        ],
      }),
    ]);
    render(api);
    const cells = async (id: number, field: string) => {
      const dialog = await expand(id);
      const diff = within(dialog).getByRole('table', { name: 'Campos alterados: antes e depois' });
      const texts = within(within(diff).getByRole('row', { name: new RegExp(`^${field}`) }))
        .getAllByRole('cell')
        .map((c) => c.textContent);
      return { texts, dialog };
    };
    const close = async () => {
      await keys.keyboard('{Enter}');
      expect(document.querySelector('[aria-expanded="true"]')).toBeNull();
    };
    // A tenant's template and pool by their labels (docs/product.md, Glossary), never the raw slugs.
    expect((await cells(9, 'Modelo')).texts).toEqual(['Padrão', 'Rede sul']);
    await close();
    expect((await cells(9, 'Grupo de servidores')).texts).toEqual(['Grupo A', 'Grupo B']);
    await close();
    expect((await cells(8, 'Situação')).texts).toEqual(['Nunca sincronizada', 'Sincronizando']);
    await close();
    expect((await cells(7, 'Situação')).texts).toEqual(['Aguardando leitura do QR code', 'Conectada']);
    await close();
    const { texts, dialog } = await cells(6, 'Dois fatores');
    expect(texts).toEqual(['—', 'Cadastrado ao entrar']);
    const row = (field: string) =>
      within(within(dialog).getByRole('table')).getByRole('row', { name: new RegExp(`^${field}`) });
    expect(within(row('Sessões')).getAllByRole('cell')[1]).toHaveTextContent('Encerradas');
    expect(
      within(row('Plano'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['legacy', 'Inicial']);
  });

  it("narrows the list to a record's user or target from its detail", async () => {
    const api = fakeAuditApi([
      auditRecord(1, { operation: 'user.create', target_type: 'user', target_id: 7, target_name: 'Olívia' }),
      auditRecord(2),
    ]);
    const app = render(api);
    let dialog = await expand(1);
    await keys.click(within(dialog).getByRole('button', { name: 'Ver só deste alvo' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    await waitFor(() => expect(api.seen).toHaveLength(2));
    expect(api.seen[1]!.query.get('targetType')).toBe('user');
    expect(api.seen[1]!.query.get('targetId')).toBe('7');
    expect(app.location()).toBe('/audit?targetType=user&targetId=7');

    // The target picker names the target, read from the server.
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Alvo' })).toHaveValue('Olívia'));

    dialog = await expand(1);
    await keys.click(within(dialog).getByRole('button', { name: 'Ver só deste usuário' }));
    await waitFor(() => expect(api.seen).toHaveLength(3));
    expect(api.seen[2]!.query.get('actorId')).toBe(String(auditRecord(1).actor_user_id));
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Usuário' })).toHaveValue('Ana Administradora · admin@demo.local'),
    );
  });

  it('filters by operation into the address', async () => {
    const api = fakeAuditApi([auditRecord(1, { operation: 'user.create', target_type: 'user' }), auditRecord(2)]);
    const app = render(api);
    await waitFor(() => expect(api.seen).toHaveLength(1));
    await keys.selectOptions(screen.getByRole('combobox', { name: 'Operação' }), 'Usuário criado');
    await keys.click(screen.getByRole('button', { name: 'Filtrar' }));
    await waitFor(() => expect(api.seen).toHaveLength(2));
    expect(api.seen[1]!.query.getAll('operation')).toEqual(['user.create']);
    expect(app.location()).toBe('/audit?operation=user.create');
    const grid = await table();
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(2));
    expect(within(grid).getAllByRole('row')[1]).toHaveTextContent('Usuário criado');
  });

  it('picks who acted by name, searched on the server, into the filters and the address', async () => {
    const api = fakeAuditApi([
      auditRecord(1, { actor_user_id: 31, actor_name: 'Bruna Teixeira', actor_email: 'bruna@farmacia.local' }),
      auditRecord(2),
    ]);
    const app = render(api);
    await waitFor(() => expect(api.seen).toHaveLength(1));
    const who = screen.getByRole('combobox', { name: 'Usuário' });
    expect(who).toHaveValue('Todos os usuários');
    await keys.clear(who);
    await keys.type(who, 'brun');
    // The list is the server's answer to what was typed (one request after the pause), not filtered here.
    await waitFor(() => expect(screen.queryByRole('option', { name: /Ana Administradora/ })).toBeNull());
    const option = await screen.findByRole('option', { name: 'Bruna Teixeira · bruna@farmacia.local' });
    expect(api.names.at(-1)!.query.get('q')).toBe('brun');
    expect(api.names.at(-1)!.query.get('of')).toBe('actor');
    await keys.click(option);
    expect(who).toHaveValue('Bruna Teixeira · bruna@farmacia.local');
    await keys.click(screen.getByRole('button', { name: 'Filtrar' }));
    await waitFor(() => expect(api.seen).toHaveLength(2));
    expect(api.seen[1]!.query.get('actorId')).toBe('31');
    expect(app.location()).toBe('/audit?actorId=31');
    expect(screen.getByRole('button', { name: 'Filtros (1)' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('starts from the filters in the address', async () => {
    const api = fakeAuditApi([auditRecord(1), auditRecord(2, { target_type: 'user', operation: 'user.block' })]);
    render(api, '/audit?targetType=user&targetId=2');
    await waitFor(() => expect(api.seen).toHaveLength(1));
    expect(api.seen[0]!.query.get('targetType')).toBe('user');
    expect(api.seen[0]!.query.get('targetId')).toBe('2');
    // The target's name is read for the id of the address; the kind's picker shows it.
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Alvo' })).toHaveValue('farmacia-x'));
    const resolved = api.names.find((r) => r.query.get('of') === 'target');
    expect(resolved?.query.get('id')).toBe('2');
    expect(resolved?.query.get('targetType')).toBe('user');
    const toggle = screen.getByRole('button', { name: 'Filtros (2)' });
    await keys.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAttribute('aria-controls', screen.getByRole('form', { name: 'Filtros' }).id);
  });

  it('loads more rows by keyboard, announces them, and says where the list ends', async () => {
    const api = fakeAuditApi(Array.from({ length: 60 }, (_, i) => auditRecord(i + 1)));
    render(api);
    const grid = await table();
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(51));
    const more = screen.getByRole('button', { name: 'Carregar mais' });
    act(() => more.focus());
    await keys.keyboard('{Enter}');
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(61));
    expect(screen.getByRole('status')).toHaveTextContent('10 registros carregados no fim da tabela.');
    expect(screen.getByText('Não há mais registros.')).toHaveFocus();
    expect(api.seen[1]!.query.get('after')).toBe('11');
  });

  it('shows a new record within the debounce when the socket announces it', async () => {
    const api = fakeAuditApi([auditRecord(1)]);
    const app = render(api);
    const grid = await table();
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(2));
    api.records.push(auditRecord(2, { operation: 'role.create', target_type: 'role', target_name: 'suporte' }));
    act(() =>
      app.services.bus.publish({
        name: 'auditRecorded',
        tenantName: 'backoffice',
        sentAt: new Date().toISOString(),
        data: {
          id: 2,
          at: new Date().toISOString(),
          operation: 'role.create',
          targetType: 'role',
          targetId: 2,
          targetName: 'suporte',
        },
      }),
    );
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(3));
    expect(within(grid).getAllByRole('row')[1]).toHaveTextContent('Função criada');
    expect(screen.getByRole('status')).toHaveTextContent('1 registro novo no topo da tabela.');
  });

  /** The socket announces record `id` (a tenant's plan, as `auditRecord` makes it). */
  const announce = (app: RenderedApp, id: number) =>
    act(() =>
      app.services.bus.publish({
        name: 'auditRecorded',
        tenantName: 'backoffice',
        sentAt: new Date().toISOString(),
        data: {
          id,
          at: new Date().toISOString(),
          operation: 'tenant.plan',
          targetType: 'tenant',
          targetId: 2,
          targetName: 'farmacia-x',
        },
      }),
    );
  const bodyRowIds = (grid: HTMLElement) =>
    within(grid)
      .getAllByRole('row')
      .slice(1)
      .map((row) => /nº (\d+)/.exec(within(row).getByRole('button').getAttribute('aria-label') ?? '')?.[1]);

  it('while the pointer is on a row, new records wait behind the notice; "Mostrar" shows them', async () => {
    const api = fakeAuditApi([auditRecord(1), auditRecord(2)]);
    const app = render(api);
    const grid = await table();
    await waitFor(() => expect(bodyRowIds(grid)).toEqual(['2', '1']));
    const pointed = screen.getByRole('button', { name: 'Ver detalhes do registro nº 2' });
    await keys.hover(pointed);
    api.records.push(auditRecord(3), auditRecord(4));
    announce(app, 3);
    announce(app, 4);
    const show = await screen.findByRole('button', { name: 'Mostrar', description: '2 novos registros' });
    expect(screen.getByRole('status')).toHaveTextContent('2 registros novos desde que a lista foi carregada.');
    expect(bodyRowIds(grid)).toEqual(['2', '1']);
    await keys.click(show);
    expect(bodyRowIds(grid)).toEqual(['4', '3', '2', '1']);
    expect(screen.queryByRole('button', { name: 'Mostrar' })).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('2 registros novos no topo da tabela.');
    // The button went with the notice: focus is in the table, so what comes next waits again.
    expect(grid.contains(document.activeElement)).toBe(true);
    await keys.unhover(grid);
    api.records.push(auditRecord(5));
    announce(app, 5);
    expect(await screen.findByText('1 novo registro')).toBeVisible();
    expect(bodyRowIds(grid)).toEqual(['4', '3', '2', '1']);
  });

  it('by keyboard: focus in the table holds new records, leaving it shows them', async () => {
    const api = fakeAuditApi([auditRecord(1), auditRecord(2)]);
    const app = render(api);
    const grid = await table();
    await waitFor(() => expect(bodyRowIds(grid)).toEqual(['2', '1']));
    act(() => grid.focus());
    expect(grid.contains(document.activeElement)).toBe(true);
    api.records.push(auditRecord(3));
    announce(app, 3);
    expect(await screen.findByText('1 novo registro')).toBeVisible();
    expect(bodyRowIds(grid)).toEqual(['2', '1']);
    // Tab leaves the grid (one tab stop) and the list: the record comes in.
    await keys.tab();
    expect(grid.contains(document.activeElement)).toBe(false);
    await waitFor(() => expect(bodyRowIds(grid)).toEqual(['3', '2', '1']));
    // Back in: the next one waits again.
    await keys.tab({ shift: true });
    expect(grid.contains(document.activeElement)).toBe(true);
    api.records.push(auditRecord(4));
    announce(app, 4);
    expect(await screen.findByText('1 novo registro')).toBeVisible();
    expect(bodyRowIds(grid)).toEqual(['3', '2', '1']);
  });

  it('a record expanded keeps new records back until it is folded and the user has left the list', async () => {
    const api = fakeAuditApi([auditRecord(1), auditRecord(2)]);
    const app = render(api);
    const grid = await table();
    await expand(1);
    api.records.push(auditRecord(3));
    announce(app, 3);
    expect(await screen.findByText('1 novo registro')).toBeVisible();
    await keys.unhover(grid);
    const toggle = screen.getByRole('button', { name: 'Ver detalhes do registro nº 1' });
    // Folded by keyboard: focus stays on its button, in the list.
    await keys.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bodyRowIds(grid)).toEqual(['2', '1']);
    // Out of the list (a click on the screen's intro): the rows take the record in.
    await keys.click(screen.getByText(/Quem alterou o quê/));
    await waitFor(() => expect(bodyRowIds(grid)).toEqual(['3', '2', '1']));
    expect(screen.queryByText('1 novo registro')).toBeNull();
  });

  it('a failed read is an error with a retry', async () => {
    const api = fakeAuditApi([auditRecord(1)]);
    let fail = true;
    render(api, '/audit', (request) =>
      fail && request.path === '/api/audit' ? json(503, { message: 'down' }) : api.respond(request),
    );
    expect(await screen.findByText('Não foi possível carregar a auditoria.')).toBeVisible();
    fail = false;
    await keys.click(screen.getByRole('button', { name: /Tentar novamente/ }));
    const grid = await table();
    await waitFor(() => expect(within(grid).getAllByRole('row')).toHaveLength(2));
  });
});
