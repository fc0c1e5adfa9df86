// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import ptBR from '../../i18n/pt-BR.json';
import { ErrorState } from './error-state';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('ErrorState', () => {
  it('is an alert with the default translated title and a retry button', async () => {
    const onRetry = vi.fn();
    const { user } = renderUi(<ErrorState onRetry={onRetry} description="Não foi possível carregar os usuários." />);
    expect(screen.getByRole('alert')).toHaveTextContent(ptBR.common.error);
    await user.tab();
    await user.keyboard('{Enter}');
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('while retrying the button is busy and ignores presses', async () => {
    const onRetry = vi.fn();
    const { user } = renderUi(<ErrorState onRetry={onRetry} isRetrying />);
    const button = screen.getByRole('button', { name: new RegExp(ptBR.common.retry) });
    expect(button).toHaveAttribute('aria-busy', 'true');
    await user.click(button);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('has no retry button without onRetry', () => {
    renderUi(<ErrorState title="Falhou" />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('alert')).toHaveTextContent('Falhou');
  });
});
