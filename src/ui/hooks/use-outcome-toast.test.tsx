// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createActor, emit, setup } from 'xstate';
import { createI18n } from '../../i18n/setup';
import { failed, succeeded, type Outcome } from '../../machines/shared/outcome';
import { appToasts } from '../components/toast-queue';
import { useOutcomeToast } from './use-outcome-toast';

const outcomes = setup({
  types: { events: {} as { type: 'report'; outcome: Outcome<'delete'> }, emitted: {} as Outcome<'delete'> },
}).createMachine({
  on: { report: { actions: emit(({ event }) => event.outcome) } },
});

function started() {
  const actor = createActor(outcomes).start();
  const i18n = createI18n('pt-BR');
  const seen: Outcome<'delete'>[] = [];
  const wrapper = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
  const hook = renderHook(() => useOutcomeToast(actor, (outcome) => seen.push(outcome)), { wrapper });
  const report = (outcome: Outcome<'delete'>) => act(() => actor.send({ type: 'report', outcome }));
  return { report, seen, hook };
}

const shown = () => appToasts.visibleToasts.map((toast) => toast.content);

describe('useOutcomeToast', () => {
  beforeEach(() => appToasts.clear());

  it('toasts each outcome translated, a message parameter translated first, and hands it to the view', () => {
    const { report, seen } = started();
    const refusal = failed('delete', {
      variant: 'error',
      title: { key: 'tenants.errors.delete' },
      description: {
        key: 'tenants.screen.failureFor',
        params: { name: 'farmacia-central', why: { key: 'apiErrors.conflict' } },
      },
    });
    report(refusal);
    report(succeeded('delete', { key: 'tenants.notices.deleted' }, 'farmacia-central'));
    report(succeeded('delete', { key: 'tenants.notices.deleted' }, 'farmacia-central'));
    const i18n = createI18n('pt-BR');
    // Newest first (components/toast-queue.ts). Two equal outcomes in a row both count.
    expect(shown()).toEqual([
      { variant: 'success', title: i18n.t('tenants.notices.deleted'), description: 'farmacia-central' },
      { variant: 'success', title: i18n.t('tenants.notices.deleted'), description: 'farmacia-central' },
      {
        variant: 'error',
        title: i18n.t('tenants.errors.delete'),
        description: i18n.t('tenants.screen.failureFor', {
          name: 'farmacia-central',
          why: i18n.t('apiErrors.conflict'),
        }),
      },
    ]);
    expect(shown()[2]?.description).toContain('farmacia-central');
    expect(shown()[1]?.title).toBe('Empresa excluída.');
    expect(seen.map((o) => o.ok)).toEqual([false, true, true]);
  });

  it('shows nothing for an outcome without a toast, and stops listening when unmounted', () => {
    const { report, seen, hook } = started();
    report(failed('delete', null));
    expect(shown()).toEqual([]);
    expect(seen).toHaveLength(1);
    hook.unmount();
    report(succeeded('delete', { key: 'tenants.notices.deleted' }));
    expect(shown()).toEqual([]);
    expect(seen).toHaveLength(1);
  });
});
