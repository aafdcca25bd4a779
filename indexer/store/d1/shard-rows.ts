/**
 * @module indexer/store/d1/shard-rows
 *
 * The `repos` rows a shard keeps beside the catalog's (docs/storage.md, "Shards"). Every shard
 * has the whole schema; its `repos` table holds one mirror row per repo whose index it holds, so
 * the index's own statements (the snapshot flip in `activateSnapshot`, the reads that join
 * `repos.active_commit`) run in the shard unchanged. The catalog row stays the truth for
 * everything else (visibility, status, errors, placement) and gets the flip right after the shard.
 */

/** What the catalog copies into a shard's mirror row. */
const MIRRORED = "id, name, source_kind, url, ref, status, created_at, updated_at";

/**
 * Creates `repo`'s mirror row in `shard` from the catalog row when it has none. No-op when the
 * shard is the catalog itself (no SHARD_BINDINGS) or the catalog has no such repo.
 */
export async function ensureShardRow(catalog: D1Database, shard: D1Database, repo: string): Promise<void> {
  if (shard === catalog) return;
  const row = await catalog.prepare(`SELECT ${MIRRORED} FROM repos WHERE id = ?`).bind(repo).first<Record<string, unknown>>();
  if (!row) return;
  const columns = MIRRORED.split(", ");
  await shard
    .prepare(`INSERT INTO repos (${MIRRORED}) VALUES (${columns.map(() => "?").join(", ")}) ON CONFLICT (id) DO NOTHING`)
    .bind(...columns.map((c) => row[c] ?? null))
    .run();
}

/** The snapshot a shard just activated, as the catalog records it. */
export interface CatalogFlip {
  repo: string;
  commit: string;
  embeddingModel: string;
  embeddingDims: number;
  /** ms since epoch: the snapshot's `indexedAt`. */
  now: number;
  /** The shard that holds the snapshot: it serves the repo from now on (a move's target ends the move). */
  shard: number;
  /** Statements run in the same catalog transaction (the default ref's `repo_refs` row). */
  also?: D1PreparedStatement[];
}

/**
 * Records in the catalog what `activateSnapshot` flipped in the shard (the same columns and
 * values) and makes `flip.shard` the serving shard, ending a move. Returns the shard that served
 * before, when it differs (its copy is to be deleted), else null.
 */
export async function flipCatalog(catalog: D1Database, flip: CatalogFlip): Promise<number | null> {
  const [before] = await catalog.batch<{ shard: number | null }>([
    catalog.prepare("SELECT shard FROM repos WHERE id = ?").bind(flip.repo),
    catalog
      .prepare(
        "UPDATE repos SET active_commit = ?, active_indexed_at = ?, status = 'ready', last_error = NULL, failing_since = NULL, embedding_model = ?, embedding_dims = ?, updated_at = ?, shard = ?, moving_to = NULL WHERE id = ?",
      )
      .bind(flip.commit, flip.now, flip.embeddingModel, flip.embeddingDims, flip.now, flip.shard, flip.repo),
    ...(flip.also ?? []),
  ]);
  const previous = before.results[0]?.shard ?? null;
  return previous !== null && previous !== flip.shard ? previous : null;
}
