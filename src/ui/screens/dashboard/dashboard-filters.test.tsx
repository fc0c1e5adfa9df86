// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { setupUser } from '../../test-support/user-event';
import { addDays, isoDateIn } from '../../../domain/dashboard-query';
import type { User } from '../../../machines/session/session-storage';
import { ADMIN_USER, renderWithServices, type RenderedApp } from '../../test-support/render';
import DashboardScreen from './dashboard';
import { dashboardApi, RANGE } from '../../test-support/dashboard-fixtures';

let view: RenderedApp | undefined;
beforeAll(async () => {
  await Promise.all([import('./dashboard-charts'), import('./custom-range')]);
});
afterEach(() => {
  view?.unmount();
  view = undefined;
});

const OPERADOR: User = {
  ...ADMIN_USER,
  id: 7,
  email: 'operador@farmacia-central.demo.local',
  role: {
    id: 2,
    name: 'operador',
    display_name: 'Operador',
    version: 1,
    has_permission_routes: ['dashboard-analytics'],
  },
  tenantName: 'farmacia-central',
  origin_backoffice: false,
};

function render(path = `/dashboard/analytics${RANGE}`, user?: User) {
  view = renderWithServices(<DashboardScreen />, {
    path,
    tenant: user?.tenantName ?? 'backoffice',
    signedIn: { ...(user ? { user } : {}) },
    respond: dashboardApi(),
  });
  return view;
}

/** The summary calls of the current period (not the previous one), as `startAt..finishAt tenant`. */
const summaries = (v: RenderedApp) =>
  v.requests
    .filter((r) => r.path === '/api/dashboard/summary')
    .map((r) => `${r.query.get('startAt')}..${r.query.get('finishAt')} ${r.query.get('tenantName') ?? '*'}`)
    .filter((_, i) => i % 2 === 0);

/** The dashboard's own filters (the sheets panel below has a period of its own). */
const filters = () => within(screen.getByRole('region', { name: 'Filtros do painel' }));

describe('DashboardScreen: filters', () => {
  it('opens on the last 30 days of every tenant for staff, with a plain address', async () => {
    const v = render('/dashboard/analytics');
    const today = isoDateIn(new Date());
    await screen.findByRole('table', { name: 'Pedidos por dia' }, { timeout: 5000 });
    expect(summaries(v)).toEqual([`${addDays(today, -29)}..${today} *`]);
    expect(filters().getByRole('combobox', { name: 'Período' })).toHaveDisplayValue('Últimos 30 dias');
    expect(filters().queryByRole('group', { name: 'Datas do período' })).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Empresa' })).toHaveValue('Todas as empresas');
    expect(v.location()).toBe('/dashboard/analytics');
  });

  it('a preset period reloads and goes into the address; "Personalizado" opens the dates', async () => {
    const user = setupUser();
    const v = render('/dashboard/analytics');
    const today = isoDateIn(new Date());
    await screen.findByRole('table', { name: 'Pedidos por dia' });
    await user.selectOptions(filters().getByRole('combobox', { name: 'Período' }), 'Últimos 7 dias');
    await waitFor(() => expect(v.location()).toBe(`/dashboard/analytics?from=${addDays(today, -6)}&to=${today}`));
    await waitFor(() => expect(summaries(v).at(-1)).toBe(`${addDays(today, -6)}..${today} *`));
    await user.selectOptions(filters().getByRole('combobox', { name: 'Período' }), 'Personalizado');
    expect(await filters().findByRole('group', { name: 'Datas do período' })).toBeInTheDocument();
  });

  it('a typed period reloads and goes into the address; a reversed one is refused with a message', async () => {
    const user = setupUser();
    const v = render();
    await screen.findByRole('table', { name: 'Pedidos por dia' });
    // A range that is no preset is "Personalizado"; the dates field (its own chunk) comes when asked for.
    expect(filters().getByRole('combobox', { name: 'Período' })).toHaveDisplayValue('Personalizado');
    expect(filters().getByRole('combobox', { name: 'Período' })).toHaveAccessibleDescription(
      'De 01/11/2025 a 03/11/2025',
    );
    expect(filters().queryByRole('group', { name: 'Datas do período' })).toBeNull();
    await user.click(filters().getByRole('button', { name: 'Editar datas' }));
    const [startDay] = await filters().findAllByRole('spinbutton', { name: /dia, Data inicial/ });
    await waitFor(() => expect(startDay).toHaveFocus());
    await user.click(startDay!);
    await user.keyboard('02');
    await waitFor(() => expect(v.location()).toBe('/dashboard/analytics?from=2025-11-02&to=2025-11-03'));
    await waitFor(() => expect(summaries(v).at(-1)).toBe('2025-11-02..2025-11-03 *'));
    const count = v.requests.length;
    const [endDay] = filters().getAllByRole('spinbutton', { name: /dia, Data final/ });
    await user.click(endDay!);
    await user.keyboard('01');
    expect(
      await screen.findByText('Informe um período válido: a data inicial não pode ser posterior à final.'),
    ).toBeInTheDocument();
    // Nothing asks for the refused period. (The previous period's last calls may still be leaving: the
    // charts ask after the summary, so a count taken after the summary is no boundary.) Only the
    // dashboard's calls: the sheets panel below loads when it likes and asks for its own period.
    const periods = v.requests
      .slice(count)
      .filter((r) => r.path.startsWith('/api/dashboard/'))
      .flatMap((r) => (r.query.has('startAt') ? [`${r.query.get('startAt')}..${r.query.get('finishAt')}`] : []));
    expect(periods.filter((period) => period !== '2025-11-02..2025-11-03')).toEqual([]);
    expect(v.location()).toBe('/dashboard/analytics?from=2025-11-02&to=2025-11-03');
  });

  it('staff pick a tenant: it is sent as tenantName and kept in the address', async () => {
    const user = setupUser();
    const v = render();
    await screen.findByRole('table', { name: 'Pedidos por dia' });
    await user.click(filters().getByRole('button', { name: /Mostrar opções/ }));
    await user.click(await screen.findByRole('option', { name: 'farmacia-central' }));
    await waitFor(() =>
      expect(v.location()).toBe('/dashboard/analytics?from=2025-11-01&to=2025-11-03&tenant=farmacia-central'),
    );
    await waitFor(() => expect(summaries(v).at(-1)).toBe('2025-11-01..2025-11-03 farmacia-central'));
    expect(await screen.findByRole('table', { name: 'Pedidos por dia' })).toBeInTheDocument();
  });

  it('restores the tenant from the address', async () => {
    const v = render(`/dashboard/maria-panel${RANGE}&tenant=drogaria-sul`);
    await screen.findByRole('table', { name: 'Pedidos por dia' });
    expect(summaries(v)).toEqual(['2025-11-01..2025-11-03 drogaria-sul']);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Empresa' })).toHaveValue('drogaria-sul'));
  });

  it('others see their own tenant, named, with no tenant picker and no tenantName sent', async () => {
    const v = render(`/dashboard/analytics${RANGE}&tenant=drogaria-sul`, OPERADOR);
    await screen.findByRole('table', { name: 'Pedidos por dia' });
    expect(screen.getByText('Dados da empresa farmacia-central')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Empresa' })).toBeNull();
    expect(summaries(v)).toEqual(['2025-11-01..2025-11-03 *']);
    expect(v.requests.some((r) => r.path === '/api/tenant/false')).toBe(false);
  });

  it('on the 7th, "Este mês" chosen again after dates typed by hand is "Este mês", not "Últimos 7 dias"', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-07T15:00:00Z'));
    try {
      const user = setupUser();
      const v = render('/dashboard/analytics');
      await screen.findByRole('table', { name: 'Pedidos por dia' });
      const period = filters().getByRole('combobox', { name: 'Período' });
      await user.selectOptions(period, 'Este mês');
      await waitFor(() => expect(v.location()).toBe('/dashboard/analytics?from=2026-11-01&to=2026-11-07'));
      await user.selectOptions(period, 'Personalizado');
      const [startDay] = await filters().findAllByRole('spinbutton', { name: /dia, Data inicial/ });
      await user.click(startDay!);
      await user.keyboard('02');
      await waitFor(() => expect(v.location()).toBe('/dashboard/analytics?from=2026-11-02&to=2026-11-07'));
      expect(period).toHaveDisplayValue('Personalizado');
      await user.selectOptions(period, 'Este mês');
      await waitFor(() => expect(v.location()).toBe('/dashboard/analytics?from=2026-11-01&to=2026-11-07'));
      expect(period).toHaveDisplayValue('Este mês');
    } finally {
      vi.useRealTimers();
    }
  });

  it('on the 7th of a month, "Este mês" stays "Este mês" (it covers the days of "Últimos 7 dias" too)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-07T15:00:00Z'));
    try {
      const user = setupUser();
      const v = render('/dashboard/analytics');
      await screen.findByRole('table', { name: 'Pedidos por dia' });
      const period = filters().getByRole('combobox', { name: 'Período' });
      await user.selectOptions(period, 'Este mês');
      await waitFor(() => expect(v.location()).toBe('/dashboard/analytics?from=2026-11-01&to=2026-11-07'));
      expect(period).toHaveDisplayValue('Este mês');
      await user.selectOptions(period, 'Últimos 7 dias');
      expect(period).toHaveDisplayValue('Últimos 7 dias');
      expect(v.location()).toBe('/dashboard/analytics?from=2026-11-01&to=2026-11-07');
    } finally {
      vi.useRealTimers();
    }
  });
});
