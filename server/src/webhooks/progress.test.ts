import type { PanelEvent } from '../base/events';
import { startTestApp, type TestApp } from '../test-support/app';
import { until } from '../test-support/webhooks';
import { createWebhookProgress } from './progress';

/**
 * A run's progress on the socket (contracts/socket.md §3, `WebhookRunProgress`): at most one event per
 * interval and run, the changes in between folded into the next one; to the run's tenant and to the
 * back-office tenant. The interval here is long, so nothing depends on the clock.
 */
describe('webhook run progress', () => {
  let t: TestApp;
  let runId: number;
  let tenantId: number;

  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 1 } });
    tenantId = (
      await t.db.selectFrom('tenants').select('id').where('name', '=', 'farmacia-central').executeTakeFirstOrThrow()
    ).id;
    runId = (
      await t.db
        .insertInto('webhook_runs')
        .values({ tenant_id: tenantId, type: 'read', start_at: '2026-11-01', finish_at: '2026-11-01', total: 0 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }, 120_000);

  afterAll(async () => t?.close());

  it('sends the first change at once, folds the next ones into one event after the interval', async () => {
    const published: PanelEvent[] = [];
    const unsubscribe = t.app.events.subscribe((e) => {
      if (e.event === 'WebhookRunProgress' && (e.data as { id: number }).id === runId) published.push(e);
    });
    try {
      const progress = createWebhookProgress({
        db: t.db,
        events: t.app.events,
        backofficeTenant: 'backoffice',
        intervalMs: 3_600_000,
      });
      for (let i = 0; i < 5; i += 1) progress.changed(runId);
      await until(() => published.length === 2, 5_000, 'the first event');
      expect(published.map((e) => e.tenantName).sort()).toEqual(['backoffice', 'farmacia-central']);
      expect(published.find((e) => e.tenantId === tenantId)?.data).toMatchObject({ id: runId, type: 'read', total: 0 });
      await t.db.updateTable('webhook_runs').set({ finished_at: new Date() }).where('id', '=', runId).execute();
      progress.changed(runId);
      progress.changed(runId);
      await progress.flush();
      expect(published).toHaveLength(4);
      expect((published.at(-1)!.data as { finished_at: string | null }).finished_at).not.toBeNull();
    } finally {
      unsubscribe();
    }
  });
});
