// @vitest-environment jsdom
import type { PreloadableComponent } from '../ui/components/preloadable';
import { LazyMainLayout, preloadSignedIn, SCREENS } from './screens-registry';
import { whenIdle } from './signed-in-preloader';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('whenIdle', () => {
  it('waits for requestIdleCallback (with a deadline) and can be cancelled', () => {
    const callbacks = new Map<number, IdleRequestCallback>();
    let next = 1;
    const request = vi.fn((callback: IdleRequestCallback) => {
      callbacks.set(next, callback);
      return next++;
    });
    const cancelIdle = vi.fn((id: number) => callbacks.delete(id));
    vi.stubGlobal('requestIdleCallback', request);
    vi.stubGlobal('cancelIdleCallback', cancelIdle);
    try {
      const task = vi.fn();
      const cancel = whenIdle(task, 1500);
      expect(request).toHaveBeenCalledWith(task, { timeout: 1500 });
      expect(task).not.toHaveBeenCalled();
      cancel();
      expect(cancelIdle).toHaveBeenCalledWith(1);
      expect(callbacks.size).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('falls back to a short timer where requestIdleCallback is missing', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    try {
      const task = vi.fn();
      whenIdle(task);
      expect(task).not.toHaveBeenCalled();
      vi.advanceTimersByTime(250);
      expect(task).toHaveBeenCalledTimes(1);
      const cancelled = vi.fn();
      whenIdle(cancelled)();
      vi.advanceTimersByTime(250);
      expect(cancelled).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('preloadSignedIn', () => {
  it("fetches the main layout and the target's screen, and nothing else", async () => {
    const layout = vi.spyOn(LazyMainLayout, 'preload').mockResolvedValue(undefined);
    const tenants = vi.spyOn(SCREENS.tenants as PreloadableComponent<object>, 'preload').mockResolvedValue(undefined);
    const users = vi.spyOn(SCREENS.users as PreloadableComponent<object>, 'preload').mockResolvedValue(undefined);
    await preloadSignedIn('/tenants?page=2');
    expect(layout).toHaveBeenCalledTimes(1);
    expect(tenants).toHaveBeenCalledTimes(1);
    expect(users).not.toHaveBeenCalled();
  });

  it('fetches nothing for a page of the blank layout or an unknown address', async () => {
    const layout = vi.spyOn(LazyMainLayout, 'preload').mockResolvedValue(undefined);
    await preloadSignedIn('/pages/not-authorized');
    await preloadSignedIn('/no/such/page');
    expect(layout).not.toHaveBeenCalled();
  });
});
