import type { AppEventData, AppEventName, ServerEventName } from './socket-events';
import { SERVER_EVENT_NAMES } from './socket-events';

/**
 * Frames of `contracts/socket.md` §2. Base64 is taken over UTF-8 bytes: plain `btoa` on a JS string
 * would throw (or mangle) on "ç", "ã" and the rest of pt-BR.
 */

export function utf8ToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export function base64ToUtf8(base64: string): string {
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** `InstanceUpdated` → `instanceUpdated`; only the first letter changes. */
export function lowercaseFirst<S extends string>(name: S): Uncapitalize<S> {
  return (name.charAt(0).toLowerCase() + name.slice(1)) as Uncapitalize<S>;
}

export interface ClientPing {
  event: 'ping';
  tenantName: string;
  userId: number;
}

/** The text frame a client sends: `{"action":"sendmessage","data":"<base64 JSON>"}`. */
export function encodeClientFrame(message: ClientPing): string {
  return JSON.stringify({ action: 'sendmessage', data: utf8ToBase64(JSON.stringify(message)) });
}

/** A decoded server event, already renamed for the app bus. */
export type AppEvent = {
  [K in AppEventName]: { name: K; data: AppEventData[K]; tenantName: string; sentAt: string };
}[AppEventName];

/** An event this client does not know; forwarded anyway so a newer server does not break it (socket.md §4.2). */
export interface UnknownAppEvent {
  name: string;
  data: Record<string, unknown>;
  tenantName: string;
  sentAt: string;
  unknown: true;
}

export type DecodeResult =
  { ok: true; event: AppEvent | UnknownAppEvent } | { ok: false; reason: 'not-base64' | 'not-json' | 'bad-envelope' };

const KNOWN = new Set<string>(SERVER_EVENT_NAMES);

/**
 * Decodes one server text frame (base64 of `{event, data, tenantName, sentAt}`). Never throws: a
 * frame that does not decode is reported so the socket machine can log and drop it.
 */
export function decodeServerFrame(frame: string): DecodeResult {
  let text: string;
  try {
    text = base64ToUtf8(frame.trim());
  } catch {
    return { ok: false, reason: 'not-base64' };
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not-json' };
  }
  if (!envelope || typeof envelope !== 'object' || Array.isArray(envelope))
    return { ok: false, reason: 'bad-envelope' };
  const { event, data, tenantName, sentAt } = envelope as Record<string, unknown>;
  if (typeof event !== 'string' || event === '' || !data || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, reason: 'bad-envelope' };
  }
  if (typeof tenantName !== 'string' || typeof sentAt !== 'string') return { ok: false, reason: 'bad-envelope' };
  if (!KNOWN.has(event)) {
    return {
      ok: true,
      event: { name: lowercaseFirst(event), data: data as Record<string, unknown>, tenantName, sentAt, unknown: true },
    };
  }
  return { ok: true, event: { name: lowercaseFirst(event as ServerEventName), data, tenantName, sentAt } as AppEvent };
}

/** Server side of the same codec (used by the reference server and tests). */
export function encodeServerFrame(
  event: ServerEventName,
  data: object,
  tenantName: string,
  sentAt = new Date().toISOString(),
): string {
  return utf8ToBase64(JSON.stringify({ event, data, tenantName, sentAt }));
}
