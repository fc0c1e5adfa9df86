import { createActor } from 'xstate';
import { createAppBus } from '../shared/app-bus';
import { activityFeedMachine, FEED_LIMIT } from './activity-feed.machine';
import { assertFullCoverage, exploreCoverage, type GraphEvent } from '../test-support/graph-coverage';

const instance = {
  id: 4,
  name: 'WhatsApp Loja 1',
  activated: true,
  tenantName: 'farmacia-central',
  isOfficial: true,
  isUnlimited: false,
  status: 'syncing' as const,
  syncProgress: 40,
  syncedMessages: 40,
  totalMessages: 100,
  created_at: '2026-01-01T00:00:00Z',
  version: 1,
};

describe('activity feed machine', () => {
  it('reaches every state and transition', async () => {
    const bus = createAppBus();
    const events: GraphEvent<typeof activityFeedMachine>[] = [
      {
        type: 'feed.received',
        message: {
          name: 'instanceUpdated',
          data: instance,
          tenantName: 'farmacia-central',
          sentAt: '2026-11-23T10:00:00.000Z',
        },
      },
      { type: 'feed.read' },
      { type: 'feed.clear' },
    ];
    assertFullCoverage(await exploreCoverage({ machine: activityFeedMachine, input: () => ({ bus }), events }));
  });

  it('keeps the latest events from the bus, newest first, with a bounded unread count and safe details', () => {
    const bus = createAppBus();
    const feed = createActor(activityFeedMachine, { input: { bus } }).start();
    bus.publish({
      name: 'instanceUpdated',
      data: instance,
      tenantName: 'farmacia-central',
      sentAt: '2026-11-23T10:00:00.000Z',
    });
    bus.publish({
      name: 'chatNotification',
      data: {
        ticketId: 9,
        instanceId: 4,
        customerId: 1,
        messageId: 2,
        userId: null,
        departmentId: null,
        fromMe: false,
        preview: 'private customer text',
        createdAt: 'x',
      },
      tenantName: 'farmacia-central',
      sentAt: '2026-11-23T10:00:01.000Z',
    });
    const { entries, unread } = feed.getSnapshot().context;
    expect(entries.map((e) => e.name)).toEqual(['chatNotification', 'instanceUpdated']);
    expect(entries[1]?.detail).toEqual({ name: 'WhatsApp Loja 1', status: 'syncing', syncProgress: 40 });
    // Message text never reaches the feed line.
    expect(JSON.stringify(entries[0])).not.toContain('private customer text');
    expect(unread).toBe(2);
    feed.send({ type: 'feed.read' });
    expect(feed.getSnapshot().context.unread).toBe(0);
    for (let i = 0; i < FEED_LIMIT + 5; i += 1)
      bus.publish({
        name: 'chatTicketClosed',
        data: { ticketId: i, instanceId: 1, customerId: 1, userId: null, reasonId: null, closedAt: 'x' },
        tenantName: 't',
        sentAt: 'x',
      });
    expect(feed.getSnapshot().context.entries).toHaveLength(FEED_LIMIT);
    expect(feed.getSnapshot().context.unread).toBe(FEED_LIMIT);
    feed.stop();
    bus.publish({
      name: 'chatTicketClosed',
      data: { ticketId: 999, instanceId: 1, customerId: 1, userId: null, reasonId: null, closedAt: 'x' },
      tenantName: 't',
      sentAt: 'x',
    });
  });

  it("keeps an audit record's operation and target for its line, and nothing of the change itself", () => {
    const bus = createAppBus();
    const feed = createActor(activityFeedMachine, { input: { bus } }).start();
    bus.publish({
      name: 'auditRecorded',
      data: {
        id: 1043,
        at: '2026-11-25T14:02:11.512Z',
        operation: 'tenant.plan',
        targetType: 'tenant',
        targetId: 2,
        targetName: 'farmacia-x',
        // A server sending more than the contract's payload: not kept.
        ...({ changes: [{ field: 'plan', before: '"starter"', after: '"enterprise"' }] } as object),
      },
      tenantName: 'backoffice',
      sentAt: '2026-11-25T14:02:11.600Z',
    });
    const [entry] = feed.getSnapshot().context.entries;
    expect(entry?.name).toBe('auditRecorded');
    expect(entry?.detail).toEqual({
      operation: 'tenant.plan',
      targetType: 'tenant',
      targetId: 2,
      targetName: 'farmacia-x',
    });
    feed.stop();
  });
});
