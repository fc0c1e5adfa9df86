import { SimulatedClock } from 'xstate';
import { base64ToUtf8, encodeServerFrame } from '../../domain/socket-codec';
import type { WebSocketLike } from '../realtime/socket-actors';
import type { SocketTicket } from '../realtime/socket.machine';

/** Fakes for socket tests: a scriptable WebSocket and a simulated clock that counts its pending timers. */

type Listener = (event: never) => void;

/** A WebSocket the test drives: `open()`, `receive()`, `drop()`, `fail()`. `send` on a non-open socket throws, like the browser. */
export class FakeSocket implements WebSocketLike {
  state: 'connecting' | 'open' | 'closed' = 'connecting';
  readonly sent: string[] = [];
  closedWith: { code: number; reason: string } | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.state !== 'open') throw new Error(`InvalidStateError: send on a ${this.state} socket`);
    this.sent.push(data);
  }

  close(code?: number, reason?: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.closedWith = { code: code ?? 1000, reason: reason ?? '' };
  }

  addEventListener(type: string, listener: Listener): void {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }

  removeEventListener(type: string, listener: Listener): void {
    this.listeners.get(type)?.delete(listener);
  }

  private fire(type: string, event?: unknown): void {
    for (const listener of [...(this.listeners.get(type) ?? [])]) (listener as (e: unknown) => void)(event);
  }

  /** The server accepted the connection. */
  open(): void {
    this.state = 'open';
    this.fire('open');
  }

  /** A text (or binary) frame arrives. */
  receive(data: unknown): void {
    this.fire('message', { data });
  }

  /** The connection ends from the other side (or the network). */
  drop(code = 1006, reason = ''): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.fire('close', { code, reason });
  }

  /** An error event (browsers follow it with a close). */
  fail(): void {
    this.fire('error');
  }

  /** The client pings sent, decoded. */
  pings(): unknown[] {
    return this.sent.map((frame) => JSON.parse(base64ToUtf8((JSON.parse(frame) as { data: string }).data)) as unknown);
  }
}

/**
 * A ticket source (`fetchTicket` of the socket machine) that answers `K1`, `K2`… with the token
 * `token()` gives, or fails while `failing` is set; `asked` counts the calls. Answers are promises:
 * let them settle with {@link settle}.
 */
export function fakeTickets(token: () => string | null = () => 'T1') {
  const state = { asked: 0, failing: null as Error | null };
  return {
    state,
    fetchTicket: (): Promise<SocketTicket> => {
      state.asked += 1;
      if (state.failing) return Promise.reject(state.failing);
      return Promise.resolve({ ticket: `K${state.asked}`, token: token() });
    },
  };
}

/** Lets settled promises' reactions run (a ticket's answer reaching the machine): microtasks only, no timers. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

/** Every socket created, in order. */
export function fakeSockets() {
  const all: FakeSocket[] = [];
  return {
    all,
    create: (url: string) => {
      const socket = new FakeSocket(url);
      all.push(socket);
      return socket;
    },
    last: (): FakeSocket => {
      const socket = all.at(-1);
      if (!socket) throw new Error('no socket was created');
      return socket;
    },
  };
}

/**
 * A `SimulatedClock` that also knows its pending timers by delay; `advance` moves time (and fires what is
 * due). Usable wherever XState takes a clock, the model walk's included.
 */
export class TrackingClock extends SimulatedClock {
  private readonly active = new Map<number, number>();

  override setTimeout(fn: (...args: unknown[]) => void, timeout: number): number {
    const id: number = super.setTimeout(() => {
      this.active.delete(id);
      fn();
    }, timeout);
    this.active.set(id, timeout);
    return id;
  }

  override clearTimeout(id: number): void {
    this.active.delete(id);
    super.clearTimeout(id);
  }

  advance(ms: number): void {
    this.increment(ms);
  }

  /** Pending timers with exactly this delay. */
  pending(timeout: number): number {
    return [...this.active.values()].filter((t) => t === timeout).length;
  }

  /** All pending timers. */
  pendingAll(): number {
    return this.active.size;
  }
}

export const TENANT = 'farmacia-central';

/** A server frame for `TENANT` (or another tenant). */
export function frame(event: Parameters<typeof encodeServerFrame>[0], data: object, tenantName = TENANT): string {
  return encodeServerFrame(event, data, tenantName, '2026-01-15T12:00:00.000Z');
}
