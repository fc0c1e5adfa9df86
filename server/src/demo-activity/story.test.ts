import type { ServerEventName } from '../../../src/domain/socket-events';
import { Rng } from '../db/seed-random';
import { emptyStoryState, nextRound, type StoryState, type StoryStep } from './story';

const CAST = { instanceIds: [11, 12], userIds: [3, 4, 5], departmentIds: [7] };
const NOW = new Date('2026-11-26T12:00:00Z');

function rounds(count: number, cast = CAST, seed = 1): StoryStep[][] {
  const rng = new Rng(seed);
  let state: StoryState = emptyStoryState();
  const out: StoryStep[][] = [];
  for (let i = 0; i < count; i += 1) {
    const round = nextRound(cast, state, rng, NOW);
    out.push(round.steps);
    state = round.state;
  }
  return out;
}

/** The thirteen events of the table in contracts/socket.md §3, `ping` aside. */
const CONTRACT_EVENTS: readonly ServerEventName[] = [
  'CampaignUpdated',
  'ChatNotification',
  'ChatTicketClosed',
  'ChatTicketTransferred',
  'ChatTicketTransferring',
  'CustomerBlacklisted',
  'CustomerChatCreated',
  'CustomerChatAckChanged',
  'ChatTicketTransfer',
  'CustomerCreatedToChat',
  'GroupOfCustomersUpdated',
  'InstanceUpdated',
  'DeleteChatTicketTransfer',
];

const data = (step: StoryStep) => ('data' in step ? (step.data as Record<string, unknown>) : {});

describe('demo story (server/src/demo-activity/story.ts)', () => {
  it('tells every event of contracts/socket.md but ping in each round of a tenant with instances and two users', () => {
    const expected = [...CONTRACT_EVENTS].sort();
    for (const steps of rounds(20)) {
      expect([...new Set(steps.map((s) => s.event))].sort()).toEqual(expected);
      expect(steps).toHaveLength(expected.length + 1); // the withdrawn transfer is asked too
    }
  });

  it('points only at the cast: instances, users and departments of the tenant', () => {
    for (const step of rounds(30).flat()) {
      const d = data(step);
      if (step.event === 'InstanceUpdated') expect(CAST.instanceIds).toContain(step.instanceId);
      if (d.instanceId !== undefined && d.instanceId !== null) expect(CAST.instanceIds).toContain(d.instanceId);
      for (const key of ['userId', 'fromUserId', 'toUserId', 'byUserId'])
        if (d[key] !== undefined && d[key] !== null) expect(CAST.userIds).toContain(d[key]);
      for (const key of ['departmentId', 'toDepartmentId'])
        if (d[key] !== undefined && d[key] !== null) expect(CAST.departmentIds).toContain(d[key]);
    }
  });

  it('keeps a round causal: one ticket and customer from creation to closing; a transfer is asked before it is accepted, made or withdrawn', () => {
    for (const steps of rounds(10)) {
      const chat = steps.filter((s) => 'ticketId' in data(s) && s.event !== 'CustomerBlacklisted');
      expect(new Set(chat.map((s) => data(s).ticketId)).size).toBe(1);
      expect(new Set(chat.map((s) => data(s).customerId)).size).toBe(1);
      const order = steps.map((s) => s.event);
      expect(order.indexOf('CustomerCreatedToChat')).toBeLessThan(order.indexOf('CustomerChatCreated'));
      expect(order.indexOf('ChatNotification')).toBeLessThan(order.indexOf('CustomerChatAckChanged'));
      expect(order.lastIndexOf('ChatTicketClosed')).toBeGreaterThan(order.lastIndexOf('DeleteChatTicketTransfer'));
      const asked = new Set<unknown>();
      for (const step of steps) {
        const id = data(step).transferId;
        if (step.event === 'ChatTicketTransfer') asked.add(id);
        else if (id !== undefined) expect(asked.has(id)).toBe(true);
      }
      const accepted = steps.find((s) => s.event === 'ChatTicketTransferring');
      const made = steps.find((s) => s.event === 'ChatTicketTransferred');
      expect(data(made!).transferId).toBe(data(accepted!).transferId);
      expect(data(made!).fromUserId).not.toBe(data(made!).toUserId);
    }
  });

  it('never repeats an id across rounds of one tenant', () => {
    const ids = rounds(25).flatMap((steps) => {
      const created = steps.find((s) => s.event === 'CustomerCreatedToChat');
      return [data(created!).ticketId, data(created!).customerId];
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('advances a campaign over rounds with consistent counts, finishes it and starts another', () => {
    const updates = rounds(40)
      .flat()
      .flatMap((s) => (s.event === 'CampaignUpdated' ? [s.data] : []));
    let finished = 0;
    for (const [i, u] of updates.entries()) {
      const { total, sent, delivered, read, failed, replied } = u;
      expect(sent).toBeLessThanOrEqual(total);
      expect(delivered + failed).toBe(sent);
      expect(read).toBeLessThanOrEqual(delivered);
      expect(replied).toBeLessThanOrEqual(read);
      const previous = updates[i - 1];
      if (previous && previous.campaignId === u.campaignId) expect(sent).toBeGreaterThan(previous.sent);
      if (u.status === 'finished') {
        finished += 1;
        expect(sent).toBe(total);
        expect(updates[i + 1]?.campaignId ?? -1).not.toBe(u.campaignId);
      } else expect(u.status).toBe('running');
    }
    expect(finished).toBeGreaterThan(1);
  });

  it('tells a tenant without instances only what needs none', () => {
    for (const steps of rounds(5, { instanceIds: [], userIds: [3], departmentIds: [] }))
      expect(steps.map((s) => s.event)).toEqual(['CampaignUpdated', 'GroupOfCustomersUpdated', 'CustomerBlacklisted']);
  });

  it('skips the transfers when the tenant has a single user', () => {
    for (const steps of rounds(5, { instanceIds: [1], userIds: [3], departmentIds: [] })) {
      const names = steps.map((s) => s.event);
      expect(names).not.toContain('ChatTicketTransfer');
      expect(names).toContain('ChatTicketClosed');
    }
  });

  it('is deterministic for one seed', () => {
    expect(rounds(3, CAST, 42)).toEqual(rounds(3, CAST, 42));
    expect(rounds(3, CAST, 42)).not.toEqual(rounds(3, CAST, 43));
  });
});
