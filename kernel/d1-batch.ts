/**
 * @module kernel/d1-batch
 *
 * One batch per database for statements bound to several D1 databases (the catalog and the
 * index shards, indexer/store/shards.ts), for the index side and the query side alike.
 */

/**
 * Runs statements prepared on different shards' databases as one `batch` per database, in
 * parallel, and returns their results in input order. Each database's batch is its own
 * transaction: use it for reads, or for writes that need no atomicity across shards.
 */
export async function batchAcross<T = Record<string, unknown>>(items: readonly { db: D1Database; statement: D1PreparedStatement }[]): Promise<D1Result<T>[]> {
  const out: D1Result<T>[] = new Array(items.length);
  const byDb = new Map<D1Database, number[]>();
  items.forEach((item, i) => {
    const list = byDb.get(item.db);
    if (list) list.push(i);
    else byDb.set(item.db, [i]);
  });
  await Promise.all(
    [...byDb].map(async ([db, indexes]) => {
      const results = await db.batch<T>(indexes.map((i) => items[i].statement));
      results.forEach((r, j) => (out[indexes[j]] = r));
    }),
  );
  return out;
}
