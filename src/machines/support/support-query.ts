/**
 * The search screen's part of the address, `/support?q=ana`: what the box held, so a link or a reload
 * shows the same people. `supportSearch` takes 1–254 characters (docs/support-desk.md, REST operations).
 */

/** The longest query the server accepts. */
export const MAX_QUERY_LENGTH = 254;

/** The query to send for what the box holds: trimmed, at most {@link MAX_QUERY_LENGTH} code points; '' sends nothing. */
export function normaliseQuery(text: string): string {
  return Array.from(text.trim()).slice(0, MAX_QUERY_LENGTH).join('').trim();
}

/** The query an address holds (`q`), normalised; '' when it holds none. */
export function parseSupportQuery(search: string): string {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  return normaliseQuery(params.get('q') ?? '');
}

/** The address's query string for a query: `q=…`, or '' for none. */
export function serializeSupportQuery(q: string): string {
  return q === '' ? '' : new URLSearchParams({ q }).toString();
}
