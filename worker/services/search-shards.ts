/**
 * @module worker/services/search-shards
 *
 * The shard handles one search reads through (docs/storage.md, "Shards"): per shard a coalescing
 * D1 view (worker/search/d1-coalesce.ts), so that shard's reads of all its repos share round
 * trips, and its vector index (indexer/store/vectors/indexes.ts: the index follows the shard);
 * and the packages each searched snapshot publishes, read from the shard's `repos` mirror rows
 * with `snapshot_packages` (indexer/store/d1/shard-rows.ts).
 */
import { shardDb } from "../../indexer/store/shards";
import { shardVectorStore } from "../../indexer/store/vectors";
import { coalescingD1 } from "../search/d1-coalesce";
import type { ShardDeps } from "../search/shard-targets";
import type { ServiceContext } from "./context";

/** `(n) => shard n's handles`, each built once per search. Throws RangeError for a shard that does not exist. */
export function shardHandles(ctx: ServiceContext): (n: number) => ShardDeps {
  const made = new Map<number, ShardDeps>();
  return (n) => {
    let h = made.get(n);
    if (!h) {
      const raw = shardDb(ctx.env, n);
      h = { db: coalescingD1(raw), vectors: shardVectorStore(ctx.env, ctx.config, n) };
      made.set(n, h);
    }
    return h;
  };
}

/** Reads of the packages JSON (`[{name, folder}]`) of `ids`' active snapshots, one read per shard, started on demand. */
export interface PackageReads {
  /** Starts shard `n`'s read (no-op when started). */
  start(n: number): void;
  /**
   * The packages JSON of snapshot (`id`, `commit`) in shard `n`, or null (no snapshot there).
   * The shard's mirror row knows only the default ref's snapshot: another ref's is read apart.
   */
  of(n: number, id: string, commit: string): Promise<string | null>;
}

/** The packages JSON of one snapshot (a ref other than the default; worker/services/refs.ts). */
const SNAPSHOT_PACKAGES_SQL =
  "SELECT json_group_array(json_object('name', p.name, 'folder', p.folder)) AS packages FROM snapshot_packages p WHERE p.repo = ? AND p.commit_sha = ?";

/** Package reads of `ids` over `shards`; one statement per 90 ids per shard. */
export function packageReads(shards: (n: number) => ShardDeps, ids: readonly string[]): PackageReads {
  const started = new Map<number, Promise<Map<string, Row>>>();
  type Row = { commit: string | null; packages: string | null };
  const read = async (db: D1Database): Promise<Map<string, Row>> => {
    const out = new Map<string, Row>();
    for (let i = 0; i < ids.length; i += 90) {
      const part = ids.slice(i, i + 90);
      const { results } = await db
        .prepare(
          "SELECT id, active_commit AS [commit], (SELECT json_group_array(json_object('name', p.name, 'folder', p.folder)) FROM snapshot_packages p WHERE p.repo = repos.id AND p.commit_sha = repos.active_commit) AS packages " +
            `FROM repos WHERE id IN (${part.map(() => "?").join(", ")})`,
        )
        .bind(...part)
        .all<{ id: string } & Row>();
      for (const r of results) out.set(r.id, r);
    }
    return out;
  };
  const start = (n: number) => {
    let p = started.get(n);
    if (!p) {
      p = read(shards(n).db);
      p.catch(() => {}); // awaited by `of`; a prefetch nobody needs must not be an unhandled rejection
      started.set(n, p);
    }
    return p;
  };
  return {
    start: (n) => void start(n),
    of: async (n, id, commit) => {
      const row = (await start(n)).get(id);
      if (!row || row.commit === commit) return row?.packages ?? null;
      return (await shards(n).db.prepare(SNAPSHOT_PACKAGES_SQL).bind(id, commit).first<{ packages: string | null }>())?.packages ?? null;
    },
  };
}
