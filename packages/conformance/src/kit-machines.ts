import type { ConformanceClient, Result } from './kit-client.js';

/** What the live machines module gives (src/machines/live/index.ts, bundled as dist/machines-entry.mjs). */
export interface LiveReport {
  machine: string;
  paths: number;
  steps: number;
  problems: string[];
}
interface MachinesEntry {
  runLiveMachines(
    target: {
      baseUrl: string;
      email: string;
      password: string;
      tenant: string;
      token: string;
      userId: number;
      tenantName: string;
      timeoutMs: number;
    },
    onReport: (report: LiveReport) => void,
  ): Promise<LiveReport[]>;
}

// Not a literal import: tsc leaves the bundle alone (it is built from the SPA's sources by
// scripts/prepack.mjs), and vitest resolves it to machines-entry.mts.
const ENTRY = './machines-entry.mjs';

const KIND: Record<string, Result['kind']> = { session: 'auth', socket: 'socket', 'feature-bulk': 'rest' };

/**
 * The SPA's session, socket and feature-bulk machines, with their real actors, replayed along their
 * model-based paths against the server under test (src/machines/live/index.ts): one check per
 * machine, named with the paths and steps it covered, failing with every step where the machine did
 * not follow its model or a live property broke.
 */
export async function liveMachines(
  c: ConformanceClient,
  me: Record<string, unknown>,
  tenantName: string,
): Promise<void> {
  const token = c.session.token;
  if (token === null || typeof me.id !== 'number') {
    c.check('machines', 'rest', 0, ['no signed-in administrator to run the machines as']);
    return;
  }
  const entry = (await import(ENTRY)) as MachinesEntry;
  await entry.runLiveMachines(
    {
      baseUrl: c.baseUrl,
      email: c.email,
      password: c.password,
      tenant: c.tenant,
      token,
      userId: me.id,
      tenantName,
      timeoutMs: c.timeoutMs,
    },
    (report) => {
      const problems = [...report.problems];
      if (report.paths === 0) problems.push('the model gave no path');
      c.check(
        `machine ${report.machine}: ${report.paths} paths, ${report.steps} steps`,
        KIND[report.machine] ?? 'rest',
        0,
        problems,
      );
    },
  );
}
