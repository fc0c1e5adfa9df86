import { useCallback, useState } from 'react';

/**
 * The rendered width of an element, followed with a ResizeObserver, so a chart draws at its real
 * pixel width (text stays legible at 390 px) instead of scaling a fixed drawing. Without
 * ResizeObserver (jsdom) the fallback width stays.
 */
export function useWidth(fallback: number): [(node: HTMLElement | null) => (() => void) | undefined, number] {
  const [width, setWidth] = useState(fallback);
  const ref = useCallback((node: HTMLElement | null) => {
    if (!node || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.floor(entry?.contentRect.width ?? 0);
      if (next > 0) setWidth(next);
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
