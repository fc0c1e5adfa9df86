// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import en from '../../i18n/en.json';
import ptBR from '../../i18n/pt-BR.json';
import { ConnectionStatus, PresenceStatus, StatusDot } from './status-dot';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('StatusDot', () => {
  it('always shows its text; the dot itself is hidden from screen readers', () => {
    const { container } = renderUi(<StatusDot label="Ativo" tone="success" />);
    expect(screen.getByText('Ativo')).toBeInTheDocument();
    expect(container.querySelector('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('gives each connection state its own text and shape, in a live status region', () => {
    const { rerender, container } = renderUi(<ConnectionStatus state="connected" />);
    expect(screen.getByRole('status')).toHaveTextContent(ptBR.shell.connection.connected);
    const connectedDot = container.querySelector('[aria-hidden="true"]')?.className;
    rerender(<ConnectionStatus state="connecting" />);
    expect(screen.getByRole('status')).toHaveTextContent(ptBR.shell.connection.connecting);
    rerender(<ConnectionStatus state="disconnected" />);
    expect(screen.getByRole('status')).toHaveTextContent(ptBR.shell.connection.disconnected);
    expect(container.querySelector('[aria-hidden="true"]')?.className).not.toBe(connectedDot);
  });

  it('shows presence in the active language', () => {
    renderUi(
      <>
        <PresenceStatus isConnected />
        <PresenceStatus isConnected={false} />
      </>,
      { language: 'en' },
    );
    expect(screen.getByText(en.ui.presence.online)).toBeInTheDocument();
    expect(screen.getByText(en.ui.presence.offline)).toBeInTheDocument();
  });
});
