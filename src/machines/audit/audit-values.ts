/**
 * A record's before/after values are JSON text (contracts/openapi.yaml `AuditChange`). This reads one
 * into what the detail shows: nothing (null, shown as "—"), yes/no, a list, or text.
 */
export type AuditValue =
  | { kind: 'empty' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'list'; items: string[] }
  | { kind: 'text'; text: string };

function plain(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function readAuditValue(text: string | null): AuditValue {
  if (text === null) return { kind: 'empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON after all: show it as written.
    return { kind: 'text', text };
  }
  if (value === null) return { kind: 'empty' };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (Array.isArray(value)) return { kind: 'list', items: value.map(plain) };
  return { kind: 'text', text: plain(value) };
}
