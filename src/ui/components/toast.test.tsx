// @vitest-environment jsdom
import { act, cleanup, screen, within } from '@testing-library/react';
import ptBR from '../../i18n/pt-BR.json';
import { renderUi } from '../test-support/test-utils';
import { ToastRegion } from './toast';
import { createToastQueue, showToast } from './toast-queue';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ToastRegion', () => {
  it('shows a toast in a named region, with the variant spoken and a title/description', () => {
    const queue = createToastQueue();
    renderUi(<ToastRegion queue={queue} />);
    act(() => {
      showToast(queue, {
        variant: 'success',
        title: ptBR.auth.login.successTitle,
        description: ptBR.auth.login.successBody,
      });
    });
    const region = screen.getByRole('region', { name: ptBR.ui.toast.region });
    const toast = within(region).getByRole('alertdialog');
    expect(toast).toHaveAccessibleName(`${ptBR.ui.toast.success}: ${ptBR.auth.login.successTitle}`);
    expect(toast).toHaveAccessibleDescription(ptBR.auth.login.successBody);
    expect(within(toast).getByRole('alert')).toBeInTheDocument();
  });

  it('dismisses with its named close button', async () => {
    const queue = createToastQueue();
    const { user } = renderUi(<ToastRegion queue={queue} />);
    act(() => {
      showToast(queue, { variant: 'error', title: 'Falha ao salvar' });
    });
    await user.click(screen.getByRole('button', { name: ptBR.ui.toast.dismiss }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('closes success toasts after their timeout but keeps errors', () => {
    vi.useFakeTimers();
    const queue = createToastQueue();
    renderUi(<ToastRegion queue={queue} />);
    act(() => {
      showToast(queue, { variant: 'success', title: 'Salvo' });
      showToast(queue, { variant: 'error', title: 'Erro ao excluir' });
    });
    expect(screen.getAllByRole('alertdialog')).toHaveLength(2);
    act(() => vi.advanceTimersByTime(6000));
    const left = screen.getAllByRole('alertdialog');
    expect(left).toHaveLength(1);
    expect(left[0]).toHaveTextContent('Erro ao excluir');
  });
});
