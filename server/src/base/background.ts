/**
 * Work a request starts and does not wait for: the account side of a reset-link request
 * (server/src/auth/password-reset.ts), done after the answer so its time says nothing about which
 * e-mails exist. The server waits for it when it closes (server/src/app.ts), so a link being issued
 * is not cut off half-way; tests wait for it before they read what it wrote.
 */
export interface Background {
  /** Starts `work`; it handles (logs) its own failures, and anything it lets through is dropped here. */
  run(work: () => Promise<void>): void;
  /** Resolves once every work started so far, and any it started meanwhile, has finished. */
  settled(): Promise<void>;
}

export function createBackground(): Background {
  const running = new Set<Promise<void>>();
  return {
    run(work) {
      const done: Promise<void> = work()
        .catch(() => undefined)
        .finally(() => running.delete(done));
      running.add(done);
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
