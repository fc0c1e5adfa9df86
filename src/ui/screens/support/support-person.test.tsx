// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { Route } from 'wouter';
import ptBR from '../../../i18n/pt-BR.json';
import { formatDateTime } from '../../../domain/format';
import type { SupportAttempt, SupportPerson } from '../../../machines/support/support-actors';
import { json, type SeenRequest } from '../../../machines/test-support/fake-fetch';
import { auditRecord } from '../../../machines/test-support/fake-audit-api';
import { supportPerson } from '../../../machines/test-support/support-fixtures';
import { appToasts } from '../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../test-support/render';
import { setupUser } from '../../test-support/user-event';
import SupportPersonScreen from './support-person';

const keys = setupUser();

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

/** The toasts shown, as [variant, title, description]. */
const toasts = () =>
  appToasts.visibleToasts.map(({ content }) => [content.variant, content.title, content.description]);

const REASONS = Object.keys(ptBR.support.reasons) as (keyof typeof ptBR.support.reasons)[];
const STRONG = 'Farm#cia!Azul';

/**
 * The person's page against a fake desk: `GET` answers `person`, each action answers what `act`
 * returns for it (the new person, or an error response), and every request is kept.
 */
function deskApi(person: SupportPerson, act: (request: SeenRequest) => Response = () => json(200, person)) {
  return (request: SeenRequest) => {
    if (request.method === 'GET' && request.path === `/api/support/users/${person.user.id}`) return json(200, person);
    if (request.method === 'POST' && request.path.startsWith(`/api/support/users/${person.user.id}/`))
      return act(request);
    return json(404, { message: `no fake for ${request.method} ${request.path}` });
  };
}

// The screen reads `:id` with wouter's useParams, which needs a matched <Route>: give it one.
function render(person: SupportPerson, act?: (request: SeenRequest) => Response, query = '') {
  view = renderWithServices(
    <Route path="/support/users/:id">
      <SupportPersonScreen />
    </Route>,
    { path: `/support/users/${person.user.id}${query}`, signedIn: {}, respond: deskApi(person, act) },
  );
  return view;
}

const actions = () => screen.getByRole('region', { name: ptBR.support.actions.title });
const loads = () => view?.requests.filter((r) => r.method === 'GET' && r.path === '/api/support/users/12') ?? [];
const posts = () => view?.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/support/')) ?? [];

describe('SupportPersonScreen', () => {
  it('shows who the person is, the throttle, every attempt with its reason translated, the sessions and the history', async () => {
    const person = supportPerson({
      attempts: REASONS.map<SupportAttempt>((reason, index) => ({
        id: index + 1,
        at: `2026-11-28T09:${String(10 + index).padStart(2, '0')}:00.000Z`,
        success: false,
        reason,
        address: `203.0.113.${index + 1}`,
        claimed_ip: null,
      })).concat([
        {
          id: 99,
          at: '2026-11-28T08:00:00.000Z',
          success: true,
          reason: null,
          address: '198.51.100.4',
          claimed_ip: '10.0.0.4',
        },
      ]),
      audit: [
        auditRecord(501, { operation: 'user.block', target_type: 'user', target_id: 12, target_name: 'Joana Silva' }),
      ],
    });
    render(person, undefined, '?q=joana');
    expect(await screen.findByRole('heading', { level: 2, name: /Joana Silva/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: ptBR.support.person.back })).toHaveAttribute('href', '/support?q=joana');
    expect(screen.getByText('joana@farmacia.test')).toBeInTheDocument();
    expect(screen.getByText(/volta a ser aceita em 14 min/)).toBeInTheDocument();
    expect(screen.getByText('5 falhas contadas na janela.')).toBeInTheDocument();

    const attempts = screen.getByRole('grid', { name: ptBR.support.attempts.tableLabel });
    const rows = within(attempts).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(REASONS.length + 1);
    REASONS.forEach((reason, index) => {
      expect(rows[index]).toHaveTextContent(ptBR.support.reasons[reason]);
      expect(rows[index]).toHaveTextContent(`203.0.113.${index + 1}`);
    });
    expect(rows[REASONS.length]).toHaveTextContent(ptBR.support.attempts.success);
    expect(rows[REASONS.length]).toHaveTextContent('10.0.0.4');
    expect(rows[0]).toHaveTextContent(formatDateTime('2026-11-28T09:10:00.000Z', 'pt-BR'));

    const sessions = screen.getByRole('grid', { name: ptBR.support.sessions.tableLabel });
    const session = within(sessions).getAllByRole('row')[1];
    for (const text of [
      'Chrome 131 · Windows',
      '203.0.113.7',
      formatDateTime('2026-11-27T12:04:55.000Z', 'pt-BR'),
      'Não',
    ])
      expect(session).toHaveTextContent(text);

    const history = screen.getByRole('grid', { name: ptBR.support.history.tableLabel });
    expect(within(history).getAllByRole('row')[1]).toHaveTextContent(ptBR.audit.operation.user.block);
  });

  it('lifts the throttle: the page shows the answered person at once, with a toast', async () => {
    const person = supportPerson();
    const lifted = supportPerson({ throttle: { throttled: false, retryAfter: null, failures: 0 } });
    render(person, () => json(200, lifted));
    await keys.click(await screen.findByRole('button', { name: ptBR.support.actions.liftThrottle }));
    expect(await screen.findByText(ptBR.support.throttle.clear)).toBeInTheDocument();
    expect(toasts()).toEqual([['success', ptBR.support.done.liftThrottle, 'Joana Silva']]);
    expect(posts().map((r) => r.path)).toEqual(['/api/support/users/12/lift-throttle']);
    // Nothing counted any more: the button says why it is off.
    expect(screen.getByRole('button', { name: ptBR.support.actions.liftThrottle })).toBeDisabled();
    expect(screen.getByText(ptBR.support.actions.liftThrottleHint)).toBeInTheDocument();
    // One load only: the answer was the page's new state.
    expect(loads()).toHaveLength(1);
  });

  it('sets a temporary password through a dialog that refuses a weak one with the user form’s rule', async () => {
    const person = supportPerson();
    render(person, () => json(200, supportPerson({ mustChangePassword: true })));
    await keys.click(await screen.findByRole('button', { name: ptBR.support.actions.temporaryPassword }));
    const dialog = await screen.findByRole('dialog', { name: 'Senha temporária para Joana Silva' });
    const field = within(dialog).getByLabelText(ptBR.support.dialogs.temporaryPasswordField, {
      exact: false,
      selector: 'input',
    });
    await keys.type(field, 'abc12345');
    await keys.click(within(dialog).getByRole('button', { name: ptBR.support.dialogs.temporaryPasswordSubmit }));
    expect(await within(dialog).findByText(ptBR.users.form.passwordWeak)).toBeInTheDocument();
    expect(posts()).toHaveLength(0);
    await keys.clear(field);
    await keys.type(field, STRONG);
    await keys.click(within(dialog).getByRole('button', { name: ptBR.support.dialogs.temporaryPasswordSubmit }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts()[0]?.body).toEqual({ password: STRONG });
    expect(await screen.findByText(ptBR.support.person.mustChange)).toBeInTheDocument();
  });

  it('says why a reset link cannot be sent when the server sends no mail', async () => {
    render(supportPerson({ resetLinks: { enabled: false } }));
    const button = await screen.findByRole('button', { name: ptBR.support.actions.resetLink });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(ptBR.support.actions.resetLinkDisabled);
  });

  it('sends a reset link and reloads the page (the answer is not the person)', async () => {
    const person = supportPerson();
    render(person, () => json(200, { sent: true, expires_at: new Date(Date.now() + 30 * 60_000).toISOString() }));
    await keys.click(await screen.findByRole('button', { name: ptBR.support.actions.resetLink }));
    await waitFor(() =>
      expect(toasts()).toEqual([['success', 'Link de redefinição enviado; vale por 30 minutos.', 'Joana Silva']]),
    );
    await waitFor(() => expect(loads()).toHaveLength(2));
  });

  it("blocking asks first; the server's refusal shows in the dialog, which stays open", async () => {
    render(supportPerson(), () =>
      json(403, { message: 'Forbidden', reason: 'this user holds permissions you do not hold' }),
    );
    await keys.click(await screen.findByRole('button', { name: ptBR.support.actions.block }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Bloquear Joana Silva?' });
    expect(posts()).toHaveLength(0);
    await keys.click(within(dialog).getByRole('button', { name: ptBR.support.dialogs.blockConfirm }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(ptBR.access.actOnLacks);
    expect(posts()[0]?.body).toEqual({ blocked: true });
    await keys.click(within(dialog).getByRole('button', { name: ptBR.common.cancel }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('ends one session after confirming, and the page shows none left', async () => {
    render(supportPerson(), () => json(200, supportPerson({ sessions: [] })));
    await keys.click(await screen.findByRole('button', { name: 'Encerrar a sessão de Chrome 131 · Windows' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Encerrar a sessão de Chrome 131 · Windows?' });
    await keys.click(within(dialog).getByRole('button', { name: ptBR.support.dialogs.endConfirm }));
    expect(await screen.findByText(ptBR.support.sessions.none)).toBeInTheDocument();
    expect(posts()[0]).toMatchObject({
      path: '/api/support/users/12/sessions/end',
      body: { session_id: '0b6f5c1e-2d1a-4f7e-9a55-3c1f0e8d2b71' },
    });
    expect(screen.getByRole('button', { name: ptBR.support.actions.endAll })).toBeDisabled();
  });

  it('offers the two-factor actions that would change something; a reset asks first', async () => {
    const required = supportPerson({ user: { twoFactorEnrolmentRequired: true } });
    render(required, () => json(200, supportPerson()));
    await keys.click(await screen.findByRole('button', { name: ptBR.support.actions.twoFactorUnrequire }));
    await waitFor(() => expect(toasts()).toEqual([['success', ptBR.support.done.twoFactor.unrequire, 'Joana Silva']]));
    expect(posts()[0]?.body).toEqual({ action: 'unrequire' });
    expect(await screen.findByRole('button', { name: ptBR.support.actions.twoFactorRequire })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: ptBR.support.actions.twoFactorReset })).toBeNull();
    view?.unmount();

    render(supportPerson({ user: { twoFactorEnabled: true } }), () => json(200, supportPerson()));
    await keys.click(await screen.findByRole('button', { name: ptBR.support.actions.twoFactorReset }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Redefinir os dois fatores de Joana Silva?' });
    await keys.click(within(dialog).getByRole('button', { name: ptBR.support.dialogs.twoFactorResetConfirm }));
    await waitFor(() => expect(posts().at(-1)?.body).toEqual({ action: 'reset' }));
  });

  it('offers only restore for a deleted user, and says why a restore is refused', async () => {
    const deleted = supportPerson({ user: { deletedAt: '2026-11-20T15:00:00.000Z' }, sessions: [] });
    render(deleted, () => json(409, { message: 'Conflict', error: 'email_taken' }));
    const panel = await waitFor(actions);
    expect(
      within(panel)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([ptBR.support.actions.restore]);
    expect(within(panel).getByText(ptBR.support.actions.deletedNote)).toBeInTheDocument();
    await keys.click(within(panel).getByRole('button', { name: ptBR.support.actions.restore }));
    await waitFor(() =>
      expect(toasts()).toEqual([['error', ptBR.support.failed.restore, ptBR.support.refusals.email_taken]]),
    );
  });

  it("refuses the caller's own account with the desk's own words, and an id that is not one", async () => {
    const person = supportPerson({ user: { id: 1 } });
    view = renderWithServices(
      <Route path="/support/users/:id">
        <SupportPersonScreen />
      </Route>,
      {
        path: '/support/users/1',
        signedIn: {},
        respond: () => json(409, { message: 'Own account', error: 'own_account' }),
      },
    );
    expect(await screen.findByText(ptBR.support.refusals.own_account)).toBeInTheDocument();
    expect(person.user.id).toBe(1);
    view.unmount();
    view = renderWithServices(
      <Route path="/support/users/:id">
        <SupportPersonScreen />
      </Route>,
      { path: '/support/users/abc', signedIn: {}, respond: () => json(500, { message: 'unexpected' }) },
    );
    expect(await screen.findByText(ptBR.apiErrors.notFound)).toBeInTheDocument();
    expect(view.requests.filter((r) => r.path.startsWith('/api/support/'))).toHaveLength(0);
  });
});
