// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import ptBR from '../../i18n/pt-BR.json';
import { LazyToastRegion } from './lazy-toast-region';
import { renderUi } from '../test-support/test-utils';
import { createToastQueue, showToast } from './toast-queue';

afterEach(cleanup);

describe('LazyToastRegion', () => {
  it('renders nothing until the first toast, then loads the region and shows it', async () => {
    const queue = createToastQueue();
    const { container } = renderUi(<LazyToastRegion queue={queue} />);
    expect(screen.queryByRole('region')).toBeNull();
    expect(container.querySelector('[class]')?.children).toHaveLength(0);
    act(() => {
      showToast(queue, { variant: 'info', title: 'Sincronização iniciada' });
    });
    const toast = await screen.findByRole('alertdialog');
    expect(toast).toHaveTextContent('Sincronização iniciada');
    expect(screen.getByRole('region', { name: ptBR.ui.toast.region })).toContainElement(toast);
  });

  it('keeps the region mounted after the last toast closes', async () => {
    const queue = createToastQueue();
    const { user } = renderUi(<LazyToastRegion queue={queue} />);
    act(() => {
      showToast(queue, { variant: 'error', title: 'Falha' });
    });
    await user.click(await screen.findByRole('button', { name: ptBR.ui.toast.dismiss }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    act(() => {
      showToast(queue, { variant: 'success', title: 'Salvo' });
    });
    // Synchronous: the module is loaded and the region still mounted.
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Salvo');
  });
});
