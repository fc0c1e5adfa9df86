import { createAppBus, type BusMessage } from './app-bus';

const closed: BusMessage = {
  name: 'chatTicketClosed',
  data: {
    ticketId: 1,
    instanceId: 2,
    customerId: 3,
    userId: null,
    reasonId: null,
    closedAt: '2026-01-15T12:00:00.000Z',
  },
  tenantName: 't',
  sentAt: '2026-01-15T12:00:00.000Z',
};
const unknown: BusMessage = {
  name: 'somethingNew',
  data: { a: 1 },
  tenantName: 't',
  sentAt: '2026-01-15T12:00:00.000Z',
  unknown: true,
};

describe('app bus', () => {
  it('delivers by name and to catch-all listeners, unknown names only to the latter', () => {
    const bus = createAppBus();
    const byName: number[] = [];
    const all: string[] = [];
    bus.on('chatTicketClosed', (message) => byName.push(message.data.ticketId));
    bus.onAny((message) => all.push(message.name));
    bus.publish(closed);
    bus.publish(unknown);
    expect(byName).toEqual([1]);
    expect(all).toEqual(['chatTicketClosed', 'somethingNew']);
  });

  it('keeps delivering when a handler throws or unsubscribes mid-delivery', () => {
    const errors: unknown[] = [];
    const bus = createAppBus({ onHandlerError: (error) => errors.push(error) });
    const seen: string[] = [];
    const off = bus.on('chatTicketClosed', () => {
      seen.push('first');
      off();
    });
    bus.on('chatTicketClosed', () => {
      throw new Error('boom');
    });
    bus.on('chatTicketClosed', () => seen.push('third'));
    bus.publish(closed);
    bus.publish(closed);
    expect(seen).toEqual(['first', 'third', 'third']);
    expect(errors).toHaveLength(2);
  });
});
