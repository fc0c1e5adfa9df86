import type { Insertable, Kysely } from 'kysely';
import type {
  AttendancesTable,
  Database,
  InstanceEvent,
  InstanceLogsTable,
  OrderStatus,
  OrdersTable,
  TicketStatus,
} from '../db/schema';
import { FIRST_NAMES, LAST_NAMES, chunks, type Rng } from '../db/seed-random';
import type { SeededTenant } from './seed-org';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** America/Sao_Paulo has had no daylight-saving time since 2019: a fixed UTC−3 is exact for the demo window. */
const SAO_PAULO_OFFSET = 3 * HOUR;

/** Sunday … Saturday: pharmacies are busiest on Friday, quiet on Sunday. */
const WEEKDAY_FACTOR = [0.45, 1.1, 1, 1, 1.05, 1.25, 0.8] as const;
/** Opening hours 08–21 (São Paulo), peaks late morning and early evening. */
const HOUR_WEIGHTS: readonly (readonly [number, number])[] = [
  [8, 3],
  [9, 6],
  [10, 9],
  [11, 10],
  [12, 7],
  [13, 6],
  [14, 7],
  [15, 7],
  [16, 8],
  [17, 10],
  [18, 10],
  [19, 8],
  [20, 5],
  [21, 2],
];

export interface ActivityOptions {
  now: Date;
  rng: Rng;
  days: number;
}

/** One São Paulo calendar day of the demo window. */
interface DemoDay {
  /** UTC instant of the day's local midnight. */
  start: number;
  weekday: number;
  /** 0 for the oldest day, 1 for today: a gentle growth trend. */
  progress: number;
  daysAgo: number;
}

function demoDays(now: Date, count: number): DemoDay[] {
  const local = new Date(now.getTime() - SAO_PAULO_OFFSET);
  const todayStart = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) + SAO_PAULO_OFFSET;
  return Array.from({ length: count }, (_, i) => {
    const daysAgo = count - 1 - i;
    const start = todayStart - daysAgo * DAY;
    return {
      start,
      weekday: new Date(start - SAO_PAULO_OFFSET).getUTCDay(),
      progress: count > 1 ? i / (count - 1) : 1,
      daysAgo,
    };
  });
}

/** Expected events that day, before noise. */
function dailyVolume(base: number, day: DemoDay, rng: Rng): number {
  const factor = (WEEKDAY_FACTOR[day.weekday] ?? 1) * (0.85 + 0.3 * day.progress) * (0.7 + 0.6 * rng.float());
  return Math.max(0, Math.round(base * factor));
}

/** A random instant of business hours on `day`, or null when it would lie outside [from, until]. */
function businessInstant(day: DemoDay, rng: Rng, from: number, until: number): Date | null {
  const hour = rng.weighted(HOUR_WEIGHTS);
  const at = day.start + hour * HOUR + rng.int(0, HOUR - 1000);
  return at < from || at > until ? null : new Date(at);
}

function customerName(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

function centsToDecimal(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Orders, attendances, attendance reasons and instance logs for one tenant over the demo window. */
export async function seedTenantActivity(
  trx: Kysely<Database>,
  tenant: SeededTenant,
  reasonIds: readonly number[],
  options: ActivityOptions,
): Promise<void> {
  const { rng } = options;
  const from = tenant.createdAt.getTime();
  const until = Math.min(options.now.getTime(), tenant.deletedAt?.getTime() ?? Number.POSITIVE_INFINITY);
  const days = demoDays(options.now, options.days);

  const orders: Insertable<OrdersTable>[] = [];
  const attendances: Insertable<AttendancesTable>[] = [];
  const logs: Insertable<InstanceLogsTable>[] = [];
  for (const day of days) {
    const recent = day.daysAgo <= 1;
    for (let n = dailyVolume(6 * tenant.scale, day, rng); n > 0; n--) {
      const createdAt = businessInstant(day, rng, from, until);
      if (!createdAt) continue;
      const status: OrderStatus = recent
        ? rng.weighted<OrderStatus>([
            ['pending', 35],
            ['confirmed', 35],
            ['delivered', 25],
            ['cancelled', 5],
          ])
        : rng.weighted<OrderStatus>([
            ['delivered', 78],
            ['confirmed', 8],
            ['pending', 3],
            ['cancelled', 11],
          ]);
      const items = rng.int(1, 6);
      const unitCents = rng.skewed(3_490, 590, 18_990);
      orders.push({
        tenant_id: tenant.id,
        created_at: createdAt,
        customer_name: customerName(rng),
        website_id: rng.weighted<number | null>([
          [null, 5],
          [1, 3],
          [2, 2],
          [3, 1],
        ]),
        status,
        items,
        total: centsToDecimal(items * unitCents),
      });
    }

    for (let n = dailyVolume(7 * tenant.scale, day, rng); n > 0; n--) {
      const startedAt = businessInstant(day, rng, from, until);
      if (!startedAt) continue;
      const status: TicketStatus = recent
        ? rng.weighted<TicketStatus>([
            ['closed', 50],
            ['open', 25],
            ['pending', 15],
            ['transferred', 10],
          ])
        : rng.weighted<TicketStatus>([
            ['closed', 82],
            ['transferred', 8],
            ['pending', 4],
            ['open', 6],
          ]);
      const finished = status === 'closed' || status === 'transferred';
      const handling = finished ? rng.skewed(540, 45, 5_400) : null;
      const firstResponse = status === 'open' && rng.chance(0.5) ? null : rng.skewed(75, 3, 1_800);
      const estimation = rng.chance(0.25);
      const finishedAt = handling === null ? null : new Date(Math.min(startedAt.getTime() + handling * 1000, until));
      attendances.push({
        tenant_id: tenant.id,
        user_id: tenant.userIds.length > 0 && rng.chance(0.95) ? rng.pick(tenant.userIds) : null,
        started_at: startedAt,
        finished_at: finishedAt,
        website_id: rng.weighted<number | null>([
          [null, 5],
          [1, 3],
          [2, 2],
          [3, 1],
        ]),
        estimation,
        estimation_value: estimation ? centsToDecimal(rng.skewed(8_900, 1_500, 60_000)) : null,
        first_response_seconds: firstResponse,
        handling_seconds: finishedAt === null ? null : Math.round((finishedAt.getTime() - startedAt.getTime()) / 1000),
        ticket_status: status,
      });
    }

    for (const instanceId of tenant.instanceIds) {
      for (
        let incidents = rng.weighted([
          [0, 1],
          [1, 4],
          [2, 3],
          [3, 1],
        ] as const);
        incidents > 0;
        incidents--
      ) {
        const at = businessInstant(day, rng, from, until);
        if (!at) continue;
        const t = at.getTime();
        const push = (offset: number, event: InstanceEvent, detail: string | null) => {
          if (t + offset <= until)
            logs.push({
              tenant_id: tenant.id,
              instance_id: instanceId,
              created_at: new Date(t + offset),
              event,
              detail,
            });
        };
        const kind = rng.weighted([
          ['reconnect', 45],
          ['qrcode', 15],
          ['sync', 30],
          ['error', 10],
        ] as const);
        if (kind === 'reconnect') {
          push(
            0,
            'disconnected',
            rng.pick(['Conexão perdida com o aparelho', 'Aparelho sem bateria', 'Sessão encerrada no celular']),
          );
          push(rng.int(1, 40) * MINUTE, 'connected', null);
        } else if (kind === 'qrcode') {
          push(0, 'qrcode', 'QR Code gerado para reconexão');
          push(rng.int(1, 10) * MINUTE, 'connected', 'Conectado pelo QR Code');
        } else if (kind === 'sync') {
          push(0, 'sync_started', null);
          push(rng.int(2, 30) * MINUTE, 'sync_finished', `${String(rng.int(50, 5_000))} mensagens sincronizadas`);
        } else {
          push(
            0,
            'error',
            rng.pick(['Tempo de resposta excedido', 'Falha ao enviar mensagem', 'Limite de envio atingido']),
          );
        }
      }
    }
  }

  for (const chunk of chunks(orders)) await trx.insertInto('orders').values(chunk).execute();
  for (const chunk of chunks(logs)) await trx.insertInto('instance_logs').values(chunk).execute();

  const reasons: { tenant_id: number; reason_id: number; attendance_id: number | null; created_at: Date }[] = [];
  const reasonWeights = reasonIds.map((id, i) => [id, [25, 20, 20, 15, 15, 5][i] ?? 5] as const);
  for (const chunk of chunks(attendances)) {
    const rows = await trx
      .insertInto('attendances')
      .values(chunk)
      .returning(['id', 'started_at', 'finished_at', 'ticket_status'])
      .execute();
    // Sorted by id so the reasons do not depend on the order RETURNING happens to use.
    for (const row of rows.sort((a, b) => a.id - b.id)) {
      if (row.ticket_status !== 'closed' || !rng.chance(0.45) || reasonWeights.length === 0) continue;
      reasons.push({
        tenant_id: tenant.id,
        reason_id: rng.weighted(reasonWeights),
        attendance_id: row.id,
        created_at: row.finished_at ?? row.started_at,
      });
    }
  }
  // A few reasons recorded outside any attendance (e.g. at the counter).
  for (let n = rng.int(3, 8); n > 0 && reasonWeights.length > 0; n--) {
    const at = businessInstant(rng.pick(days), rng, from, until);
    if (at)
      reasons.push({
        tenant_id: tenant.id,
        reason_id: rng.weighted(reasonWeights),
        attendance_id: null,
        created_at: at,
      });
  }
  for (const chunk of chunks(reasons)) await trx.insertInto('attendance_reasons').values(chunk).execute();
}

/**
 * Failed logins spread over the window (at least a day old, so they never trip the login throttle)
 * for the login-failure report, plus a few for addresses that match no user.
 */
export async function seedLoginFailures(
  trx: Kysely<Database>,
  users: readonly { id: number; email: string }[],
  options: ActivityOptions,
): Promise<void> {
  const { rng, now } = options;
  const rows = [];
  const count = Math.min(300, users.length * 2 + 10);
  for (let i = 0; i < count; i++) {
    const known = users.length > 0 && rng.chance(0.85);
    const user = known ? rng.pick(users) : null;
    rows.push({
      email: user?.email ?? `${rng.pick(['contato', 'teste', 'admin', 'suporte'])}@exemplo.com.br`,
      ip: rng.chance(0.9)
        ? `177.${String(rng.int(0, 255))}.${String(rng.int(0, 255))}.${String(rng.int(1, 254))}`
        : null,
      remote_address: `10.0.${String(rng.int(0, 20))}.${String(rng.int(1, 254))}`,
      user_id: user?.id ?? null,
      success: false,
      created_at: new Date(now.getTime() - DAY - rng.int(0, (options.days - 1) * 24 * 60) * MINUTE),
    });
  }
  rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  for (const chunk of chunks(rows)) await trx.insertInto('login_attempts').values(chunk).execute();
}
