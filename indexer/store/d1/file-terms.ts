/**
 * @module indexer/store/d1/file-terms
 *
 * A file version's `file_terms` rows (migrations/0025): how many of its chunks hold each term, as
 * JSON objects `{"term": chunks}` that activation sums over a snapshot's files into `snapshot_df`.
 * One object per row while it stays under FILE_TERMS_ROW_CHARS, so no row nears D1's 2 MB
 * (a 1 MiB file of short distinct identifiers has more term entries than text bytes).
 */

/**
 * Characters of JSON per `file_terms` row: a quarter of D1's largest row (2 MB,
 * developers.cloudflare.com/d1/platform/limits/), counting a character as up to 4 bytes. One
 * row holds hono's largest file (about 20 KB of JSON).
 */
export const FILE_TERMS_ROW_CHARS = 125_000;

/**
 * `counts` (term -> chunks holding it) as JSON objects of at most `maxChars` characters each
 * (a single entry longer than that gets a row of its own), in the map's order; none for no terms.
 */
export function fileTermsRows(counts: Map<string, number>, maxChars = FILE_TERMS_ROW_CHARS): string[] {
  const rows: string[] = [];
  let entries: string[] = [];
  let size = 2;
  for (const [term, n] of counts) {
    const entry = `${JSON.stringify(term)}:${n}`;
    if (entries.length && size + entry.length + 1 > maxChars) {
      rows.push(`{${entries.join(",")}}`);
      entries = [];
      size = 2;
    }
    entries.push(entry);
    size += entry.length + 1;
  }
  if (entries.length) rows.push(`{${entries.join(",")}}`);
  return rows;
}
