/**
 * @module worker/search/chunk-rows
 *
 * Loads the chunk rows of the fused head (path, symbol, code ...) by chunk id, through a
 * per-isolate cache. A chunk id is content-addressed (`fileId` hashes repo, path, blob SHA and
 * CHUNK_FORMAT_VERSION; the ordinal follows), so the row behind an id never changes and needs no
 * invalidation; rows of old snapshots simply stop being nominated and age out. The cache also
 * keeps each row's token set for the confidence gate, so a warm query tokenizes no chunk text.
 */
import { LRUCache } from "lru-cache";
import { tokenize } from "../../indexer/store/contract";
import { CHUNK_CONTENT, CHUNK_FILE_JOIN, IDS_PER_STATEMENT } from "./snapshot-sql";
import type { ChunkRow } from "./types";

/**
 * Most characters of chunk code kept in the cache (UTF-16: about 2 bytes each, so ~16 MB with
 * the token sets; a Worker isolate has 128 MB).
 */
export const CHUNK_CACHE_MAX_CHARS = 6_000_000;

interface Entry {
  row: ChunkRow;
  /** Tokens of `path symbol content`, built on first use by the gate. */
  tokens?: ReadonlySet<string>;
}

/** Least recently used rows go first once their code exceeds CHUNK_CACHE_MAX_CHARS (an empty chunk still counts 1). */
const cache = new LRUCache<string, Entry>({ maxSize: CHUNK_CACHE_MAX_CHARS, sizeCalculation: (e) => Math.max(1, e.row.content.length) });

function remember(row: ChunkRow): Entry {
  const entry: Entry = { row };
  cache.set(row.id, entry);
  return entry;
}

/**
 * Rows of `ids` (those that exist), by id. Cached rows are served from memory; the rest are read
 * in one D1 batch of `IN (...)` statements (D1: 100 bound parameters per statement).
 */
export async function loadChunks(db: D1Database, ids: string[]): Promise<Map<string, ChunkRow>> {
  const out = new Map<string, ChunkRow>();
  const missing: string[] = [];
  for (const id of ids) {
    const hit = cache.get(id);
    if (hit) out.set(id, hit.row);
    else missing.push(id);
  }
  if (!missing.length) return out;
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < missing.length; i += IDS_PER_STATEMENT) {
    const part = missing.slice(i, i + IDS_PER_STATEMENT);
    statements.push(
      db
        .prepare(
          "SELECT c.id AS id, c.repo AS repo, c.path AS path, c.language AS language, c.kind AS kind, c.symbol AS symbol, c.container AS container, " +
            `c.signature AS signature, c.start_line AS startLine, c.end_line AS endLine, ${CHUNK_CONTENT} AS content ` +
            `FROM chunks c ${CHUNK_FILE_JOIN} WHERE c.id IN (${part.map(() => "?").join(", ")})`,
        )
        .bind(...part),
    );
  }
  for (const r of await db.batch<ChunkRow>(statements)) {
    for (const row of r.results) {
      remember(row);
      out.set(row.id, row);
    }
  }
  return out;
}

/** The gate's token set of a chunk: `tokenize(path + symbol + content)`, cached with its row. */
export function chunkTokens(row: ChunkRow): ReadonlySet<string> {
  const entry = cache.get(row.id) ?? remember(row);
  entry.tokens ??= new Set(tokenize(`${row.path} ${row.symbol ?? ""} ${row.content}`));
  return entry.tokens;
}
