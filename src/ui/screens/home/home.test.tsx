// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react';
import ptBR from '../../../i18n/pt-BR.json';
import type { Attention, AttentionItem } from '../../../machines/home/home.machine';
import { gqlData, json, operationOf, type Responder } from '../../../machines/test-support/fake-fetch';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import HomeScreen from './home';

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

const item = (over: Partial<AttentionItem> = {}): AttentionItem => ({
  id: 1,
  name: 'x',
  tenantName: 'acme',
  instanceName: null,
  count: null,
  limit: null,
  retryAfter: null,
  ...over,
});

const some: Attention = {
  tenantsOverUserLimit: { total: 1, items: [item({ id: 4, name: 'acme', count: 6, limit: 5 })] },
  failedSyncs: { total: 12, items: Array.from({ length: 10 }, (_, i) => item({ id: 20 + i, name: `Loja ${i}` })) },
  disconnectedConnections: { total: 0, items: [] },
  lockedAccounts: { total: 1, items: [item({ id: 9, name: 'Bia', tenantName: 'drogaria', retryAfter: 600 })] },
};

function answer(attention: Attention | null): Responder {
  return (request) =>
    operationOf(request)?.name === 'attention'
      ? attention
        ? gqlData({ attention })
        : json(503, { status: 'unavailable' })
      : json(404, {});
}

function render(respond: Responder) {
  view = renderWithServices(<HomeScreen />, { signedIn: {}, respond });
  return view;
}

const t = ptBR.home.attention;

describe('HomeScreen', () => {
  it('shows each kind with items, its total, and links to where each item is fixed', async () => {
    render(answer(some));
    const over = await screen.findByRole('region', { name: `${t.kinds.tenantsOverUserLimit} 1` });
    expect(within(over).getByRole('link', { name: /acme/ })).toHaveAttribute('href', '/tenants?search=acme');
    expect(within(over).getByText('6 de 5 usuários')).toBeInTheDocument();
    const syncs = screen.getByRole('region', { name: `${t.kinds.failedSyncs} 12` });
    expect(within(syncs).getAllByRole('link')).toHaveLength(10);
    expect(within(syncs).getAllByRole('link')[0]).toHaveAttribute('href', '/tenants?panel=instances&tenant=acme');
    expect(within(syncs).getByText('e mais 2')).toBeInTheDocument();
    const locked = screen.getByRole('region', { name: `${t.kinds.lockedAccounts} 1` });
    expect(within(locked).getByRole('link', { name: /Bia/ })).toHaveAttribute('href', '/support/users/9');
    expect(within(locked).getByText('drogaria · Liberada em 10 min')).toBeInTheDocument();
    // A kind with nothing is not shown.
    expect(screen.queryByRole('region', { name: new RegExp(t.kinds.disconnectedConnections) })).toBeNull();
  });

  it('says so when nothing needs attention', async () => {
    render(answer({ ...some, tenantsOverUserLimit: null, failedSyncs: null, lockedAccounts: null }));
    expect(await screen.findByText(t.empty)).toBeInTheDocument();
  });

  it('a failed load says so and offers a retry', async () => {
    render(answer(null));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(t.error)).toBeInTheDocument();
    expect(within(alert).getByRole('button', { name: ptBR.common.retry })).toBeInTheDocument();
  });

  it('shows the starred pages as tiles, and no menu tiles', async () => {
    const { services } = render(answer(some));
    act(() => services.preferences.send({ type: 'prefs.star', page: { href: '/audit', titleKey: 'routes.audit' } }));
    const starred = screen.getByRole('heading', { name: ptBR.home.starred }).closest('section') ?? document.body;
    expect(within(starred as HTMLElement).getByRole('link', { name: ptBR.routes.audit })).toHaveAttribute(
      'href',
      '/audit',
    );
    expect(screen.queryByRole('link', { name: ptBR.routes.users })).toBeNull();
  });
});
