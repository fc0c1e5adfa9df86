// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { useAfterFirstPaint } from './use-after-first-paint';

describe('useAfterFirstPaint', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is false on the first render and true once the main thread has been idle', () => {
    const idle: IdleRequestCallback[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    const { result } = renderHook(() => useAfterFirstPaint());
    expect(result.current).toBe(false);
    expect(idle).toHaveLength(1);
    act(() => idle[0]?.({ didTimeout: false, timeRemaining: () => 10 }));
    expect(result.current).toBe(true);
  });

  it('asks for no idle time once it is true, and cancels the wait when unmounted first', () => {
    const idle: IdleRequestCallback[] = [];
    const cancelled: number[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', (id: number) => cancelled.push(id));
    const first = renderHook(() => useAfterFirstPaint());
    act(() => idle[0]?.({ didTimeout: false, timeRemaining: () => 10 }));
    first.rerender();
    expect(idle).toHaveLength(1);
    const second = renderHook(() => useAfterFirstPaint());
    expect(idle).toHaveLength(2);
    second.unmount();
    expect(cancelled).toContain(2);
    expect(second.result.current).toBe(false);
  });

  it('waits a task where the browser has no idle callbacks', async () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    const { result } = renderHook(() => useAfterFirstPaint());
    expect(result.current).toBe(false);
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(result.current).toBe(true);
  });
});
