import type { AuditRecord } from '../audit/audit.machine';
import { json, type SeenRequest } from './fake-fetch';

/**
 * A scripted `GET /api/audit` (contracts/openapi.yaml `auditList`) over an in-memory list: newest
 * first by id, the contract's filters, keyset paging (`next` is the last row's id, `after` takes the
 * rows below it), a 400 on a cursor that is not one, and the CSV variant with `Accept: text/csv`.
 * `GET /api/tenant/false` answers the tenant filter's options. Anything else is a 404.
 */

export const auditRecord = (id: number, over: Partial<AuditRecord> = {}): AuditRecord => ({
  id,
  at: new Date(Date.now() - (1000 - id) * 60_000).toISOString(),
  actor_user_id: 1,
  actor_name: 'Ana Administradora',
  actor_email: 'admin@demo.local',
  actor_tenant_id: 1,
  actor_tenant_name: 'backoffice',
  actor_staff: true,
  address: '203.0.113.7',
  request_id: `req-${id}`,
  operation: 'tenant.plan',
  target_type: 'tenant',
  target_id: 2,
  target_name: 'farmacia-x',
  tenant_id: 2,
  tenant_name: 'farmacia-x',
  changes: [
    { field: 'plan', before: '"starter"', after: '"enterprise"' },
    { field: 'user_limit', before: '5', after: '200' },
  ],
  undoable_until: null,
  undone_by: null,
  undo_of: null,
  ...over,
});

export interface FakeAuditApi {
  records: AuditRecord[];
  /** Every `GET /api/audit` seen, in order. */
  seen: SeenRequest[];
  /** Every `GET /api/audit/names` seen, in order. */
  names: SeenRequest[];
  respond: (request: SeenRequest) => Response;
}

/** `GET /api/audit/names` over the records: each actor or target by its newest record, by name. */
function names(records: readonly AuditRecord[], q: URLSearchParams) {
  const text = (q.get('q') ?? '').toLowerCase();
  const id = q.has('id') ? Number(q.get('id')) : null;
  const found = new Map<
    number,
    { id: number; name: string | null; email: string | null; tenant_name: string | null }
  >();
  for (const r of [...records].sort((a, b) => b.id - a.id)) {
    const name =
      q.get('of') === 'actor'
        ? r.actor_user_id === null
          ? null
          : { id: r.actor_user_id, name: r.actor_name, email: r.actor_email, tenant_name: r.actor_tenant_name }
        : r.target_type !== q.get('targetType') || r.target_id === null
          ? null
          : { id: r.target_id, name: r.target_name, email: null, tenant_name: r.tenant_name };
    if (!name || found.has(name.id) || (id !== null && name.id !== id)) continue;
    if (text && !`${name.name ?? ''} ${name.email ?? ''}`.toLowerCase().includes(text)) continue;
    found.set(name.id, name);
  }
  return [...found.values()].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
}

function matching(records: readonly AuditRecord[], q: URLSearchParams): AuditRecord[] {
  const num = (name: string) => (q.has(name) ? Number(q.get(name)) : null);
  const from = q.get('from');
  const to = q.get('to');
  const operations = q.getAll('operation');
  return records
    .filter((r) => (from === null || r.at >= from) && (to === null || r.at < to))
    .filter((r) => num('actorId') === null || r.actor_user_id === num('actorId'))
    .filter((r) => num('tenantId') === null || r.tenant_id === num('tenantId'))
    .filter((r) => operations.length === 0 || operations.includes(r.operation))
    .filter((r) => !q.has('targetType') || r.target_type === q.get('targetType'))
    .filter((r) => num('targetId') === null || r.target_id === num('targetId'))
    .sort((a, b) => b.id - a.id);
}

export function fakeAuditApi(initial: AuditRecord[] = []): FakeAuditApi {
  const api: FakeAuditApi = {
    records: [...initial],
    seen: [],
    names: [],
    respond(request) {
      if (request.method === 'GET' && request.path === '/api/audit/names') {
        api.names.push(request);
        return json(200, { data: names(api.records, request.query) });
      }
      if (request.method === 'GET' && request.path === '/api/tenant/false')
        return json(200, [
          { id: 1, name: 'backoffice' },
          { id: 2, name: 'farmacia-x' },
        ]);
      if (request.method !== 'GET' || request.path !== '/api/audit')
        return json(404, { message: `no fake for ${request.method} ${request.path}` });
      api.seen.push(request);
      const q = request.query;
      const rows = matching(api.records, q);
      if (request.headers.get('Accept') === 'text/csv') {
        const lines = ['id;operacao;alvo_nome', ...rows.map((r) => `${r.id};${r.operation};${r.target_name ?? ''}`)];
        return new Response(`\uFEFF${lines.map((line) => `${line}\r\n`).join('')}`, {
          status: 200,
          headers: { 'Content-Type': 'text/csv; charset=utf-8' },
        });
      }
      const after = q.get('after');
      if (after !== null && !/^\d+$/.test(after))
        return json(400, { message: 'Validation failed', errors: [{ field: 'query/after', message: 'not a cursor' }] });
      const limit = Number(q.get('limit') ?? 50);
      const page = rows.filter((r) => after === null || r.id < Number(after)).slice(0, limit);
      const more = rows.some((r) => page.length > 0 && r.id < page[page.length - 1]!.id);
      return json(200, { data: page, next: more ? String(page[page.length - 1]!.id) : null });
    },
  };
  return api;
}
