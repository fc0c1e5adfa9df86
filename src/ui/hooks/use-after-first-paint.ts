import { startTransition, useEffect, useState } from 'react';
import { whenIdle } from './when-idle';

/**
 * False on the first render, true once the main thread has been idle after it (at the latest after
 * `timeoutMs`), in a transition. For the parts of a screen the user does not need first: the main
 * layout's first render after a sign-in holds what the list needs, and the tenant switcher, the
 * activity feed and the menus mount after the rows are painted (the answers already waiting, such as
 * the list's, keep the thread busy until then; docs/performance.md, The signed-in path against react-admin).
 */
export function useAfterFirstPaint(timeoutMs = 1000): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    return whenIdle(() => startTransition(() => setReady(true)), timeoutMs, 0);
  }, [ready, timeoutMs]);
  return ready;
}
