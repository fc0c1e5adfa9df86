import { featureBulkLive, serverFeatures } from './feature-bulk-live';
import { call, type LiveTarget } from './live-target';
import type { AnyStateMachine } from 'xstate';
import { livePaths, replayLive, type LiveModel, type LiveReport } from './live-walk';
import { sessionLive } from './session-live';
import { socketLive } from './socket-live';

/**
 * The session, socket and feature-bulk machines replayed along their model-based paths against a live
 * server (./live-walk.ts). The conformance kit bundles this module into its package
 * (packages/conformance/src/machines-entry.mts, packages/conformance/scripts/prepack.mjs).
 */

export type { LiveReport } from './live-walk';
export type { LiveTarget } from './live-target';

/** Features the editor walks: the first two of the run's tenant. */
async function editedFeatures(target: LiveTarget) {
  const features = (await serverFeatures(target)).slice(0, 2);
  if (features.length === 0) throw new Error(`tenant ${target.tenantName} has no features to edit`);
  return features;
}

/** The instance of the run's tenant the socket watches being renamed (made through the API). */
async function watchedInstance(target: LiveTarget): Promise<number> {
  const created = await call(target, 'POST', '/api/instance', {
    body: { name: 'Conformance socket', tenantName: target.tenantName, isOfficial: false, isUnlimited: false },
  });
  const id = (created.json as { id?: unknown } | undefined)?.id;
  if (created.status !== 201 || typeof id !== 'number')
    throw new Error(`POST /api/instance answered HTTP ${created.status}`);
  return id;
}

const count = (paths: { steps: unknown[] }[]) => ({
  paths: paths.length,
  steps: paths.reduce((sum, p) => sum + p.steps.length - 1, 0),
});

/**
 * Paths and steps each model's graph gives on this target (what a full replay covers); makes nothing
 * (the socket's graph does not depend on the instance it watches).
 */
export async function liveGraphCounts(target: LiveTarget): Promise<Record<string, { paths: number; steps: number }>> {
  const features = await editedFeatures(target);
  return {
    session: count(livePaths(sessionLive(target))),
    socket: count(livePaths(socketLive(target, 0))),
    'feature-bulk': count(livePaths(featureBulkLive(target, features))),
  };
}

/**
 * Replays every model; one report per machine, each handed to `onReport` as it is done (the kit times
 * its checks by when they are recorded). The instance it makes stays in the run's tenant (the contract
 * has no instance deletion); the kit removes that tenant.
 */
export async function runLiveMachines(
  target: LiveTarget,
  onReport: (report: LiveReport) => void = () => undefined,
): Promise<LiveReport[]> {
  const features = await editedFeatures(target);
  const instanceId = await watchedInstance(target);
  const reports: LiveReport[] = [];
  // One at a time: each replays against the same server, and the kit's table reads in this order.
  const replay = async <TMachine extends AnyStateMachine>(model: LiveModel<TMachine>) => {
    const report = await replayLive(model);
    onReport(report);
    reports.push(report);
  };
  await replay(sessionLive(target));
  await replay(socketLive(target, instanceId));
  await replay(featureBulkLive(target, features));
  return reports;
}
