/**
 * @module indexer/store/d1/multi-row
 *
 * Few statements for many rows: multi-row `INSERT ... VALUES (...), (...)` and `IN (...)` lists,
 * each within D1's 100 bound parameters per statement. Fewer statements cost less per row in
 * the D1 binding and in SQLite; for FTS5 tables it matters most: SQLite opens a statement
 * savepoint for each write to a virtual table and FTS5 flushes its pending terms into a new
 * segment at every savepoint, so one row per statement writes one segment per row (and merges
 * them later), while one statement of many rows writes one segment.
 */

/** Most bound parameters of one D1 statement (developers.cloudflare.com/d1/platform/limits/). */
export const D1_MAX_PARAMS = 100;

/** Statement texts by head, tuple and row count (a batch reuses a handful of shapes). */
const sqlCache = new Map<string, string>();

function placeholders(tuple: string): number {
  return tuple.split("?").length - 1;
}

/**
 * Statements inserting `rows`, in order, with `head` (e.g. `INSERT INTO t (a, b)`) and one
 * `tuple` per row (e.g. `(?, ?)`; it may hold sub-selects, each `?` is one parameter). Every row
 * binds as many values as `tuple` has `?`; a statement holds as many rows as fit in
 * `D1_MAX_PARAMS`. Throws RangeError for a row of the wrong width or a tuple wider than the limit.
 */
export function insertRows(db: D1Database, head: string, tuple: string, rows: readonly unknown[][]): D1PreparedStatement[] {
  const width = placeholders(tuple);
  if (width < 1 || width > D1_MAX_PARAMS) throw new RangeError(`a row of ${width} parameters cannot be bound (1 to ${D1_MAX_PARAMS})`);
  const perStatement = Math.floor(D1_MAX_PARAMS / width);
  const out: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const part = rows.slice(i, i + perStatement);
    const key = `${head}\u0000${tuple}\u0000${part.length}`;
    let sql = sqlCache.get(key);
    if (sql === undefined) {
      sql = `${head} VALUES ${Array.from({ length: part.length }, () => tuple).join(", ")}`;
      sqlCache.set(key, sql);
    }
    const values: unknown[] = [];
    for (const row of part) {
      if (row.length !== width) throw new RangeError(`row of ${row.length} values for a tuple of ${width} parameters: ${tuple}`);
      values.push(...row);
    }
    out.push(db.prepare(sql).bind(...values));
  }
  return out;
}

/**
 * `items` in consecutive parts that each fit one statement beside `fixedParams` other bound
 * parameters (e.g. 1 for `repo = ?1 AND file_id IN (...)`); none for no items.
 */
export function inListParts<T>(items: readonly T[], fixedParams: number): T[][] {
  const size = D1_MAX_PARAMS - fixedParams;
  if (size < 1) throw new RangeError(`${fixedParams} fixed parameters leave no room for a list`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `?from, ?from+1, ...` for `count` numbered parameters (an IN list after `?1 ... ?from-1`). */
export function numberedList(from: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `?${from + i}`).join(", ");
}
