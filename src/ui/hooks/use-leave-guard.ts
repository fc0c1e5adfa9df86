import { useEffect, useState } from 'react';
import { useLocation, useRouter } from 'wouter';

/** The path to hand wouter's `navigate` for a same-origin URL, relative to the router's base when under it. */
function routerPath(url: URL, base: string): string {
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (base && (url.pathname === base || url.pathname.startsWith(`${base}/`))) return path.slice(base.length) || '/';
  return path;
}

function isPlainLeftClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** What the screen renders while a leave is held: the target, and the two answers. */
export interface LeaveGuard {
  /** Where the user asked to go, held until they answer; null when nothing is held. */
  target: string | null;
  stay: () => void;
  leave: () => void;
}

/**
 * Warns before leaving with unsaved changes while `active`: closing or reloading the tab gets the
 * browser's own prompt (`beforeunload`), and a click on any same-origin link — the menu, the
 * navbar, a link in the page — is held (captured before React or React Aria see it) until the
 * user answers the screen's confirmation.
 */
export function useLeaveGuard(active: boolean): LeaveGuard {
  const [, navigate] = useLocation();
  const { base } = useRouter();
  const [target, setTarget] = useState<string | null>(null);

  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older engines only prompt when returnValue is set.
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      if (!isPlainLeftClick(event)) return;
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (
        !(anchor instanceof HTMLAnchorElement) ||
        (anchor.target && anchor.target !== '_self') ||
        anchor.hasAttribute('download')
      )
        return;
      const url = new URL(anchor.href, window.location.href);
      const here = window.location;
      if (url.origin !== here.origin || (url.pathname === here.pathname && url.search === here.search)) return;
      event.preventDefault();
      event.stopPropagation();
      setTarget(routerPath(url, base));
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [active, base]);

  return {
    target,
    stay: () => setTarget(null),
    leave: () => {
      const to = target;
      setTarget(null);
      if (to !== null) navigate(to);
    },
  };
}
