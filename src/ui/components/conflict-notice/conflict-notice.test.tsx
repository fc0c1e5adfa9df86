// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import type { Conflict } from '../../../machines/shared/conflict';
import { renderUi } from '../../test-support/test-utils';
import { ConflictNotice } from './conflict-notice';

afterEach(cleanup);

const theirs: Conflict = {
  source: 'save',
  kept: true,
  version: 5,
  changes: [
    {
      id: 100,
      at: '2026-11-28T10:00:00.000Z',
      actorName: 'Bruna Souza',
      actorStaff: false,
      operation: 'role.permissions',
      changes: [{ field: 'permissions', before: '["users"]', after: '["dashboard-report","users"]' }],
    },
  ],
};
const mine = [{ field: 'permissions', before: '["users"]', after: '[]' }];
const names: Record<string, string> = { users: 'Usuários', 'dashboard-report': 'Relatório' };

function render(conflict: Conflict, handlers = { onReapply: vi.fn(), onDiscard: vi.fn(), onDismiss: vi.fn() }) {
  renderUi(
    <ConflictNotice
      conflict={conflict}
      mine={mine}
      targetType="role"
      itemLabel={(_field, item) => names[item] ?? item}
      {...handlers}
    />,
  );
  return handlers;
}

describe('ConflictNotice', () => {
  it("shows who changed what beside the user's values, and offers reapply and discard", async () => {
    const handlers = render(theirs);
    const notice = screen.getByRole('region', { name: 'Este registro foi alterado em outro lugar' });
    const other = within(notice).getByRole('region', { name: 'A alteração feita em outro lugar' });
    expect(other.textContent).toContain('Bruna Souza');
    expect(other.textContent).toContain('Permissões');
    expect(within(other).getByText('+ Relatório (adicionada)')).toBeTruthy();
    const own = within(notice).getByRole('region', { name: 'As suas alterações, não salvas' });
    expect(within(own).getByText('− Usuários (removida)')).toBeTruthy();
    // A refused save moves focus to the notice's heading.
    expect(document.activeElement?.textContent).toBe('Este registro foi alterado em outro lugar');
    await userEvent.click(screen.getByRole('button', { name: 'Reaplicar as minhas' }));
    await userEvent.click(screen.getByRole('button', { name: 'Descartar as minhas' }));
    expect(handlers.onReapply).toHaveBeenCalledTimes(1);
    expect(handlers.onDiscard).toHaveBeenCalledTimes(1);
  });

  it('after a reload with nothing unsaved, only says what changed and closes', async () => {
    const handlers = render({ ...theirs, source: 'live', kept: false });
    expect(screen.queryByRole('button', { name: 'Reaplicar as minhas' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'As suas alterações, não salvas' })).toBeNull();
    // Announced without taking focus from where the user is.
    expect(document.activeElement).toBe(document.body);
    await userEvent.click(screen.getByRole('button', { name: 'Fechar' }));
    expect(handlers.onDismiss).toHaveBeenCalledTimes(1);
  });

  it('says when the details cannot be read, and shows plain fields before → after', () => {
    renderUi(
      <>
        <ConflictNotice
          conflict={{ ...theirs, changes: [] }}
          mine={[]}
          targetType="role"
          onReapply={() => undefined}
          onDiscard={() => undefined}
          onDismiss={() => undefined}
        />
        <ConflictNotice
          conflict={{
            ...theirs,
            changes: [
              {
                ...theirs.changes[0]!,
                actorName: null,
                changes: [{ field: 'name', before: '"Ana"', after: '"Ana Maria"' }],
              },
            ],
          }}
          mine={[]}
          targetType="user"
          onReapply={() => undefined}
          onDiscard={() => undefined}
          onDismiss={() => undefined}
        />
      </>,
    );
    expect(screen.getByText('Os detalhes da alteração não estão disponíveis (veja a Auditoria).')).toBeTruthy();
    const notices = screen.getAllByTestId('conflict-notice');
    expect(notices[1]?.textContent).toContain('Outra pessoa');
    expect(notices[1]?.textContent).toContain('Ana→Ana Maria');
  });

  it('axe finds nothing in either form of the notice', async () => {
    const check = async () =>
      (
        await axe.run(document.body, {
          rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
        })
      ).violations.map((v) => v.id);
    render(theirs);
    expect(await check()).toEqual([]);
    cleanup();
    render({ ...theirs, source: 'live', kept: false });
    expect(await check()).toEqual([]);
  });
});
