import type { ServerEventData, ServerEventName } from '../../../src/domain/socket-events';
import { FIRST_NAMES, LAST_NAMES, type Rng } from '../db/seed-random';

/**
 * The demo chat world of one tenant (docs/operations.md "Demo activity"): the reference server has
 * no chat, customers or campaigns, so `DEMO_ACTIVITY=1` tells their story from the tenant's real
 * instances, users and departments. Ids of tickets, customers, messages, transfers, campaigns and
 * groups are the simulator's own, counted per tenant from 1; nothing here is stored.
 *
 * One round is one short, causally ordered story in which every event of contracts/socket.md §3
 * (except `ping`, which answers the client) happens once: a customer writes in, a ticket opens, a
 * message goes out and is read, a transfer is asked, accepted and made, a second transfer is asked
 * and withdrawn, the ticket closes, a campaign advances, an audience grows, a contact is blocked or
 * unblocked, and one of the tenant's instances reports its current state.
 */

/** The tenant's real rows the story points at. */
export interface StoryCast {
  instanceIds: readonly number[];
  userIds: readonly number[];
  departmentIds: readonly number[];
}

/** What the simulator remembers of one tenant between rounds. */
export interface StoryState {
  nextId: number;
  campaign: {
    id: number;
    name: string;
    total: number;
    sent: number;
    delivered: number;
    read: number;
    failed: number;
    replied: number;
  } | null;
  groups: { id: number; name: string; customersCount: number }[];
}

/** One event of a round; `InstanceUpdated` is only named, its payload is the stored instance at send time. */
export type StoryStep =
  | { [E in Exclude<ServerEventName, 'ping' | 'InstanceUpdated'>]: { event: E; data: ServerEventData[E] } }[Exclude<
      ServerEventName,
      'ping' | 'InstanceUpdated'
    >]
  | { event: 'InstanceUpdated'; instanceId: number };

export const CAMPAIGN_NAMES = [
  'Ofertas da semana',
  'Lembrete de recompra',
  'Vacinação de inverno',
  'Aniversariantes do mês',
  'Programa de fidelidade',
] as const;

export const GROUP_NAMES = [
  'Clientes recorrentes',
  'Diabéticos',
  'Hipertensos',
  'Mães e bebês',
  'Terceira idade',
] as const;

const PREVIEWS = [
  'Bom dia! Vocês têm dipirona em gotas?',
  'Qual o horário de funcionamento hoje?',
  'Gostaria de saber se a entrega já saiu.',
  'Vocês aceitam a receita digital?',
  'Tem desconto para a linha infantil?',
] as const;

export function emptyStoryState(): StoryState {
  return { nextId: 1, campaign: null, groups: [] };
}

function phone(rng: Rng): string {
  return `+55 11 9${rng.int(1000, 9999)}-${rng.int(1000, 9999)}`;
}

/**
 * The next round for one tenant, and the state after it. Pure: the same cast, state, random source
 * and clock give the same round. A tenant without instances gets the events that need none
 * (campaign, audience, blocked contact).
 */
export function nextRound(
  cast: StoryCast,
  state: StoryState,
  rng: Rng,
  now: Date,
): { steps: StoryStep[]; state: StoryState } {
  let nextId = state.nextId;
  const id = () => nextId++;
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();
  const user = () => (cast.userIds.length > 0 ? rng.pick(cast.userIds) : null);
  const department = () => (cast.departmentIds.length > 0 ? rng.pick(cast.departmentIds) : null);
  const steps: StoryStep[] = [];

  if (cast.instanceIds.length > 0) {
    const instanceId = rng.pick(cast.instanceIds);
    const customerId = id();
    const ticketId = id();
    const messageId = id();
    const agent = user();
    const agentDepartment = department();
    const name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
    steps.push(
      {
        event: 'CustomerCreatedToChat',
        data: { customerId, instanceId, ticketId, name, phone: phone(rng), createdAt: at(0) },
      },
      {
        event: 'CustomerChatCreated',
        data: {
          ticketId,
          instanceId,
          customerId,
          userId: agent,
          departmentId: agentDepartment,
          origin: 'inbound',
          createdAt: at(0),
        },
      },
      {
        event: 'ChatNotification',
        data: {
          ticketId,
          instanceId,
          customerId,
          messageId,
          userId: agent,
          departmentId: agentDepartment,
          fromMe: false,
          preview: rng.pick(PREVIEWS),
          createdAt: at(1),
        },
      },
      {
        event: 'CustomerChatAckChanged',
        data: {
          messageId,
          ticketId,
          instanceId,
          customerId,
          ack: rng.pick(['delivered', 'read'] as const),
          ackAt: at(2),
        },
      },
    );
    // A transfer needs someone to hand over from and someone to hand to.
    const from = agent ?? user();
    const to = cast.userIds.find((u) => u !== from) ?? null;
    if (from !== null && to !== null) {
      const transferId = id();
      steps.push(
        {
          event: 'ChatTicketTransfer',
          data: {
            transferId,
            ticketId,
            instanceId,
            customerId,
            fromUserId: from,
            toUserId: to,
            toDepartmentId: null,
            note: null,
            requestedAt: at(3),
          },
        },
        {
          event: 'ChatTicketTransferring',
          data: { transferId, ticketId, instanceId, customerId, fromUserId: from, toUserId: to },
        },
        {
          event: 'ChatTicketTransferred',
          data: {
            transferId,
            ticketId,
            instanceId,
            customerId,
            fromUserId: from,
            toUserId: to,
            toDepartmentId: null,
            transferredAt: at(4),
          },
        },
      );
      const withdrawn = id();
      steps.push(
        {
          event: 'ChatTicketTransfer',
          data: {
            transferId: withdrawn,
            ticketId,
            instanceId,
            customerId,
            fromUserId: to,
            toUserId: null,
            toDepartmentId: department(),
            note: null,
            requestedAt: at(5),
          },
        },
        {
          event: 'DeleteChatTicketTransfer',
          data: {
            transferId: withdrawn,
            ticketId,
            instanceId,
            customerId,
            fromUserId: to,
            toUserId: null,
            reason: rng.pick(['rejected', 'cancelled', 'expired'] as const),
          },
        },
      );
    }
    steps.push({
      event: 'ChatTicketClosed',
      data: { ticketId, instanceId, customerId, userId: to ?? agent, reasonId: null, closedAt: at(6) },
    });
    steps.push({ event: 'InstanceUpdated', instanceId });
  }

  // A campaign runs over several rounds, then the next one starts.
  let campaign = state.campaign;
  if (!campaign || campaign.sent >= campaign.total) {
    const total = rng.int(200, 2_000);
    campaign = {
      id: id(),
      name: rng.pick(CAMPAIGN_NAMES),
      total,
      sent: 0,
      delivered: 0,
      read: 0,
      failed: 0,
      replied: 0,
    };
  }
  const sent = Math.min(
    campaign.total,
    campaign.sent + Math.max(1, Math.round((campaign.total * rng.int(10, 30)) / 100)),
  );
  const fresh = sent - campaign.sent;
  const failed = campaign.failed + Math.round(fresh * 0.02);
  const delivered = sent - failed;
  const read = Math.min(delivered, campaign.read + Math.round(fresh * 0.6));
  const replied = Math.min(read, campaign.replied + Math.round(fresh * 0.05));
  campaign = { ...campaign, sent, failed, delivered, read, replied };
  steps.push({
    event: 'CampaignUpdated',
    data: {
      campaignId: campaign.id,
      name: campaign.name,
      status: campaign.sent >= campaign.total ? 'finished' : 'running',
      total: campaign.total,
      sent: campaign.sent,
      delivered: campaign.delivered,
      read: campaign.read,
      failed: campaign.failed,
      replied: campaign.replied,
    },
  });

  const groups = state.groups.map((g) => ({ ...g }));
  let group =
    groups.length >= GROUP_NAMES.length || (groups.length > 0 && rng.chance(0.6)) ? rng.pick(groups) : undefined;
  let change: 'created' | 'updated' | 'imported';
  if (!group) {
    const name = GROUP_NAMES.find((n) => !groups.some((g) => g.name === n)) ?? GROUP_NAMES[0];
    group = { id: id(), name, customersCount: rng.int(20, 200) };
    groups.push(group);
    change = 'created';
  } else {
    change = rng.chance(0.3) ? 'imported' : 'updated';
    group.customersCount += change === 'imported' ? rng.int(50, 300) : rng.int(1, 10);
  }
  steps.push({
    event: 'GroupOfCustomersUpdated',
    data: { groupId: group.id, name: group.name, change, customersCount: group.customersCount },
  });

  const blacklisted = rng.chance(0.7);
  steps.push({
    event: 'CustomerBlacklisted',
    data: {
      customerId: id(),
      phone: phone(rng),
      instanceId: cast.instanceIds.length > 0 ? rng.pick(cast.instanceIds) : null,
      blacklisted,
      byUserId: user(),
      reason: blacklisted ? 'Pediu para não receber mensagens' : null,
    },
  });

  return { steps, state: { nextId, campaign, groups } };
}
