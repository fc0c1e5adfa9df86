import { createActor } from 'xstate';
import { createAppBus, type BusMessageOf } from '../shared/app-bus';
import { fakeServer, flush, json } from '../test-support/fake-fetch';
import { page, tenant } from '../test-support/tenants-list-fixtures';
import type { Tenant } from './tenants-actors';
import { tenantsListMachine, unsavedTenantFields } from './tenants-list.machine';

/**
 * The tenant edit form's conflict notice (docs/lists.md, Conflict notice) against a REST fake that keeps
 * the tenant's version as the server does (server/src/tenants/service.ts): a save with an older version
 * answers 409 `stale` with the audited changes since, `GET /api/audit` lists them with `target_version`.
 */
function versionedServer() {
  let stored: Tenant = { ...tenant(1), name: 'farmacia-central', version: 3 };
  const audit: Record<string, unknown>[] = [];
  const updates: Record<string, unknown>[] = [];
  const record = (operation: string, changes: { field: string; before: string; after: string }[], version: number) =>
    audit.push({
      id: 60 + audit.length,
      at: '2026-11-28T10:00:00.000Z',
      actor_name: 'Outra Pessoa',
      actor_staff: true,
      operation,
      target_type: 'tenant',
      target_id: 1,
      target_version: version,
      changes,
    });
  const fake = fakeServer((request) => {
    if (request.path === '/api/tenant/paginated') {
      const search = String((request.body as { search?: string }).search ?? '');
      const rows = [stored].filter((t) => search === '' || t.name.includes(search) || t.cnpj.includes(search));
      return json(200, page(rows));
    }
    if (request.path === '/api/audit') return json(200, { data: [...audit].reverse(), total: audit.length });
    if (request.path === '/api/tenant/update') {
      const body = request.body as Record<string, unknown> & { version?: number };
      updates.push(body);
      if (body.version !== undefined && body.version !== stored.version)
        return json(409, {
          error: 'stale',
          message: 'changed since',
          field: 'version',
          version: stored.version,
          changes: audit
            .filter((r) => (r.target_version as number) > (body.version ?? 0))
            .map((r) => ({ ...r, version: r.target_version })),
        });
      const before = stored;
      stored = {
        ...stored,
        name: String(body.name),
        cnpj: String(body.cnpj),
        template: String(body.template),
        pool: String(body.pool),
        version: stored.version + 1,
      };
      record(
        'tenant.update',
        [{ field: 'name', before: JSON.stringify(before.name), after: JSON.stringify(stored.name) }],
        stored.version,
      );
      return json(200, stored);
    }
    throw new Error(`unexpected ${request.method} ${request.path}`);
  });
  return {
    fake,
    updates,
    stored: () => stored,
    /** Someone else renames the tenant and changes its pool: version + 1, one audit record. */
    otherChanges() {
      const before = stored;
      stored = { ...stored, name: 'farmacia-central-sul', pool: 'pool-z', version: stored.version + 1 };
      record(
        'tenant.update',
        [
          { field: 'name', before: JSON.stringify(before.name), after: JSON.stringify(stored.name) },
          { field: 'pool', before: JSON.stringify(before.pool), after: JSON.stringify(stored.pool) },
        ],
        stored.version,
      );
      return audit.at(-1)?.id as number;
    },
  };
}

async function openEdit(server: ReturnType<typeof versionedServer>, bus = createAppBus()) {
  const actor = createActor(tenantsListMachine, { input: { rest: server.fake.rest, staff: true, bus } }).start();
  await flush();
  actor.send({ type: 'tenants.editOpen', tenant: server.stored() });
  return actor;
}

const announce = (bus: ReturnType<typeof createAppBus>, id: number, targetVersion: number, targetId = 1) =>
  bus.publish({
    name: 'auditRecorded',
    tenantName: 'backoffice',
    sentAt: '2026-11-28T10:00:00.000Z',
    data: {
      id,
      at: '2026-11-28T10:00:00.000Z',
      operation: 'tenant.update',
      targetType: 'tenant',
      targetId,
      targetName: 'farmacia-central-sul',
      targetVersion,
    } as BusMessageOf<'auditRecorded'>['data'],
  });

describe('tenantsListMachine: the edit form’s conflict notice', () => {
  it("a stale save opens the notice with the other change; reapply keeps theirs and the user's, sent with the new version", async () => {
    const server = versionedServer();
    const actor = await openEdit(server);
    server.otherChanges();
    const mine = { name: 'farmacia-central', cnpj: '11.222.333/0001-81', template: 'clinica', pool: 'pool-a' };
    actor.send({ type: 'tenants.edit', tenant: mine });
    await flush();
    expect(server.updates.at(-1)).toMatchObject({ id: 1, version: 3, template: 'clinica' });
    expect(actor.getSnapshot().matches({ dialog: 'editConflict' })).toBe(true);
    expect(actor.getSnapshot().context.conflict).toMatchObject({ source: 'save', kept: true, version: 4 });
    expect(actor.getSnapshot().context.conflict?.changes[0]).toMatchObject({
      actorName: 'Outra Pessoa',
      changes: [
        { field: 'name', before: '"farmacia-central"', after: '"farmacia-central-sul"' },
        { field: 'pool', before: '"pool-a"', after: '"pool-z"' },
      ],
    });
    expect(unsavedTenantFields(actor.getSnapshot().context)).toEqual([
      { field: 'template', before: '"pharmacy"', after: '"clinica"' },
    ]);
    actor.send({ type: 'conflict.reapply' });
    await flush();
    // Their name and pool and my template, with version 4 (the tenant found by its new name): nothing lost.
    expect(server.updates.at(-1)).toMatchObject({
      version: 4,
      name: 'farmacia-central-sul',
      pool: 'pool-z',
      template: 'clinica',
    });
    expect(server.stored()).toMatchObject({
      name: 'farmacia-central-sul',
      pool: 'pool-z',
      template: 'clinica',
      version: 5,
    });
    expect(actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
  });

  it('a change announced while the form holds edits opens the notice at once; discard shows the tenant as stored', async () => {
    const server = versionedServer();
    const bus = createAppBus();
    const actor = await openEdit(server, bus);
    actor.send({
      type: 'tenants.editDraft',
      tenant: { name: 'farmacia-central', cnpj: '11.222.333/0001-81', template: 'clinica', pool: 'pool-a' },
    });
    // Another tenant's change is not this form's.
    announce(bus, 99, 9, 2);
    await flush();
    expect(actor.getSnapshot().matches({ dialog: 'editForm' })).toBe(true);
    const id = server.otherChanges();
    announce(bus, id, 4);
    await flush();
    expect(actor.getSnapshot().matches({ dialog: 'editConflict' })).toBe(true);
    expect(actor.getSnapshot().context.conflict).toMatchObject({ source: 'live', kept: true, version: 4 });
    expect(actor.getSnapshot().context.conflict?.changes.map((c) => c.id)).toEqual([id]);
    const formKey = actor.getSnapshot().context.formKey;
    actor.send({ type: 'conflict.discard' });
    await flush();
    expect(actor.getSnapshot().matches({ dialog: 'editForm' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({
      version: 4,
      conflict: null,
      draft: null,
      formKey: formKey + 1,
      target: { name: 'farmacia-central-sul', pool: 'pool-z', template: 'pharmacy' },
    });
    expect(server.updates).toEqual([]);
  });

  it('a change announced while the form holds no edits reloads it and only says what changed', async () => {
    const server = versionedServer();
    const bus = createAppBus();
    const actor = await openEdit(server, bus);
    const id = server.otherChanges();
    announce(bus, id, 4);
    await flush();
    expect(actor.getSnapshot().matches({ dialog: 'editForm' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({
      version: 4,
      conflict: { source: 'live', kept: false },
      target: { name: 'farmacia-central-sul' },
    });
    actor.send({ type: 'conflict.dismiss' });
    expect(actor.getSnapshot().context.conflict).toBeNull();
    // The form's own save: its answer's event carries the version it holds, which is not news.
    actor.send({
      type: 'tenants.edit',
      tenant: { name: 'farmacia-central-sul', cnpj: '11.222.333/0001-81', template: 'clinica', pool: 'pool-z' },
    });
    await flush();
    expect(server.updates.at(-1)).toMatchObject({ version: 4, template: 'clinica' });
    expect(actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
  });
});
