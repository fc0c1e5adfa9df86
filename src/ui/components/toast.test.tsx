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

describe('the app queue before and after its region', () => {
  // One queue lives for the app (and, in the views lane, for every file of a worker): what it lists must
  // not depend on whether some region attached React Aria's queue earlier. It did: newest first once
  // attached (React Aria's order), oldest first before, so a file reading the app queue after another
  // file had rendered a region saw its toasts reversed.
  it('lists its toasts in the same order whether or not a region has attached, newest first as shown', () => {
    const titles = (queue: ReturnType<typeof createToastQueue>) => queue.visibleToasts.map((t) => t.content.title);
    const before = createToastQueue();
    const after = createToastQueue();
    renderUi(<ToastRegion queue={after} />);
    for (const queue of [before, after])
      act(() => {
        showToast(queue, { variant: 'error', title: 'primeiro' });
        showToast(queue, { variant: 'error', title: 'segundo' });
      });
    expect(titles(after)).toEqual(['segundo', 'primeiro']);
    expect(titles(before)).toEqual(titles(after));
    // Toasts that waited for the region keep that order once it attaches.
    renderUi(<ToastRegion queue={before} />);
    expect(titles(before)).toEqual(['segundo', 'primeiro']);
  });
});

describe('a toast shown before its region attaches', () => {
  // showToast's key is for queue.close(key): a key handed out while the toast waited still closes it
  // once the region has taken it over.
  it('closes by the key it was shown with, after the region attached', () => {
    const queue = createToastQueue();
    let kept = '';
    let closed = '';
    act(() => {
      kept = showToast(queue, { variant: 'error', title: 'fica' });
      closed = showToast(queue, { variant: 'error', title: 'sai' });
    });
    renderUi(<ToastRegion queue={queue} />);
    act(() => queue.close(closed));
    expect(queue.visibleToasts.map((t) => t.content.title)).toEqual(['fica']);
    act(() => queue.close(kept));
    expect(queue.visibleToasts).toEqual([]);
  });
});
