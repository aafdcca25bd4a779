/**
 * @module worker/search/entry-lookup
 *
 * Reads a snapshot's entry files (worker/search/entry-points.ts) from the index: the manifests
 * of its package roots (the `files` rows of `package.json`, `pyproject.toml`, ... at the root and
 * up to two folders down, found in the path channel's per-isolate file list), its
 * `main` functions (the `symbols` table, by its name index) and its file list (the path
 * channel's per-isolate cache), then the chunk that stands for each entry (its `main` function,
 * else the file's first chunk). Two D1 statements in one batch, then one for the chunks (and
 * the file list when the path channel has not cached it), once per snapshot: the result is cached per isolate by repo and commit (a snapshot never changes), so
 * only the first entry-point question of a snapshot pays for it.
 */
import { LRUCache } from "lru-cache";
import { snapshotFiles } from "./channels/path";
import { conventionalEntries, declaredEntries, ENTRY_MANIFEST_NAMES, folderOf, isToolingPath, MAX_MANIFEST_DEPTH, type EntryFile } from "./entry-points";
import { supportKind } from "./support-prior";
import { MAX_ENTRY_FILES } from "./ranking/weights";
import { SNAPSHOT_JOIN } from "./snapshot-sql";

/** An entry file with the chunk that stands for it. */
export interface EntryChunk extends EntryFile {
  repo: string;
  chunkId: string;
  language: string;
}

/** What the lookup reads of a searched repo. */
export interface EntryTarget {
  id: string;
  commit: string;
}

/** Entry chunks per repo and commit, per isolate. */
const cache = new LRUCache<string, EntryChunk[]>({ max: 64 });

/** Most manifests read per snapshot (the shallowest first). */
const MAX_MANIFESTS = 64;

const MANIFEST_SQL =
  "SELECT sf.path AS path, f.text AS text FROM snapshot_files sf JOIN files f ON f.repo = sf.repo AND f.file_id = sf.file_id " +
  "WHERE sf.repo = ? AND sf.commit_sha = ? AND sf.path IN (SELECT value FROM json_each(?))";

/**
 * The manifests of package roots: at most MAX_MANIFEST_DEPTH folders deep, not in tests,
 * tooling, docs or examples (an example's package.json declares the example), shallowest first.
 */
function manifestPaths(files: readonly { path: string; test: boolean }[]): string[] {
  return files
    .filter((f) => {
      const segments = f.path.split("/");
      return (
        segments.length - 1 <= MAX_MANIFEST_DEPTH &&
        ENTRY_MANIFEST_NAMES.includes(segments[segments.length - 1]) &&
        !f.test &&
        !isToolingPath(f.path) &&
        supportKind(f.path) === null &&
        !segments.some((s) => s === "node_modules" || s === "vendor" || s === "testdata" || s === "fixtures")
      );
    })
    .map((f) => f.path)
    .sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1))
    .slice(0, MAX_MANIFESTS);
}

/** `main` functions and methods of the snapshot (Go, Java, Rust, C, C#'s `Main`, Python's `def main`). */
const MAIN_SQL =
  "SELECT s.path AS path, s.chunk_id AS chunkId FROM symbols s JOIN snapshot_files sf ON sf.repo = s.repo AND sf.commit_sha = ? AND sf.path = s.path AND sf.file_id = s.file_id " +
  "WHERE s.repo = ? AND s.name_lower = 'main' AND s.kind IN ('function', 'method') AND s.chunk_id IS NOT NULL ORDER BY s.path LIMIT 200";

/** Reads one snapshot's entries (uncached). */
async function readEntries(db: D1Database, t: EntryTarget): Promise<EntryChunk[]> {
  const files = await snapshotFiles({ db, repo: t.id, commit: t.commit });
  const manifestList = manifestPaths(files);
  const [manifests, mains] = await db.batch<{ path: string; text?: string; chunkId?: string }>([
    db.prepare(MANIFEST_SQL).bind(t.id, t.commit, JSON.stringify(manifestList)),
    db.prepare(MAIN_SQL).bind(t.commit, t.id),
  ]);
  const paths = new Set(files.map((f) => f.path));
  const testPaths = new Set(files.filter((f) => f.test).map((f) => f.path));
  const texts = new Map(manifests.results.map((r) => [r.path, r.text ?? ""]));
  const mainChunk = new Map<string, string>();
  for (const r of mains.results) if (r.chunkId && !testPaths.has(r.path) && !isToolingPath(r.path) && !mainChunk.has(r.path)) mainChunk.set(r.path, r.chunkId);
  const entries: EntryFile[] = [];
  const add = (e: EntryFile) => {
    if (!entries.some((x) => x.path === e.path)) entries.push(e);
  };
  declaredEntries(texts, paths).forEach(add);
  for (const path of mainChunk.keys()) add({ path, tier: "main", source: "a main function" });
  const roots = [...new Set(["", ...manifestList.map(folderOf)])];
  conventionalEntries(paths, (p) => testPaths.has(p), roots).forEach(add);
  const kept = entries.slice(0, MAX_ENTRY_FILES);
  if (!kept.length) return [];
  // The chunk standing for a file: its main function, else its first chunk.
  const { results } = await db
    .prepare(
      "SELECT c.path AS path, c.id AS id, c.language AS language, min(c.start_line) AS first FROM chunks c " +
        SNAPSHOT_JOIN +
        " WHERE c.repo = ? AND c.path IN (SELECT value FROM json_each(?)) GROUP BY c.path",
    )
    .bind(t.commit, t.id, JSON.stringify(kept.map((e) => e.path)))
    .all<{ path: string; id: string; language: string }>();
  const first = new Map(results.map((r) => [r.path, r]));
  return kept.flatMap((e) => {
    const row = first.get(e.path);
    return row ? [{ ...e, repo: t.id, chunkId: mainChunk.get(e.path) ?? row.id, language: row.language }] : [];
  });
}

/**
 * The entry chunks of the searched snapshots, strongest tier first per repo. A repo whose read
 * fails has none (logged; the search goes on as without the entry stage).
 */
export async function snapshotEntries(db: D1Database, targets: readonly EntryTarget[]): Promise<EntryChunk[]> {
  const lists = await Promise.all(
    targets.map(async (t) => {
      const key = `${t.id}\0${t.commit}`;
      const known = cache.get(key);
      if (known) return known;
      try {
        const entries = await readEntries(db, t);
        cache.set(key, entries);
        return entries;
      } catch (err) {
        console.error(`entry lookup failed for ${t.id}`, err);
        return [];
      }
    }),
  );
  return lists.flat();
}
