// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import ptBR from '../../i18n/pt-BR.json';
import { LoadingOverlay } from './loading-overlay';
import { renderUi } from '../test-support/test-utils';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('LoadingOverlay', () => {
  it('keeps an empty polite status region mounted while idle', () => {
    renderUi(<LoadingOverlay isVisible={false} />);
    const status = screen.getByRole('status');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(status).toHaveTextContent('');
    expect(screen.queryByTestId('loading-overlay')).toBeNull();
  });

  it('after the delay covers the app and announces the label; clears when done', () => {
    const { rerender } = renderUi(<LoadingOverlay isVisible delay={200} />);
    expect(screen.getByRole('status')).toHaveTextContent('');
    act(() => vi.advanceTimersByTime(200));
    expect(screen.getByRole('status')).toHaveTextContent(ptBR.common.loading);
    expect(screen.getByTestId('loading-overlay')).toHaveAttribute('aria-hidden', 'true');
    rerender(<LoadingOverlay isVisible={false} delay={200} />);
    expect(screen.queryByTestId('loading-overlay')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('never shows for a request shorter than the delay', () => {
    const { rerender } = renderUi(<LoadingOverlay isVisible delay={250} label="Salvando" />);
    act(() => vi.advanceTimersByTime(100));
    rerender(<LoadingOverlay isVisible={false} delay={250} label="Salvando" />);
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByTestId('loading-overlay')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('');
  });
});
