// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import type { Department } from '../../../machines/departments/departments.machine';
import { json, type SeenRequest } from '../../../machines/test-support/fake-fetch';
import { appToasts } from '../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import DepartmentsScreen from './departments';
import { setupUser } from '../../test-support/user-event';

const keys = setupUser();

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

const toasts = () => appToasts.visibleToasts.map((t) => t.content.title);

/** A departments API over a list the test can read: POST adds, PATCH changes, a duplicate is 409. */
function departmentsApi(initial: Department[]) {
  const rows = [...initial];
  const seen: SeenRequest[] = [];
  const respond = (r: SeenRequest) => {
    seen.push(r);
    if (r.path === '/api/departments' && r.method === 'GET') return json(200, rows);
    const body = r.body as { name?: string; activated?: boolean };
    const taken = (name: string, id?: number) =>
      rows.some((d) => d.id !== id && d.name.toLowerCase() === name.trim().toLowerCase());
    if (r.path === '/api/departments' && r.method === 'POST') {
      if (taken(body.name ?? '')) return json(409, { message: 'exists', field: 'name' });
      const created = { id: rows.length + 10, name: (body.name ?? '').trim(), activated: true, version: 1 };
      rows.push(created);
      return json(201, created);
    }
    const id = Number(r.path.split('/').pop());
    const row = rows.find((d) => d.id === id);
    if (!row) return json(404, { message: 'Department not found' });
    Object.assign(row, body);
    return json(200, row);
  };
  return { rows, seen, respond };
}

function render(respond: (r: SeenRequest) => Response | Promise<Response>) {
  view = renderWithServices(<DepartmentsScreen />, { path: '/departments', signedIn: {}, respond });
  return view;
}

describe('DepartmentsScreen', () => {
  it('lists the departments with their status and creates one from the dialog', async () => {
    const api = departmentsApi([{ id: 1, name: 'Atendimento', activated: true, version: 1 }]);
    render(api.respond);
    const table = await screen.findByRole('grid', { name: 'Departamentos cadastrados' });
    expect(within(table).getByRole('row', { name: /Atendimento/ })).toHaveTextContent('Ativo');
    await keys.click(screen.getByRole('button', { name: 'Novo departamento' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo departamento' });
    await keys.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'Compras');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar departamento' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toasts()).toContain('Departamento Compras criado.');
    expect(within(table).getByRole('row', { name: /Compras/ })).toBeInTheDocument();
  });

  it('keeps the dialog open with the reason on a duplicate name, sending nothing', async () => {
    const api = departmentsApi([{ id: 1, name: 'Atendimento', activated: true, version: 1 }]);
    render(api.respond);
    await screen.findByRole('grid', { name: 'Departamentos cadastrados' });
    await keys.click(screen.getByRole('button', { name: 'Novo departamento' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo departamento' });
    await keys.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'ATENDIMENTO');
    await keys.click(within(dialog).getByRole('button', { name: 'Criar departamento' }));
    expect(
      await within(dialog).findByText('Já existe um departamento com este nome nesta empresa.'),
    ).toBeInTheDocument();
    expect(api.seen.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(api.rows).toHaveLength(1);
  });

  it('renames and deactivates from the row', async () => {
    const api = departmentsApi([{ id: 1, name: 'Atendimento', activated: true, version: 1 }]);
    render(api.respond);
    const table = await screen.findByRole('grid', { name: 'Departamentos cadastrados' });
    await keys.click(within(table).getByRole('button', { name: 'Renomear Atendimento' }));
    const dialog = await screen.findByRole('dialog', { name: 'Renomear departamento' });
    const field = within(dialog).getByRole('textbox', { name: /Nome/ });
    expect(field).toHaveValue('Atendimento');
    await keys.clear(field);
    await keys.type(field, 'Atendimento ao cliente');
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar nome' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await keys.click(within(table).getByRole('button', { name: 'Desativar Atendimento ao cliente' }));
    await waitFor(() =>
      expect(within(table).getByRole('row', { name: /Atendimento ao cliente/ })).toHaveTextContent('Desativado'),
    );
    expect(api.rows).toEqual([{ id: 1, name: 'Atendimento ao cliente', activated: false, version: 1 }]);
    expect(toasts()).toContain('Departamento Atendimento ao cliente desativado.');
  });

  it('a stale rename shows the other person’s change beside the typed name; "Reaplicar as minhas" saves it', async () => {
    const api = departmentsApi([{ id: 1, name: 'Atendimento', activated: true, version: 1 }]);
    const patches: Record<string, unknown>[] = [];
    render((r) => {
      if (r.method !== 'PATCH') return api.respond(r);
      const body = r.body as { name: string; version?: number };
      patches.push(body);
      const row = api.rows[0] as Department;
      if (body.version !== row.version)
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
              operation: 'department.update',
              changes: [{ field: 'name', before: '"Atendimento"', after: '"Atendimento geral"' }],
            },
          ],
        });
      Object.assign(row, { name: body.name, version: row.version + 1 });
      return json(200, row);
    });
    const table = await screen.findByRole('grid', { name: 'Departamentos cadastrados' });
    await keys.click(within(table).getByRole('button', { name: 'Renomear Atendimento' }));
    const dialog = await screen.findByRole('dialog', { name: 'Renomear departamento' });
    // Someone else renames it meanwhile.
    Object.assign(api.rows[0] as Department, { name: 'Atendimento geral', version: 2 });
    const field = within(dialog).getByRole('textbox', { name: /Nome/ });
    await keys.clear(field);
    await keys.type(field, 'Recepção');
    await keys.click(within(dialog).getByRole('button', { name: 'Salvar nome' }));
    const notice = await within(dialog).findByTestId('conflict-notice');
    expect(within(notice).getByRole('heading', { name: 'Este registro foi alterado em outro lugar' })).toHaveFocus();
    expect(notice).toHaveTextContent(/Outra Pessoa/);
    expect(notice).toHaveTextContent(/Atendimento geral/);
    expect(notice).toHaveTextContent(/Recepção/);
    // No save is offered and the name is held while the notice waits for a choice.
    expect(within(dialog).queryByRole('button', { name: 'Salvar nome' })).toBeNull();
    expect(within(dialog).getByRole('textbox', { name: /Nome/ })).toHaveAttribute('readonly');
    await keys.click(within(notice).getByRole('button', { name: 'Reaplicar as minhas' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(patches).toEqual([
      { name: 'Recepção', version: 1 },
      { name: 'Recepção', version: 2 },
    ]);
    expect(within(table).getByRole('row', { name: /Recepção/ })).toBeInTheDocument();
  });
});
