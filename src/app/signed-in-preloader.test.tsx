// @vitest-environment jsdom
import type { PreloadableComponent } from '../ui/components/preloadable';
import { LazyMainLayout, preloadSignedIn, SCREENS } from './screens-registry';
import { whenIdle } from '../ui/hooks/when-idle';
import { inIdleTurns } from './signed-in-preloader';

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

describe('inIdleTurns', () => {
  /** requestIdleCallback stubbed: the idle periods come when `idle()` says. */
  function idleByHand() {
    const waiting = new Map<number, IdleRequestCallback>();
    let next = 1;
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => {
      waiting.set(next, callback);
      return next++;
    });
    vi.stubGlobal('cancelIdleCallback', (id: number) => waiting.delete(id));
    return {
      pending: () => waiting.size,
      idle: () => {
        const callbacks = [...waiting.values()];
        waiting.clear();
        for (const callback of callbacks) callback({ didTimeout: false, timeRemaining: () => 10 });
      },
    };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('runs each step in an idle period of its own, the next once the one before has settled, a failure included', async () => {
    const hand = idleByHand();
    try {
      const ran: string[] = [];
      let finishFirst: () => void = () => undefined;
      const steps = [
        () => {
          ran.push('rest');
          return new Promise<void>((resolve) => (finishFirst = resolve));
        },
        () => {
          ran.push('layout');
          return Promise.reject(new Error('chunk missing'));
        },
        () => {
          ran.push('toast');
          return Promise.resolve();
        },
      ];
      inIdleTurns(steps);
      expect(ran).toEqual([]);
      hand.idle();
      expect(ran).toEqual(['rest']);
      await settle();
      // Not settled yet: the next step waits, and asks for no idle period.
      expect(hand.pending()).toBe(0);
      finishFirst();
      await settle();
      expect(ran).toEqual(['rest']);
      hand.idle();
      expect(ran).toEqual(['rest', 'layout']);
      await settle();
      hand.idle();
      expect(ran).toEqual(['rest', 'layout', 'toast']);
      await settle();
      expect(hand.pending()).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('starts no step once cancelled', async () => {
    const hand = idleByHand();
    try {
      const ran: string[] = [];
      const cancel = inIdleTurns([() => Promise.resolve(ran.push('first')), () => Promise.resolve(ran.push('second'))]);
      hand.idle();
      await settle();
      cancel();
      hand.idle();
      await settle();
      expect(ran).toEqual(['first']);
      expect(hand.pending()).toBe(0);
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
