// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import type { LoginFailure } from '../../../machines/reports/login-failure-report.machine';
import { deferred, json, type SeenRequest } from '../../../machines/test-support/fake-fetch';
import { appToasts } from '../../components/toast-queue';
import { ADMIN_USER, renderWithServices, type RenderedApp } from '../../test-support/render';
import { isoDaysAgo } from '../../components/reports/sheet-request';
import { csvDownloads, FLOW_TIMEOUT_MS, keys, readCsv } from '../../test-support/sheets';
import { LOGIN_FAILURE_REPORT_ROWS } from '../../../domain/report-limits';
import LoginFailureReportScreen from './login-failure-report';

const range = { startAt: isoDaysAgo(29), finishAt: isoDaysAgo(0) };
const users = [
  { id: 1, name: 'Ana Administradora', email: 'admin@demo.local' },
  { id: 2, name: 'Olívia Operadora', email: 'operador@demo.local' },
];
const failures: LoginFailure[] = [
  {
    id: 9,
    created_at: '2026-11-02T12:01:00Z',
    email: 'operador@demo.local',
    ip: '203.0.113.7',
    claimed_ip: '198.51.100.4',
    user_id: 2,
    user_name: 'Olívia Operadora',
  },
  {
    id: 8,
    created_at: '2026-11-01T02:30:00Z',
    email: '=HYPERLINK("x");ninguem@demo.local',
    ip: '192.0.2.9',
    claimed_ip: null,
    user_id: null,
    user_name: null,
  },
];
const operador = {
  ...ADMIN_USER,
  id: 2,
  name: 'Olívia Operadora',
  email: 'operador@demo.local',
  role: {
    id: 2,
    name: 'operador',
    display_name: 'Operador',
    has_permission_routes: ['dashboard-report', 'dashboard-report-smart'],
  },
};

let view: RenderedApp | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

type Answer = Response | Promise<Response>;
function render(
  report: (r: SeenRequest) => Answer,
  picker: () => Answer = () => json(200, users),
  signedIn = {},
  sheet: (r: SeenRequest) => Answer = () => json(404, { message: 'no fake' }),
) {
  view = renderWithServices(<LoginFailureReportScreen />, {
    path: '/dashboard/report',
    signedIn,
    respond: (r) =>
      r.path === '/api/dashboard-report/users'
        ? picker()
        : r.path === '/api/dashboard-report'
          ? report(r)
          : r.path === '/api/tenant/sheets/login_failures'
            ? sheet(r)
            : json(404, { message: 'no fake' }),
  });
  return view;
}

const reports = () => (view?.requests ?? []).filter((r) => r.path === '/api/dashboard-report');
const toasts = () => appToasts.visibleToasts.map((t) => t.content.title);

describe('LoginFailureReportScreen', { timeout: FLOW_TIMEOUT_MS }, () => {
  it('loads the picker, then the last 30 days for everyone: when in pt-BR, user, e-mail, the address and the claimed IP apart', async () => {
    const answer = deferred<Response>();
    render(() => answer.promise);
    expect(await screen.findByRole('progressbar', { name: 'Carregando registros…' })).toBeInTheDocument();
    await waitFor(() => expect(reports()).toHaveLength(1));
    expect(reports()[0]?.body).toEqual({ start_at: range.startAt, finish_at: range.finishAt, selectedUsers: [] });
    answer.resolve(json(200, failures));
    const known = await screen.findByRole('row', { name: /Olívia Operadora/ });
    expect(
      within(known)
        .getAllByRole('gridcell')
        .map((c) => c.textContent),
    ).toEqual(['02/11/2026 09:01', 'operador@demo.local', '203.0.113.7', '198.51.100.4']);
    const unknown = screen.getByRole('row', { name: /E-mail sem usuário/ });
    expect(
      within(unknown)
        .getAllByRole('gridcell')
        .map((c) => c.textContent),
    ).toEqual(['31/10/2026 23:30', '=HYPERLINK("x");ninguem@demo.local', '192.0.2.9', '—']);
    expect(screen.getByText('2 falhas no período.')).toBeInTheDocument();
    // Each address under its own label: the connection's is the address, the browser's is only claimed.
    const grid = screen.getByRole('grid', { name: 'Falhas de login' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Data e hora', 'Usuário', 'E-mail', 'Endereço (conexão)', 'IP informado']);
    expect(
      screen.getByText(/O IP informado é o que o navegador de quem tentou disse ter, e pode ser falso/),
    ).toBeInTheDocument();
  });

  it('narrows the report to the chosen users', async () => {
    render(() => json(200, failures));
    await screen.findByRole('row', { name: /Olívia Operadora/ });
    await keys.click(await screen.findByRole('button', { name: /Usuários/ }));
    await keys.click(await screen.findByRole('option', { name: /Olívia Operadora/ }));
    await keys.keyboard('{Escape}');
    expect(
      within(screen.getByRole('grid', { name: 'Itens selecionados' })).getByText('Olívia Operadora'),
    ).toBeInTheDocument();
    await keys.click(screen.getByRole('button', { name: 'Gerar relatório' }));
    await waitFor(() => expect(reports()).toHaveLength(2));
    expect(reports()[1]?.body).toEqual({ start_at: range.startAt, finish_at: range.finishAt, selectedUsers: [2] });
  });

  it('says when there are no failures, with nothing to export', async () => {
    render(() => json(200, []));
    expect(await screen.findByText('Nenhuma falha de login no período')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
  });

  it('says why the report failed and runs it again', async () => {
    let fail = true;
    render(() => (fail ? json(500, { message: 'boom' }) : json(200, failures)));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar as falhas de login.');
    expect(alert).toHaveTextContent('Erro no servidor.');
    fail = false;
    await keys.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('row', { name: /Olívia Operadora/ })).toBeInTheDocument();
  });

  it('works for a report-only role: the picker comes from the report call, never GraphQL users', async () => {
    render(
      () => json(200, failures),
      () => json(200, [users[1]]),
      { user: operador, permittedRoutes: ['dashboard-report', 'dashboard-report-smart'] },
    );
    await screen.findByRole('row', { name: /Olívia Operadora/ });
    expect(view?.requests.some((r) => r.path.endsWith('/graphql'))).toBe(false);
    await keys.click(await screen.findByRole('button', { name: /Usuários/ }));
    expect(await screen.findAllByRole('option')).toHaveLength(1);
  });

  it('without a picker the report still covers everyone and says why', async () => {
    render(
      () => json(200, failures),
      () => json(403, { message: 'Forbidden', required_permission: ['dashboard-report'] }),
    );
    await screen.findByRole('row', { name: /Olívia Operadora/ });
    expect(
      screen.getByText(
        /Não foi possível carregar a lista de usuários; o relatório considera todos\. Você não tem permissão/,
      ),
    ).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /Usuários/ })).toBeDisabled();
  });

  it('exports the rows shown as CSV (BOM, ;, São Paulo times, formulas kept as text)', async () => {
    const downloads = csvDownloads();
    render(() => json(200, failures));
    await screen.findByRole('row', { name: /Olívia Operadora/ });
    await keys.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    const file = await readCsv(downloads.last());
    expect(file.name).toBe(`falhas-de-login-${range.startAt}-${range.finishAt}.csv`);
    expect(file.bom).toBe(true);
    expect(file.lines).toEqual([
      'Data e hora;Usuário;E-mail;Endereço (conexão);IP informado',
      '2026-11-02 09:01;Olívia Operadora;operador@demo.local;203.0.113.7;198.51.100.4',
      `2026-10-31 23:30;;"'=HYPERLINK(""x"");ninguem@demo.local";192.0.2.9;`,
    ]);
    await waitFor(() => expect(toasts()).toEqual(['CSV exportado: 2 linhas.']));
  });

  it('says a report cut at 10.000 rows is cut, with the total, and downloads every row of the same request', async () => {
    const downloads = csvDownloads();
    const cut = Array.from({ length: LOGIN_FAILURE_REPORT_ROWS }, (_, i) => ({ ...failures[0]!, id: i + 1 }));
    const sheetRequests: SeenRequest[] = [];
    render(
      () => json(200, cut),
      undefined,
      undefined,
      (r) => {
        sheetRequests.push(r);
        return r.headers.get('accept') === 'text/csv'
          ? new Response(
              '\uFEFFid;criado_em;email;endereco;ip_informado;usuario_id;usuario\r\n1;2026-11-02 09:01;a@b;;;2;Ana\r\n',
              {
                status: 200,
                headers: {
                  'Content-Type': 'text/csv; charset=utf-8',
                  'Content-Disposition': `attachment; filename="login-failures-${range.startAt}-${range.finishAt}.csv"`,
                },
              },
            )
          : json(200, { data: [failures[0]], total: 12_345, limit: 1 });
      },
    );
    // Announced when the run ends (role="status").
    expect(
      await screen.findByText(
        'Mostrando as 10.000 falhas mais recentes de 12.345 no período. O CSV completo traz todas.',
      ),
    ).toHaveAttribute('role', 'status');
    await keys.click(screen.getByRole('button', { name: 'Baixar CSV completo' }));
    await waitFor(() => expect(downloads.saved).toHaveLength(1));
    const file = await readCsv(downloads.last());
    expect(file.name).toBe(`login-failures-${range.startAt}-${range.finishAt}.csv`);
    expect(file.lines[0]).toBe('id;criado_em;email;endereco;ip_informado;usuario_id;usuario');
    const csvRequest = sheetRequests.find((r) => r.headers.get('accept') === 'text/csv');
    expect(Object.fromEntries(csvRequest?.query ?? [])).toEqual(range);
  });

  it('says "at least" when the total cannot be read, and nothing when the report is not cut', async () => {
    const cut = Array.from({ length: LOGIN_FAILURE_REPORT_ROWS }, (_, i) => ({ ...failures[0]!, id: i + 1 }));
    render(
      () => json(200, cut),
      undefined,
      undefined,
      () => json(500, { message: 'boom' }),
    );
    expect(
      await screen.findByText(
        'Mostrando as 10.000 falhas mais recentes; o período tem pelo menos essa quantidade. O CSV completo traz todas.',
      ),
    ).toBeInTheDocument();
    view?.unmount();
    render(() => json(200, failures));
    await screen.findByRole('row', { name: /Olívia Operadora/ });
    expect(screen.queryByRole('button', { name: 'Baixar CSV completo' })).toBeNull();
  });
});
