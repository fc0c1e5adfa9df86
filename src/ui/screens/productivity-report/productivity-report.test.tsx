// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import type { ProductivityRow } from '../../../machines/reports/productivity-report.machine';
import { deferred, json, type SeenRequest } from '../../../machines/test-support/fake-fetch';
import { appToasts } from '../../components/toast-queue';
import { ADMIN_USER, renderWithServices, type RenderedApp } from '../../test-support/render';
import { isoDaysAgo } from '../../components/reports/sheet-request';
import { csvDownloads, FLOW_TIMEOUT_MS, keys, readCsv } from '../../test-support/sheets';
import ProductivityReportScreen from './productivity-report';

const rows: ProductivityRow[] = [
  {
    user_id: 2,
    name: 'Olívia Operadora',
    attendances: 120,
    avgFirstResponseSeconds: 38.5,
    avgHandlingSeconds: 612,
    closedTickets: 117,
  },
  {
    user_id: 3,
    name: 'Álvaro Souza',
    attendances: 45,
    avgFirstResponseSeconds: 200,
    avgHandlingSeconds: 3725.25,
    closedTickets: 40,
  },
  {
    user_id: 4,
    name: 'bruno Lima',
    attendances: 80,
    avgFirstResponseSeconds: 12,
    avgHandlingSeconds: 59,
    closedTickets: 80,
  },
];
const range = { startAt: isoDaysAgo(29), finishAt: isoDaysAgo(0) };
const PATH = '/api/dashboard/productivity';

let view: RenderedApp | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

function render(respond: (r: SeenRequest) => Response | Promise<Response>, tenant?: string) {
  view = renderWithServices(<ProductivityReportScreen />, {
    path: '/dashboard/produtivity-report',
    signedIn: {},
    respond,
    ...(tenant ? { tenant } : {}),
  });
  return view;
}

const api = (answer: () => Response | Promise<Response>) => (r: SeenRequest) =>
  r.path === PATH ? answer() : json(404, { message: 'no fake' });
const names = () =>
  within(screen.getByRole('grid', { name: 'Produtividade por atendente' }))
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent);
const toasts = () => appToasts.visibleToasts.map((t) => t.content.title);

describe('ProductivityReportScreen', { timeout: FLOW_TIMEOUT_MS }, () => {
  it('loads the last 30 days as JSON, then one row per attendant with human durations, most attendances first', async () => {
    const answer = deferred<Response>();
    const { requests } = render(api(() => answer.promise));
    expect(await screen.findByRole('progressbar', { name: 'Carregando registros…' })).toBeInTheDocument();
    const asked = requests.find((r) => r.path === PATH);
    expect(asked?.headers.get('accept')).toBe('application/json');
    // Staff on their own address: the report covers every tenant (no tenantName).
    expect(Object.fromEntries(asked?.query ?? [])).toEqual(range);
    answer.resolve(json(200, rows));
    expect(await screen.findByRole('row', { name: /Olívia Operadora/ })).toBeInTheDocument();
    expect(names()).toEqual(['Olívia Operadora', 'bruno Lima', 'Álvaro Souza']);
    const alvaro = screen.getByRole('row', { name: /Álvaro Souza/ });
    expect(
      within(alvaro)
        .getAllByRole('gridcell')
        .map((c) => c.textContent),
    ).toEqual(['45', '3min 20s', '1h 02min', '40']);
    expect(screen.getByText('3 atendentes no período.')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /Atendimentos/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('says when nobody attended in the period, with nothing to export', async () => {
    render(api(() => json(200, [])));
    expect(await screen.findByText('Nenhum atendimento no período')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
  });

  it('says why the report failed and runs it again', async () => {
    let fail = true;
    render(api(() => (fail ? json(503, { status: 'unavailable', message: 'down' }) : json(200, rows))));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar o relatório de produtividade.');
    expect(alert).toHaveTextContent('Serviço indisponível. Tente mais tarde.');
    fail = false;
    await keys.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('row', { name: /bruno Lima/ })).toBeInTheDocument();
  });

  it('sorts by any column from its header and exports exactly the rows shown (BOM, ;, decimal comma)', async () => {
    const downloads = csvDownloads();
    render(api(() => json(200, rows)));
    await screen.findByRole('row', { name: /bruno Lima/ });
    await keys.click(screen.getByRole('columnheader', { name: /Atendente/ }));
    expect(names()).toEqual(['Álvaro Souza', 'bruno Lima', 'Olívia Operadora']);
    expect(screen.getByRole('columnheader', { name: /Atendente/ })).toHaveAttribute('aria-sort', 'ascending');
    await keys.click(screen.getByRole('columnheader', { name: /Atendente/ }));
    expect(names()).toEqual(['Olívia Operadora', 'bruno Lima', 'Álvaro Souza']);
    await keys.click(screen.getByRole('columnheader', { name: /Primeira resposta/ }));
    expect(names()).toEqual(['bruno Lima', 'Olívia Operadora', 'Álvaro Souza']);

    await keys.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    const file = await readCsv(downloads.last());
    expect(file.name).toBe(`produtividade-${range.startAt}-${range.finishAt}.csv`);
    expect(file.bom).toBe(true);
    expect(file.type).toBe('text/csv;charset=utf-8');
    expect(file.lines).toEqual([
      'Atendente;Atendimentos;Primeira resposta média (s);Tempo médio de atendimento (s);Tickets fechados',
      'bruno Lima;80;12,00;59,00;80',
      'Olívia Operadora;120;38,50;612,00;117',
      'Álvaro Souza;45;200,00;3725,25;40',
    ]);
    expect(file.text.endsWith('\r\n')).toBe(true);
    await waitFor(() => expect(toasts()).toEqual(['CSV exportado: 3 linhas.']));
  });

  it('scopes staff to the tenant in the address when it is not their own', async () => {
    const { requests } = render(
      api(() => json(200, rows)),
      'farmacia-central',
    );
    await screen.findByRole('row', { name: /bruno Lima/ });
    expect(requests.find((r) => r.path === PATH)?.query.get('tenantName')).toBe('farmacia-central');
    expect(ADMIN_USER.tenantName).toBe('backoffice');
  });
});
