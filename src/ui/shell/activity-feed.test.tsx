// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react';
import type { AppEventData } from '../../domain/socket-events';
import { renderWithServices, type RenderedApp } from '../test-support/render';
import { ActivityFeed } from './activity-feed';
import { setupUser } from '../test-support/user-event';

const keys = setupUser();

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

function publish(app: RenderedApp, data: AppEventData['auditRecorded']) {
  act(() =>
    app.services.bus.publish({
      name: 'auditRecorded',
      data,
      tenantName: 'backoffice',
      sentAt: new Date().toISOString(),
    }),
  );
}

const record = (over: Partial<AppEventData['auditRecorded']>): AppEventData['auditRecorded'] => ({
  id: 1,
  at: new Date().toISOString(),
  operation: 'tenant.plan',
  targetType: 'tenant',
  targetId: 2,
  targetName: 'farmacia-x',
  ...over,
});

describe('ActivityFeed: audit records', () => {
  it('describes each record in one translated line with its target', async () => {
    view = renderWithServices(<ActivityFeed />, { signedIn: {} });
    publish(view, record({}));
    publish(view, record({ id: 2, operation: 'user.block', targetType: 'user', targetId: 7, targetName: null }));
    publish(view, record({ id: 3, operation: 'audit.purge', targetType: 'system', targetId: null, targetName: null }));
    await keys.click(await screen.findByRole('button', { name: 'Atividade recente: 3 novas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Atividade recente' });
    const lines = within(dialog).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual([
      expect.stringContaining('Registros de auditoria antigos removidos'),
      expect.stringContaining('Usuário Usuário nº 7 bloqueado'),
      expect.stringContaining('Plano da empresa farmacia-x alterado'),
    ]);
    expect(lines[2]).toHaveTextContent('Alteração registrada');
  });

  it('speaks the language of the panel', async () => {
    view = renderWithServices(<ActivityFeed />, { signedIn: {}, locale: 'en' });
    publish(view, record({ operation: 'role.permissions', targetType: 'role', targetName: 'operador' }));
    await keys.click(await screen.findByRole('button', { name: /Recent activity: 1/ }));
    expect(await screen.findByText('Permissions of role operador changed')).toBeVisible();
  });
});
