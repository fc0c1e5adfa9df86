// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { ApiError } from '../api/api-error';
import ptBR from '../i18n/pt-BR.json';
import { renderWithServices, type RenderedApp } from '../ui/test-support/render';
import { ErrorBoundary } from './error-boundary';

/** The 500 content in place of a failed screen (docs/panel.md, Navigation and pages inside the shell). */

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

describe('error boundary', () => {
  function Failing({ error }: { error: Error }): never {
    throw error;
  }

  it("shows the failed call's request id to quote, a retry and a way home", async () => {
    const error = new ApiError(500, null);
    error.requestId = 'req-42';
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    view = renderWithServices(
      <ErrorBoundary headingLevel={2}>
        <Failing error={new Error('render failed', { cause: error })} />
      </ErrorBoundary>,
    );
    quiet.mockRestore();
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(ptBR.pages.serverError.title);
    expect(screen.getByText('req-42')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: ptBR.pages.serverError.action })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: ptBR.pages.serverError.home })).toHaveAttribute('href', '/');
  });

  it('shows no code when the failure came from no call', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    view = renderWithServices(
      <ErrorBoundary>
        <Failing error={new Error('render failed')} />
      </ErrorBoundary>,
    );
    quiet.mockRestore();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(ptBR.pages.serverError.title);
    expect(screen.queryByText(ptBR.pages.serverError.requestId, { exact: false })).toBeNull();
  });
});
