/**
 * Reads a large result in keyset pages (`where id > $last order by id limit $n`) so memory stays
 * constant on both engines and PGlite's single connection is free between pages.
 *
 * @param fetchPage - returns up to `limit` rows with `id` greater than `afterId`, ordered by id
 * @param limit - rows per page
 * @example
 * for await (const rows of inBatches((after, n) =>
 *   db.selectFrom('orders').selectAll().where('tenant_id', '=', t).where('id', '>', after).orderBy('id').limit(n).execute())) { … }
 */
export async function* inBatches<T extends { id: number }>(
  fetchPage: (afterId: number, limit: number) => Promise<T[]>,
  limit = 1000,
): AsyncGenerator<T[], void, undefined> {
  let afterId = 0;
  for (;;) {
    const rows = await fetchPage(afterId, limit);
    if (rows.length === 0) return;
    yield rows;
    const last = rows[rows.length - 1];
    if (rows.length < limit || last === undefined) return;
    afterId = last.id;
  }
}
