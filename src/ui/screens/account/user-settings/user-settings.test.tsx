// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { setupUser } from '../../../test-support/user-event';
import type { User } from '../../../../machines/session/session-storage';
import { gqlData, gqlError, json, operationOf, type SeenRequest } from '../../../../machines/test-support/fake-fetch';
import { appToasts } from '../../../components/toast-queue';
import { ADMIN_USER, renderWithServices, type RenderedApp } from '../../../test-support/render';
import UserSettingsScreen from './user-settings';

const OPERADOR: User = {
  ...ADMIN_USER,
  id: 2,
  name: 'Olga Operadora',
  username: 'operador',
  email: 'operador@demo.local',
  role: {
    id: 2,
    name: 'operador',
    display_name: 'Operador',
    version: 1,
    has_permission_routes: ['dashboard-analytics'],
  },
  twoFactorEnabled: true,
};

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

type Answer = (r: SeenRequest) => Response | undefined;

function render(answer: Answer = () => undefined, signedIn: { user?: User; permittedRoutes?: string[] } | false = {}) {
  view = renderWithServices(<UserSettingsScreen />, {
    path: '/user-settings',
    signedIn,
    respond: (r) => {
      const custom = answer(r);
      if (custom) return custom;
      if (r.path === '/api/auth/userInfo')
        return json(200, {
          user: signedIn ? (signedIn.user ?? ADMIN_USER) : ADMIN_USER,
          has_permission_routes: signedIn ? (signedIn.permittedRoutes ?? []) : [],
        });
      return json(404, { message: 'no fake' });
    },
  });
  return view;
}

const toasts = () => appToasts.visibleToasts.map((t) => t.content.title);
const op = (name: string) => (r: SeenRequest) => operationOf(r)?.name === name;

describe('UserSettingsScreen: profile', () => {
  it('shows a loading state until the signed-in user is known', () => {
    render(undefined, false);
    expect(screen.getByRole('progressbar', { name: 'Carregando…' })).toBeInTheDocument();
  });

  it('saves the own name and email with updateUser and reloads the profile', async () => {
    const user = setupUser();
    const { requests } = render((r) => (op('updateUser')(r) ? gqlData({ updateUser: { id: 1 } }) : undefined));
    expect(screen.getByText('ana.administradora')).toBeInTheDocument();
    expect(screen.getByText('Administrador')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Salvar perfil' });
    expect(save).toBeDisabled();
    const name = screen.getByRole('textbox', { name: 'Nome' });
    await user.clear(name);
    await user.type(name, 'Ana Souza');
    await user.click(save);
    await waitFor(() => expect(toasts()).toEqual(['Perfil salvo.']));
    expect(operationOf(requests.find(op('updateUser'))!)?.variables).toEqual({
      id: 1,
      name: 'Ana Souza',
      email: 'admin@demo.local',
    });
    const saveAt = requests.findIndex(op('updateUser'));
    await waitFor(() => expect(requests.slice(saveAt).some((r) => r.path === '/api/auth/userInfo')).toBe(true));
  });

  it('refuses an invalid email locally and shows a taken one on the field', async () => {
    const user = setupUser();
    const { requests } = render((r) => (op('updateUser')(r) ? gqlError('BAD_USER_INPUT', 'email') : undefined));
    const email = screen.getByRole('textbox', { name: 'E-mail' });
    await user.clear(email);
    await user.type(email, 'ana@');
    await user.click(screen.getByRole('button', { name: 'Salvar perfil' }));
    expect(await screen.findByText('Informe um e-mail válido, como nome@empresa.com.br.')).toBeInTheDocument();
    expect(requests.some(op('updateUser'))).toBe(false);
    await user.type(email, 'demo.local');
    // A new address asks for the current password, and nothing goes out without it.
    await user.click(screen.getByRole('button', { name: 'Salvar perfil' }));
    expect(await screen.findByText('Informe sua senha atual.')).toBeInTheDocument();
    expect(requests.some(op('updateUser'))).toBe(false);
    await user.type(screen.getByLabelText('Confirme com sua senha atual'), 'Back#Office!Demo');
    await user.click(screen.getByRole('button', { name: 'Salvar perfil' }));
    expect(await screen.findByText('E-mail inválido ou já usado por outra conta.')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(operationOf(requests.find(op('updateUser'))!)?.variables).toMatchObject({
      email: 'ana@demo.local',
      current_password: 'Back#Office!Demo',
    });
  });

  it('says when the current password given for a new email is wrong', async () => {
    const user = setupUser();
    render((r) => (op('updateUser')(r) ? gqlError('BAD_USER_INPUT', 'current_password') : undefined));
    const email = screen.getByRole('textbox', { name: 'E-mail' });
    await user.clear(email);
    await user.type(email, 'outra@demo.local');
    await user.type(screen.getByLabelText('Confirme com sua senha atual'), 'Wrong#Pass-1');
    await user.click(screen.getByRole('button', { name: 'Salvar perfil' }));
    expect(await screen.findByText('A senha atual não confere.')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirme com sua senha atual')).toHaveAttribute('aria-invalid', 'true');
  });

  it('lets a user without the users permission edit their own profile, and says so when a server refuses', async () => {
    const user = setupUser();
    render(undefined, { user: OPERADOR, permittedRoutes: ['dashboard-analytics'] });
    expect(screen.getByRole('textbox', { name: 'Nome' })).not.toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Salvar perfil' })).toBeInTheDocument();
    expect(screen.getByText('Ativada')).toBeInTheDocument();
    view?.unmount();
    render((r) => (op('updateUser')(r) ? gqlError('FORBIDDEN', undefined, 403) : undefined), {
      user: OPERADOR,
      permittedRoutes: ['dashboard-analytics'],
    });
    await user.type(screen.getByRole('textbox', { name: 'Nome' }), ' S.');
    await user.click(screen.getByRole('button', { name: 'Salvar perfil' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Não foi possível salvar o perfil. Você não tem permissão para esta ação.',
    );
  });
});

describe('UserSettingsScreen: password', () => {
  it('shows the strength as fraca and refuses a weak password with the reason, sending nothing', async () => {
    const user = setupUser();
    const { requests } = render();
    await user.type(screen.getByLabelText('Nova senha'), 'abc12345');
    expect(screen.getByRole('meter', { name: 'Força da senha' })).toHaveAttribute('aria-valuetext', 'fraca');
    await user.type(screen.getByLabelText('Confirme a nova senha'), 'abc12345');
    await user.click(screen.getByRole('button', { name: 'Alterar senha' }));
    expect(
      await screen.findByText('Senha fraca: evite 3 caracteres iguais seguidos e sequências como abc ou 123.'),
    ).toBeInTheDocument();
    expect(requests.some(op('updateUserPassword'))).toBe(false);
  });

  it('changes a strong password, keeps the session on the rotated token and reloads the profile', async () => {
    const user = setupUser();
    // Like the server: the password change revokes every earlier token, the one it was sent with too.
    let rotated = false;
    const { requests, services } = render((r) => {
      if (rotated && r.headers.get('authorization') === 'Bearer test-token')
        return json(401, { status: 'Unauthorized' });
      if (!op('updateUserPassword')(r)) return undefined;
      rotated = true;
      return gqlData({ updateUserPassword: { token: 'T9', expires_in: 900, user: ADMIN_USER } });
    });
    const field = screen.getByLabelText('Nova senha');
    await user.type(field, 'Farmac1a');
    expect(screen.getByRole('meter', { name: 'Força da senha' })).toHaveAttribute('aria-valuetext', 'média');
    await user.clear(field);
    await user.type(field, 'Farm@c1a-Boa!');
    expect(screen.getByRole('meter', { name: 'Força da senha' })).toHaveAttribute('aria-valuetext', 'forte');
    await user.type(screen.getByLabelText('Confirme a nova senha'), 'Farm@c1a-Boa');
    await user.click(screen.getByRole('button', { name: 'Alterar senha' }));
    expect(await screen.findByText('As senhas não conferem.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Confirme a nova senha'), '!');
    await user.click(screen.getByRole('button', { name: 'Alterar senha' }));
    expect(await screen.findByText('Informe sua senha atual.')).toBeInTheDocument();
    expect(requests.some(op('updateUserPassword'))).toBe(false);
    await user.type(screen.getByLabelText('Senha atual'), 'Back#Office!Demo');
    await user.click(screen.getByRole('button', { name: 'Alterar senha' }));
    await waitFor(() => expect(toasts()).toEqual(['Senha alterada. As outras sessões foram encerradas.']));
    const sent = requests.find(op('updateUserPassword'))!;
    expect(operationOf(sent)?.variables).toEqual({ password: 'Farm@c1a-Boa!', current_password: 'Back#Office!Demo' });
    expect(sent.headers.get('authorization')).toBe('Bearer test-token');
    expect(services.session.getSnapshot().context.token).toBe('T9');
    expect(window.localStorage.getItem('accessToken')).toBe('T9');
    const after = requests.slice(requests.indexOf(sent) + 1);
    await waitFor(() =>
      expect(after.find((r) => r.path === '/api/auth/userInfo')?.headers.get('authorization')).toBe('Bearer T9'),
    );
    expect(services.session.getSnapshot().hasTag('authenticated')).toBe(true);
    expect(screen.getByLabelText('Nova senha')).toHaveValue('');
  });

  it('says why the change failed and keeps the old session', async () => {
    const user = setupUser();
    const { services } = render((r) =>
      op('updateUserPassword')(r) ? json(503, { status: 'unavailable', message: 'down' }) : undefined,
    );
    await user.type(screen.getByLabelText('Senha atual'), 'Back#Office!Demo');
    await user.type(screen.getByLabelText('Nova senha'), 'Farm@c1a-Boa!');
    await user.type(screen.getByLabelText('Confirme a nova senha'), 'Farm@c1a-Boa!');
    await user.click(screen.getByRole('button', { name: 'Alterar senha' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Não foi possível alterar a senha. Serviço indisponível. Tente mais tarde.',
    );
    expect(services.session.getSnapshot().context.token).toBe('test-token');
    expect(toasts()).toEqual([]);
  });
});
