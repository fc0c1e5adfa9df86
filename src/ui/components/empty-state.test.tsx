// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Button } from './button';
import { EmptyState } from './empty-state';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('EmptyState', () => {
  it('shows title, description and an action', async () => {
    const onPress = vi.fn();
    const { user } = renderUi(
      <EmptyState
        title="Nenhum tenant"
        description="Crie o primeiro tenant."
        action={<Button onPress={onPress}>Novo tenant</Button>}
      />,
    );
    expect(screen.getByText('Nenhum tenant')).toBeInTheDocument();
    expect(screen.getByText('Crie o primeiro tenant.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Novo tenant' }));
    expect(onPress).toHaveBeenCalledOnce();
  });

  it('is quiet: not an alert or live region', () => {
    renderUi(<EmptyState title="Vazio" />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
