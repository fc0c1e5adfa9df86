import { useEffect, useState } from 'react';

/**
 * The current time, read when the component mounts and again every `intervalMs`, so "há 3 minutos"
 * stays true on a page left open (the support desk's last sign-in and sessions). Read in an effect,
 * never during render, so a render is pure.
 *
 * @param intervalMs - how often to read the clock again (default a minute)
 */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
