// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { setupUser } from '../../test-support/user-event';
import { deferred, json, type SeenRequest } from '../../../machines/test-support/fake-fetch';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import DashboardScreen from './dashboard';
import { dashboardApi, POINTS, RANGE, type FakeDashboardOptions } from '../../test-support/dashboard-fixtures';

let view: RenderedApp | undefined;
// The chart chunk is lazy; transforming it the first time can outlast findBy's 1 s.
beforeAll(async () => {
  await import('./dashboard-charts');
});
afterEach(() => {
  view?.unmount();
  view = undefined;
});

function render(
  options: FakeDashboardOptions & { path?: string; respond?: (r: SeenRequest) => Response | Promise<Response> } = {},
) {
  view = renderWithServices(<DashboardScreen />, {
    path: options.path ?? `/dashboard/analytics${RANGE}`,
    signedIn: {},
    respond: options.respond ?? dashboardApi(options),
  });
  return view;
}

const kpi = (name: string) => screen.getByRole('group', { name });
const cells = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => Array.from(row.children, (cell) => cell.textContent?.replace(/\u00a0/g, ' ')));

describe('DashboardScreen: loading, data, empty, error', () => {
  it('shows skeletons while loading, then the KPIs in R$ with a decimal comma and the change against the previous period', async () => {
    const held = deferred<Response>();
    const api = dashboardApi();
    render({
      respond: (r) =>
        r.path === '/api/dashboard/summary' && r.query.get('startAt') === '2025-11-01' ? held.promise : api(r),
    });
    expect(kpi('Pedidos')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Carregando gráficos…')).toBeInTheDocument();
    held.resolve(
      api({ path: '/api/dashboard/summary', query: new URLSearchParams('startAt=2025-11-01') } as SeenRequest),
    );
    await waitFor(() => expect(kpi('Pedidos')).not.toHaveAttribute('aria-busy'));
    expect(kpi('Pedidos')).toHaveTextContent('412');
    expect(kpi('Pedidos')).toHaveTextContent('Aumento de 3%');
    expect(kpi('Faturamento')).toHaveTextContent(/R\$\s53\.120,40/);
    expect(kpi('Faturamento')).toHaveTextContent('Aumento de 6,2%');
    expect(kpi('Valor médio por pedido')).toHaveTextContent(/R\$\s128,93/);
    expect(kpi('Atendimentos')).toHaveTextContent('980');
    expect(kpi('Atendimentos')).toHaveTextContent('Queda de 2%');
    expect(kpi('Tickets fechados')).toHaveTextContent('943');
    expect(kpi('Tickets em aberto')).toHaveTextContent('Queda de 7,5%');
    expect(kpi('Usuários online')).toHaveTextContent('6Neste momento');
    expect(screen.getByText('Variação em relação ao período anterior (29/10/2025 a 31/10/2025).')).toBeInTheDocument();
  });

  it('draws each chart lazily and gives screen readers the same numbers as a table; the toggle shows that table', async () => {
    const user = setupUser();
    render();
    const orders = await screen.findByRole('table', { name: 'Pedidos por dia' });
    expect(cells(orders)).toEqual([
      ['Dia', 'Pedidos'],
      ['01/11/2025', '130'],
      ['02/11/2025', '150'],
      ['03/11/2025', '132'],
      ['Total', '412'],
    ]);
    // The drawing is hidden from screen readers; its tooltips hold the very same figures.
    const card = screen.getByRole('region', { name: 'Pedidos por dia' });
    const svg = card.querySelector('svg[viewBox]');
    expect(svg?.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(Array.from(svg?.querySelectorAll('rect > title') ?? [], (t) => t.textContent)).toEqual([
      '01/11/2025: 130',
      '02/11/2025: 150',
      '03/11/2025: 132',
    ]);

    const revenue = screen.getByRole('table', { name: 'Faturamento por dia' });
    expect(cells(revenue).slice(1)).toEqual([
      ['01/11/2025', 'R$ 17.000,10'],
      ['02/11/2025', 'R$ 19.120,30'],
      ['03/11/2025', 'R$ 17.000,00'],
      ['Total', 'R$ 53.120,40'],
    ]);
    const attendances = screen.getByRole('table', { name: 'Atendimentos e tickets fechados por dia' });
    expect(cells(attendances)[0]).toEqual(['Dia', 'Atendimentos', 'Tickets fechados']);
    expect(
      cells(attendances)
        .slice(1, 4)
        .map((row) => row.slice(1).map(Number)),
    ).toEqual(POINTS.attendances.map((value, i) => [value, POINTS.tickets[i]]));

    await user.click(screen.getByRole('switch', { name: 'Ver como tabela: Pedidos por dia' }));
    expect(card.querySelector('svg[viewBox]')).toBeNull();
    const shown = within(card).getByRole('region', { name: 'Pedidos por dia' });
    expect(shown).toHaveAttribute('tabindex', '0');
    expect(cells(within(shown).getByRole('table'))).toEqual(cells(orders));
  });

  it('says so when the period has no data', async () => {
    render({ empty: true });
    expect(await screen.findByText('Nenhum dado no período')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Não há pedidos nem atendimentos de 01/11/2025 a 03/11/2025. Escolha outro período ou outra empresa.',
      ),
    ).toBeInTheDocument();
    expect(kpi('Pedidos')).toHaveTextContent('0');
    // A previous period without figures compares nothing: no change, no note.
    expect(kpi('Pedidos')).not.toHaveTextContent(/Aumento|Queda|Sem variação/);
    expect(screen.queryByText(/Variação em relação/)).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says which part failed and why, and retries', async () => {
    const user = setupUser();
    let down = ['/api/dashboard/summary'];
    const api = dashboardApi();
    const { requests } = render({
      respond: (r) => (down.includes(r.path) ? json(503, { status: 'unavailable', message: 'down' }) : api(r)),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar os indicadores.');
    expect(alert).toHaveTextContent('Serviço indisponível. Tente mais tarde.');
    expect(await screen.findByRole('table', { name: 'Pedidos por dia' })).toBeInTheDocument();
    down = [];
    const before = requests.length;
    await user.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    await waitFor(() => expect(kpi('Pedidos')).toHaveTextContent('412'));
    expect(requests.length).toBeGreaterThan(before);
  });

  it('shows a charts error with its own retry', async () => {
    render({ down: ['/api/dashboard/timeseries'] });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar os gráficos.');
    expect(kpi('Pedidos')).toHaveTextContent('412');
  });

  it.each(['analytics', 'control-panel', 'maria-panel'])('offers the sheets on /dashboard/%s', async (route) => {
    render({ path: `/dashboard/${route}${RANGE}` });
    expect(await screen.findByRole('heading', { level: 2, name: 'Planilhas' })).toBeInTheDocument();
  });

  it('gives each dashboard route its subtitle', async () => {
    render({ path: `/dashboard/control-panel${RANGE}` });
    expect(
      screen.getByText('Acompanhe o movimento de pedidos, atendimentos e tickets do período escolhido.'),
    ).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Pedidos por dia' });
  });
});
