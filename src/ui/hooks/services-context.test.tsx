// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { json } from '../../machines/test-support/fake-fetch';
import { selectIsAuthenticated, selectUser } from '../../machines/session/session-selectors';
import { useServices, useSession } from './services-context';
import { ADMIN_USER, renderWithServices } from '../test-support/render';

function Probe() {
  const user = useSession(selectUser);
  const signedIn = useSession(selectIsAuthenticated);
  const { clients } = useServices();
  const [count, setCount] = useState<string>('…');
  useEffect(() => {
    void clients.rest
      .GET('/api/users')
      .then((r) => setCount(r.response.ok ? String(r.data?.length) : `HTTP ${r.response.status}`));
  }, [clients]);
  return (
    <p>
      {signedIn ? `in as ${user?.name}` : 'signed out'} · users {count}
    </p>
  );
}

describe('renderWithServices', () => {
  it('restores a signed-in session and sends its token through the typed client', async () => {
    const view = renderWithServices(<Probe />, {
      signedIn: {},
      respond: (request) =>
        request.path === '/api/users' && request.headers.get('authorization') === 'Bearer test-token'
          ? json(200, [ADMIN_USER, { ...ADMIN_USER, id: 2 }])
          : json(404, { message: 'unexpected' }),
    });
    expect(await screen.findByText(`in as ${ADMIN_USER.name} · users 2`)).toBeInTheDocument();
    view.unmount();
  });

  it('signs out on a terminal 401, through the real session machine', async () => {
    const view = renderWithServices(<Probe />, { signedIn: {}, respond: () => json(401, { status: 'Unauthorized' }) });
    await waitFor(() => expect(screen.getByText(/signed out/)).toBeInTheDocument());
    expect(window.localStorage.getItem('accessToken')).toBeNull();
    view.unmount();
  });
});
