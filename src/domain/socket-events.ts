import type { components } from '../generated/openapi';
import type { AuditOperation, AuditTargetType } from './audit';

/**
 * Payload types of the server → client events, mirroring the table in `contracts/socket.md` §3.
 * `InstanceUpdated` carries the REST `Instance` schema itself, so it is typed from the generated code.
 */
type Id = number;
type Instant = string;

export interface ServerEventData {
  ping: { message: 'pong'; serverTime: Instant };
  InstanceUpdated: components['schemas']['Instance'];
  CampaignUpdated: {
    campaignId: Id;
    name: string;
    status: 'draft' | 'scheduled' | 'running' | 'paused' | 'finished' | 'cancelled';
    total: number;
    sent: number;
    delivered: number;
    read: number;
    failed: number;
    replied: number;
  };
  ChatNotification: {
    ticketId: Id;
    instanceId: Id;
    customerId: Id;
    messageId: Id;
    userId: Id | null;
    departmentId: Id | null;
    fromMe: boolean;
    preview: string;
    createdAt: Instant;
  };
  CustomerChatCreated: {
    ticketId: Id;
    instanceId: Id;
    customerId: Id;
    userId: Id | null;
    departmentId: Id | null;
    origin: 'inbound' | 'outbound' | 'campaign';
    createdAt: Instant;
  };
  CustomerCreatedToChat: {
    customerId: Id;
    instanceId: Id;
    ticketId: Id | null;
    name: string | null;
    phone: string;
    createdAt: Instant;
  };
  CustomerChatAckChanged: {
    messageId: Id;
    ticketId: Id;
    instanceId: Id;
    customerId: Id;
    ack: 'pending' | 'sent' | 'delivered' | 'read' | 'failed';
    ackAt: Instant;
  };
  CustomerBlacklisted: {
    customerId: Id;
    phone: string;
    instanceId: Id | null;
    blacklisted: boolean;
    byUserId: Id | null;
    reason: string | null;
  };
  GroupOfCustomersUpdated: {
    groupId: Id;
    name: string;
    change: 'created' | 'updated' | 'imported' | 'deleted';
    customersCount: number;
  };
  ChatTicketTransfer: {
    transferId: Id;
    ticketId: Id;
    instanceId: Id;
    customerId: Id;
    fromUserId: Id;
    toUserId: Id | null;
    toDepartmentId: Id | null;
    note: string | null;
    requestedAt: Instant;
  };
  ChatTicketTransferring: {
    transferId: Id;
    ticketId: Id;
    instanceId: Id;
    customerId: Id;
    fromUserId: Id;
    toUserId: Id;
  };
  ChatTicketTransferred: {
    transferId: Id;
    ticketId: Id;
    instanceId: Id;
    customerId: Id;
    fromUserId: Id;
    toUserId: Id;
    toDepartmentId: Id | null;
    transferredAt: Instant;
  };
  DeleteChatTicketTransfer: {
    transferId: Id;
    ticketId: Id;
    instanceId: Id;
    customerId: Id;
    fromUserId: Id;
    toUserId: Id | null;
    reason: 'rejected' | 'cancelled' | 'expired';
  };
  ChatTicketClosed: {
    ticketId: Id;
    instanceId: Id;
    customerId: Id;
    userId: Id | null;
    reasonId: Id | null;
    closedAt: Instant;
  };
  /** Extension (contracts/socket.md §3): sent to every tenant's connections, roles being shared by all. */
  RolePermissionsChanged: { roleId: Id };
  /**
   * Extension (contracts/socket.md §3): an audit record was written — a change to a user, tenant, role,
   * department, instance or connection, a sign-in or sign-out, a refresh-token reuse, a denial, a purge.
   */
  AuditRecorded: {
    id: Id;
    at: Instant;
    operation: AuditOperation;
    targetType: AuditTargetType;
    targetId: Id | null;
    targetName: string | null;
    /**
     * Extension (docs/lists.md, Versions): the target's version this change produced (the feature set's for
     * `tenant.feature`); null when it changes no versioned record. Optional: a server without versions omits it.
     */
    targetVersion?: number | null;
  };
  /**
   * Extension (contracts/socket.md §3; docs/webhooks.md): a webhook run's deliveries moved on; the REST
   * `WebhookRun` itself. To the run's tenant's connections and back-office staff's, roles holding `tenants`.
   */
  WebhookRunProgress: components['schemas']['WebhookRun'];
}

/** Event names exactly as the server sends them. */
export type ServerEventName = keyof ServerEventData;

/** The app-bus name: the server name with its first letter lowercased (contracts/socket.md). */
export type AppEventName = Uncapitalize<ServerEventName>;

/** App-bus payloads keyed by the lowercased name. */
export type AppEventData = { [K in ServerEventName as Uncapitalize<K>]: ServerEventData[K] };

export const SERVER_EVENT_NAMES = [
  'ping',
  'InstanceUpdated',
  'CampaignUpdated',
  'ChatNotification',
  'CustomerChatCreated',
  'CustomerCreatedToChat',
  'CustomerChatAckChanged',
  'CustomerBlacklisted',
  'GroupOfCustomersUpdated',
  'ChatTicketTransfer',
  'ChatTicketTransferring',
  'ChatTicketTransferred',
  'DeleteChatTicketTransfer',
  'ChatTicketClosed',
  'RolePermissionsChanged',
  'AuditRecorded',
  'WebhookRunProgress',
] as const satisfies readonly ServerEventName[];
