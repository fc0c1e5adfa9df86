import type { Actor } from 'xstate';
import { createRestClient } from '../../api/create-rest-client';
import { featureBulkMachine, type Feature, type FeatureBulkInput } from '../tenants/feature-bulk.machine';
import type { GraphEvent } from '../test-support/graph-paths';
import type { LiveModel } from './live-walk';
import { call, timedFetch, type LiveTarget } from './live-target';

type FeatureBulk = typeof featureBulkMachine;

/** The run's tenant's features as the server has them now. */
export async function serverFeatures(target: LiveTarget): Promise<Feature[]> {
  const answer = await call(target, 'GET', '/api/tenant/feature', { query: { tenantName: target.tenantName } });
  if (answer.status !== 200 || !Array.isArray(answer.json))
    throw new Error(`GET /api/tenant/feature answered HTTP ${answer.status}`);
  return answer.json as Feature[];
}

/**
 * The feature editor's bulk machine against a live server, on the run's own tenant: loads its features
 * (`GET /api/tenant/feature`), edits two of them, saves one `POST /api/tenant/feature` per change (one at
 * a time, so results come in the graph's order). Live properties, after every finished save: each row's
 * result is what the server now holds, and the overlay is held exactly while saving. Every path ends
 * with the tenant's features put back as they were.
 * Failed rows and retries need a server that refuses on cue (the fakes' walk covers them).
 */
export function featureBulkLive(target: LiveTarget, features: Feature[]): LiveModel<FeatureBulk> {
  const [first, second] = features.map((f) => f.option);
  const rest = createRestClient({
    baseUrl: target.baseUrl.replace(/\/+$/, ''),
    fetch: (request) => {
      const headers = new Headers(request.headers);
      headers.set('authorization', `Bearer ${target.token}`);
      return timedFetch(target)(new Request(request, { headers }));
    },
  });
  const overlay = { held: 0, suspend: () => (overlay.held += 1), resume: () => (overlay.held -= 1) };
  const input = (): FeatureBulkInput => ({ rest, tenantName: target.tenantName, overlay, concurrency: 1, staff: true });

  const events = (snapshot: ReturnType<Actor<FeatureBulk>['getSnapshot']>): GraphEvent<FeatureBulk>[] => {
    const { context } = snapshot;
    // A reload reads back what the saves before it stored (context.saved follows every ok result).
    if (snapshot.matches('loading'))
      return [
        {
          type: 'xstate.done.actor.loadFeatures',
          // The feature set as the editor reads it (feature-bulk.machine.ts `FeatureSet`); the graph keys no version.
          output: {
            version: null,
            features: features.map((f) => ({ ...f, enabled: context.saved[f.option] ?? f.enabled })),
          },
        },
      ];
    if (snapshot.matches('saving')) {
      const next = context.run.entries.findIndex((entry) => entry.result === null);
      const entry = context.run.entries[next];
      if (!entry) return [{ type: 'bulk.finished' }];
      const value: Feature = { option: entry.item.option, enabled: entry.item.enabled, tenantName: target.tenantName };
      return [{ type: 'bulk.result', index: next, result: { status: 'ok', value } }];
    }
    const edits: GraphEvent<FeatureBulk>[] = [
      { type: 'features.toggle', option: first ?? '' },
      {
        type: 'features.set',
        option: second ?? first ?? '',
        enabled: !(context.draft[second ?? first ?? ''] ?? false),
      },
      { type: 'features.reset' },
      { type: 'features.reload' },
    ];
    if (snapshot.matches('editing')) return [...edits, { type: 'features.save' }];
    if (snapshot.matches('done')) return [...edits, { type: 'features.dismiss' }, { type: 'features.retry' }];
    return [];
  };

  return {
    name: 'feature-bulk',
    paths: {
      machine: featureBulkMachine,
      input,
      events,
      // Guards read the draft, the stored state and the results: all of it is the graph's key.
      serializeContext: (context) => [
        context.draft,
        context.saved,
        context.run.entries.map((entry) => entry.result?.status ?? null),
      ],
      strategies: ['shortest', 'transitions'],
    },
    awaited: (event) =>
      event.type.startsWith('xstate.done.actor.') || event.type === 'bulk.result' || event.type === 'bulk.finished',
    start: () => {
      overlay.held = 0;
      return Promise.resolve({
        input: input(),
        // Back as the graph found them, so the next path starts where the graph does.
        cleanup: async (actor: Actor<FeatureBulk>) => {
          actor.stop();
          const now = await serverFeatures(target);
          for (const feature of features) {
            const current = now.find((f) => f.option === feature.option);
            if (current && current.enabled !== feature.enabled) {
              const put = await call(target, 'POST', '/api/tenant/feature', {
                body: { option: feature.option, enabled: feature.enabled, tenantName: target.tenantName },
              });
              if (put.status !== 200) throw new Error(`restoring feature ${feature.option}: HTTP ${put.status}`);
            }
          }
        },
      });
    },
    check: async ({ actor, event }) => {
      const problems: string[] = [];
      const snapshot = actor.getSnapshot();
      if (overlay.held !== (snapshot.matches('saving') ? 1 : 0))
        problems.push(`the overlay is held ${overlay.held} times in ${JSON.stringify(snapshot.value)}`);
      if (event.type !== 'bulk.finished') return problems;
      const stored = await serverFeatures(target);
      for (const entry of snapshot.context.run.entries) {
        const onServer = stored.find((f) => f.option === entry.item.option);
        if (entry.result?.status !== 'ok') problems.push(`row ${entry.item.option}: ${JSON.stringify(entry.result)}`);
        else if (onServer?.enabled !== entry.result.value.enabled || onServer.enabled !== entry.item.enabled)
          problems.push(
            `row ${entry.item.option}: the machine reports enabled=${String(entry.result.value.enabled)}, the server holds ${JSON.stringify(onServer ?? null)}`,
          );
        if (snapshot.context.saved[entry.item.option] !== onServer?.enabled)
          problems.push(`row ${entry.item.option}: the editor's stored state differs from the server's`);
      }
      return problems;
    },
  };
}
