// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { setupUser } from '../../../test-support/user-event';
import { json, type SeenRequest } from '../../../../machines/test-support/fake-fetch';
import type { TwoFactorStatus } from '../../../../machines/account/two-factor.machine';
import { Link } from '../../../components/link';
import { appToasts } from '../../../components/toast-queue';
import { renderWithServices, type RenderedApp } from '../../../test-support/render';
import TwoFactorScreen from './two-factor';

const off: TwoFactorStatus = { enabled: false, enrolled_at: null, recovery_codes_left: 0 };
const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 37 37"><path d="M4 4h7v7H4z"/></svg>';
const enrolment = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauth_uri:
    'otpauth://totp/Back-office%20panel:admin%40demo.local?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Back-office+panel',
  qr_svg: svg,
};
const codes = [
  'ABCDE-FGHIJ',
  'KLMNO-PQRST',
  'UVWXY-Z2345',
  'A6B7C-D2E3F',
  'GHJKL-MNPQR',
  'STUVW-XYZ23',
  'A2B3C-4D5E6',
  'F7G2H-3J4K5',
  'L6M7N-2P3Q4',
  'R5S6T-7U2V3',
];
const wrongCode = () => json(400, { message: 'Invalid code', errors: [{ field: 'body/code', message: 'wrong' }] });

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  appToasts.clear();
});

function render(
  status: TwoFactorStatus | (() => Response),
  answer: (r: SeenRequest) => Response | undefined = () => undefined,
) {
  view = renderWithServices(
    <>
      <TwoFactorScreen />
      <Link href="/">Início</Link>
    </>,
    {
      path: '/two-factor',
      signedIn: {},
      respond: (r) =>
        answer(r) ??
        (r.path === '/api/two-factor'
          ? typeof status === 'function'
            ? status()
            : json(200, status)
          : json(404, { message: 'no fake' })),
    },
  );
  return view;
}

const toasts = () => appToasts.visibleToasts.map((t) => t.content.title);

describe('TwoFactorScreen', () => {
  it('enrols with the server QR as an image, refuses a wrong code, then shows the recovery codes once', async () => {
    const user = setupUser();
    const createObjectURL = vi.fn((blob: Blob) => (void blob, 'blob:codes'));
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const { requests, location } = render(off, (r) => {
      if (r.path === '/api/two-factor/enrol') return json(200, enrolment);
      if (r.path === '/api/two-factor/verify') {
        return (r.body as { code: string }).code === '492039'
          ? json(200, { enabled: true, enrolled_at: '2026-11-21T10:00:00Z', recovery_codes: codes })
          : wrongCode();
      }
      return undefined;
    });
    expect(await screen.findByText('Desativada')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ativar autenticação em dois fatores' }));
    const qr = await screen.findByRole('img', { name: 'QR code para adicionar esta conta ao aplicativo autenticador' });
    const src = qr.getAttribute('src') ?? '';
    expect(src.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(atob(src.slice(src.indexOf(',') + 1))).toBe(svg);
    expect(document.querySelector('path[d="M4 4h7v7H4z"]')).toBeNull();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    expect(screen.getByText(enrolment.otpauth_uri)).toBeInTheDocument();

    const field = screen.getByRole('textbox', { name: 'Código de 6 dígitos' });
    await user.type(field, '12ab');
    await user.click(screen.getByRole('button', { name: 'Confirmar e ativar' }));
    expect(await screen.findByText('Digite os 6 dígitos do aplicativo autenticador.')).toBeInTheDocument();
    expect(requests.some((r) => r.path === '/api/two-factor/verify')).toBe(false);
    await user.clear(field);
    await user.type(field, '000000');
    await user.click(screen.getByRole('button', { name: 'Confirmar e ativar' }));
    expect(
      await screen.findByText('Código incorreto ou expirado. Digite o código que o aplicativo mostra agora.'),
    ).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.clear(field);
    await user.type(field, '492 039');
    await user.click(screen.getByRole('button', { name: 'Confirmar e ativar' }));

    const list = await screen.findByRole('list', { name: 'Seus 10 códigos de recuperação' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(codes);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Guarde estes códigos agora: eles não serão mostrados de novo.',
    );
    expect(requests.filter((r) => r.path === '/api/two-factor/verify').at(-1)?.body).toEqual({ code: '492039' });
    await waitFor(() => expect(requests.filter((r) => r.path === '/api/auth/userInfo').length).toBeGreaterThan(1));
    expect(toasts()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Copiar códigos' }));
    expect(await navigator.clipboard.readText()).toBe(codes.join('\n'));
    await user.click(screen.getByRole('button', { name: 'Baixar arquivo .txt' }));
    const file = await createObjectURL.mock.calls[0]![0].text();
    expect(file).toContain('admin@demo.local');
    for (const code of codes) expect(file).toContain(code);

    await user.click(screen.getByRole('link', { name: 'Início' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Sair sem guardar os códigos?' })).getByRole('button', {
        name: 'Voltar aos códigos',
      }),
    );
    expect(location()).toBe('/two-factor');

    const done = screen.getByRole('button', { name: 'Concluir' });
    expect(done).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Guardei os códigos em um lugar seguro' }));
    await user.click(done);
    expect(screen.queryByRole('list', { name: 'Seus 10 códigos de recuperação' })).toBeNull();
    expect(screen.queryByText('ABCDE-FGHIJ')).toBeNull();
    expect(screen.getByText('Ativada')).toBeInTheDocument();
    expect(screen.getByText('Códigos de recuperação restantes: 10 de 10')).toBeInTheDocument();
    expect(toasts()).toContain('Autenticação em dois fatores ativada.');
  });

  it('cancels an enrolment and goes back to the status', async () => {
    const user = setupUser();
    render(off, (r) => (r.path === '/api/two-factor/enrol' ? json(200, enrolment) : undefined));
    await user.click(await screen.findByRole('button', { name: 'Ativar autenticação em dois fatores' }));
    await user.click(await screen.findByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull();
    expect(screen.getByText('Desativada')).toBeInTheDocument();
  });

  it('shows the status when on, warns about few recovery codes, and disables with a recovery code', async () => {
    const user = setupUser();
    let enabled = true;
    const { requests } = render(
      () => json(200, enabled ? { enabled: true, enrolled_at: '2026-11-20T18:30:00Z', recovery_codes_left: 2 } : off),
      (r) => {
        if (r.path !== '/api/two-factor/disable') return undefined;
        if ((r.body as { code: string }).code === '111111') return wrongCode();
        if ((r.body as { code: string }).code === '222222')
          return json(429, { message: 'Too many attempts', retry_after: 60 });
        enabled = false;
        return json(200, off);
      },
    );
    expect(await screen.findByText('Ativada em 20/11/2026 15:30')).toBeInTheDocument();
    expect(screen.getByText('Códigos de recuperação restantes: 2 de 10')).toBeInTheDocument();
    expect(screen.getByText(/Restam poucos códigos de recuperação/)).toBeInTheDocument();
    const field = screen.getByRole('textbox', { name: 'Código do aplicativo ou de recuperação' });
    const disable = () => user.click(screen.getByRole('button', { name: 'Desativar autenticação em dois fatores' }));
    await user.type(field, '111111');
    await disable();
    expect(
      await screen.findByText('Código incorreto ou expirado. Digite o código que o aplicativo mostra agora.'),
    ).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, '222222');
    await disable();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Não foi possível desativar a autenticação em dois fatores. Muitas tentativas. Aguarde e tente de novo.',
    );
    await user.clear(field);
    await user.type(field, 'abcde-fghij');
    await disable();
    expect(await screen.findByText('Desativada')).toBeInTheDocument();
    expect(requests.filter((r) => r.path === '/api/two-factor/disable').at(-1)?.body).toEqual({ code: 'abcde-fghij' });
    expect(toasts()).toContain('Autenticação em dois fatores desativada.');
    expect(screen.queryByRole('textbox', { name: 'Código do aplicativo ou de recuperação' })).toBeNull();
  });

  it('says why the status could not be loaded and retries', async () => {
    const user = setupUser();
    let fail = true;
    render(() => (fail ? json(503, { status: 'unavailable', message: 'down' }) : json(200, off)));
    expect(screen.getByRole('progressbar', { name: 'Carregando…' })).toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Não foi possível carregar a autenticação em dois fatores.Serviço indisponível. Tente mais tarde.',
    );
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Desativada')).toBeInTheDocument();
  });
});
