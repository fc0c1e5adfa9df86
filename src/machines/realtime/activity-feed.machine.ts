import { assign, fromCallback, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { AppBus, BusMessage } from '../shared/app-bus';

/** How many events the feed keeps (older ones drop off). */
export const FEED_LIMIT = 50;

/** One line of the feed: the socket event as received, with a local sequence number. */
export interface FeedEntry {
  seq: number;
  name: string;
  tenantName: string;
  sentAt: string;
  /** A short, already-safe detail (names, statuses, counts) for the line; never raw message text. */
  detail: Record<string, string | number | boolean | null>;
}

export interface ActivityFeedContext {
  bus: AppBus;
  entries: FeedEntry[];
  unread: number;
  next: number;
}

export type ActivityFeedEvent =
  { type: 'feed.received'; message: BusMessage } | { type: 'feed.read' } | { type: 'feed.clear' };

/** The fields each known event shows (socket.md §3); anything else is left out of the line. */
const DETAIL_FIELDS: Record<string, readonly string[]> = {
  instanceUpdated: ['name', 'status', 'syncProgress'],
  campaignUpdated: ['name', 'status', 'sent', 'total'],
  chatNotification: ['ticketId'],
  customerChatCreated: ['ticketId', 'origin'],
  customerCreatedToChat: ['name'],
  customerChatAckChanged: ['ticketId', 'ack'],
  customerBlacklisted: ['blacklisted'],
  groupOfCustomersUpdated: ['name', 'change', 'customersCount'],
  chatTicketTransfer: ['ticketId'],
  chatTicketTransferring: ['ticketId'],
  chatTicketTransferred: ['ticketId'],
  deleteChatTicketTransfer: ['ticketId', 'reason'],
  chatTicketClosed: ['ticketId'],
  auditRecorded: ['operation', 'targetType', 'targetId', 'targetName'],
};

function detailOf(message: BusMessage): FeedEntry['detail'] {
  const data = message.data as Record<string, unknown>;
  const detail: FeedEntry['detail'] = {};
  for (const field of DETAIL_FIELDS[message.name] ?? []) {
    const value = data[field];
    if (typeof value === 'string') detail[field] = value.slice(0, 80);
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) detail[field] = value;
  }
  return detail;
}

/** Every message on the app bus, forwarded to the feed. */
const listenToBus = fromCallback<ActivityFeedEvent, { bus: AppBus }>(({ input, sendBack }) =>
  input.bus.onAny((message) => sendBack({ type: 'feed.received', message })),
);

/**
 * The shell's activity feed: the latest socket events, newest first, with an
 * unread count the navbar shows. Started with the app, so events are kept before the feed is opened.
 */
export const activityFeedMachine = setup({
  types: {
    context: {} as ActivityFeedContext,
    events: {} as ActivityFeedEvent,
    input: {} as { bus: AppBus },
  },
  actors: { listenToBus },
}).createMachine({
  id: 'activityFeed',
  context: ({ input }) => ({ bus: input.bus, entries: [], unread: 0, next: 1 }),
  invoke: { id: 'bus', src: 'listenToBus', input: ({ context }) => ({ bus: context.bus }) },
  on: {
    'feed.received': {
      actions: assign(({ context, event }) => ({
        entries: [
          {
            seq: context.next,
            name: event.message.name,
            tenantName: event.message.tenantName,
            sentAt: event.message.sentAt,
            detail: detailOf(event.message),
          },
          ...context.entries,
        ].slice(0, FEED_LIMIT),
        unread: Math.min(context.unread + 1, FEED_LIMIT),
        next: context.next + 1,
      })),
    },
    'feed.read': { actions: assign({ unread: 0 }) },
    'feed.clear': { actions: assign({ entries: [], unread: 0 }) },
  },
});

export type ActivityFeedActor = ActorRefFrom<typeof activityFeedMachine>;
export type ActivityFeedSnapshot = SnapshotFrom<typeof activityFeedMachine>;
