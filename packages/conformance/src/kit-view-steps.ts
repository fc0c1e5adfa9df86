import { asArray, asRecord } from './kit-client.js';
import type { ConformanceClient } from './kit-client.js';
import type { RunContext } from './kit-rest-steps.js';

/**
 * Saved views (docs/lists.md, Views): the caller saves a view of the users list, finds it listed, makes
 * it the default, is refused a second view of the same name (409) and a column the list cannot hide
 * (400), then deletes it, after which it is unknown (404). The run leaves no view behind.
 */
export async function savedViews(c: ConformanceClient, run: RunContext): Promise<void> {
  const { rest } = c;
  const name = `Conformance ${run.stamp}`;
  const state = { query: 'sort=email&dir=desc', columns: ['department'] };
  const view = asRecord(await rest('viewCreate', 'POST', '/api/views', 201, { body: { list: 'users', name, state } }));
  if (typeof view.id !== 'number') return;
  try {
    const listed = asArray(
      asRecord(await rest('viewList', 'GET', '/api/views', 200, { query: { list: 'users' } })).data,
    );
    if (!listed.map(asRecord).some((v) => v.id === view.id))
      c.check('viewList', 'rest', 200, ['the view just saved is not listed']);
    const updated = asRecord(
      await rest('viewUpdate', 'PUT', `/api/views/${view.id}`, 200, { body: { is_default: true } }),
    );
    if (updated.is_default !== true)
      c.check('viewUpdate', 'rest', 200, ['is_default: true did not make it the default']);
    await rest(
      'viewCreate',
      'POST',
      '/api/views',
      409,
      { body: { list: 'users', name: name.toUpperCase(), state } },
      'viewCreate (same name, other case)',
    );
    await rest(
      'viewUpdate',
      'PUT',
      `/api/views/${view.id}`,
      400,
      { body: { state: { query: '', columns: ['name'] } } },
      'viewUpdate (the identifying column hidden)',
    );
  } finally {
    await rest('viewDelete', 'DELETE', `/api/views/${view.id}`, 200);
  }
  await rest('viewDelete', 'DELETE', `/api/views/${view.id}`, 404, {}, 'viewDelete (already deleted)');
}
