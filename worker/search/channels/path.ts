/**
 * @module worker/search/channels/path
 *
 * The path channel: files whose path is named by the query, either explicitly (`router.ts`,
 * `src/router/`) or because a query term equals a directory name or a file's base name
 * (`router` -> `src/router.ts`, `src/router/...`). Terms naming many files count little
 * (1 / ln(1 + files)). From each named file it nominates its best chunks by BM25 (or its first
 * chunk when none matches). File lists are cached per isolate by repo and snapshot.
 */
import { LRUCache } from "lru-cache";
import { fileIdOfChunk, tokenize } from "../../../indexer/store/contract";
import { filterSql, isTestPath, passesFilters } from "../filters";
import type { ChannelHit, ChannelResult } from "../types";
import { bm25Statement, type Bm25Hit } from "./bm25";
import { SNAPSHOT_JOIN } from "../snapshot-sql";
import { PATH_CHUNKS_PER_FILE, PATH_MAX_FILE_SHARE, PATH_SHORT_QUERY_TERMS } from "../ranking/weights";
import type { ChannelScope } from "./scope";

/** Snapshot file lists kept per isolate (repo+commit -> paths with their name tokens and whether they are tests). */
const fileCache = new LRUCache<string, { path: string; names: Set<string>; test: boolean }[]>({ max: 32 });

/** Tokens that name a path: its directory names and its file name without extension. */
export function pathNameTokens(path: string): Set<string> {
  const segments = path.split("/");
  const file = segments.pop() ?? "";
  const stemName = file.includes(".") ? file.slice(0, file.indexOf(".")) : file;
  return new Set([...segments, stemName].flatMap((s) => tokenize(s)));
}

/**
 * Whether a hint longer than the path names it by its tail: a traceback's
 * `/usr/lib/python3/site-packages/_pytest/python.py` names `src/_pytest/python.py` (the last
 * two segments agree), and a module path `xarray/core/concat` (from `xarray.core.concat`)
 * names `xarray/core/concat.py`. At least two trailing segments must agree, so a bare file
 * name (`utils.py`) in a long path does not name every `utils.py`.
 */
export function namesFileBySuffix(hint: string, path: string): boolean {
  return namesFileBySuffixSplit(hint.replace(/\/+$/, "").split("/"), path.split("/"));
}

/** namesFileBySuffix over the hint's segments (trailing slashes dropped) and the path's. */
function namesFileBySuffixSplit(h: string[], p: string[]): boolean {
  const last = p[p.length - 1];
  const hl = h[h.length - 1];
  // The hint's last segment is the file name, or the file name without its extension.
  if (hl !== last && !(last.includes(".") && hl === last.slice(0, last.lastIndexOf(".")))) return false;
  return commonTailSegments(h, p) >= 2;
}

/**
 * How many trailing segments two split paths share, counting their last segments as equal
 * (callers compare file names first: exactly, or without the extension). At least 1.
 */
export function commonTailSegments(a: string[], b: string[]): number {
  let n = 1;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/** Scores files named by the query: explicit path hints weigh 2, named terms 1/ln(1+files). */
export function scoreFiles(files: { path: string; names: Set<string> }[], terms: string[], hints: string[]): Map<string, number> {
  const scores = new Map<string, number>();
  const add = (p: string, s: number) => scores.set(p, (scores.get(p) ?? 0) + s);
  // Each file's lowercased path and its segments, and each hint's, are computed once, not once
  // per (hint, file) pair: a report has dozens of hints and a snapshot hundreds of files.
  const lower = hints.length ? files.map((f) => f.path.toLowerCase()) : [];
  const segments = hints.length ? lower.map((p) => p.split("/")) : [];
  for (const h of hints) {
    const dir = h.endsWith("/") ? h : `${h}/`;
    const tail = `/${h}`;
    const hintSegments = h.replace(/\/+$/, "").split("/");
    files.forEach((f, i) => {
      const p = lower[i];
      if (p.endsWith(h) || p.includes(dir) || p.endsWith(tail) || namesFileBySuffixSplit(hintSegments, segments[i])) add(f.path, 2);
    });
  }
  for (const t of terms) {
    if (t.length < 3) continue;
    const named = files.filter((f) => f.names.has(t));
    if (!named.length || named.length > Math.max(1, files.length * PATH_MAX_FILE_SHARE)) continue;
    const w = 1 / Math.log(1 + named.length);
    for (const f of named) add(f.path, w);
  }
  return scores;
}

/** The paths of a snapshot (with their name tokens and whether they are tests), cached per isolate by repo and commit. */
export async function snapshotFiles(scope: Pick<ChannelScope, "db" | "repo" | "commit">) {
  const key = `${scope.repo}\0${scope.commit}`;
  let files = fileCache.get(key);
  if (!files) {
    const { results } = await scope.db
      .prepare("SELECT path FROM snapshot_files WHERE repo = ? AND commit_sha = ? ORDER BY path")
      .bind(scope.repo, scope.commit)
      .all<{ path: string }>();
    files = results.map((r) => ({ path: r.path, names: pathNameTokens(r.path), test: isTestPath(r.path) }));
    fileCache.set(key, files);
  }
  return files;
}

/**
 * The files the query names, best first (score: scoreFiles), at most enough to fill the
 * channel's depth with PATH_CHUNKS_PER_FILE chunks each; empty when it names none.
 */
export async function namedFiles(scope: ChannelScope): Promise<[string, number][]> {
  // Language is filtered in SQL (the file list has no languages).
  const pathFilters = { ...scope.filters, language: undefined };
  const files = (await snapshotFiles(scope)).filter((f) => passesFilters(pathFilters, f.path, "", false, f.test));
  // A word of a long question that happens to name a file is weak evidence (measured on
  // hono-50: it cost 12 points of R@1), so bare terms count only in short queries.
  const terms = scope.query.terms.length <= PATH_SHORT_QUERY_TERMS ? scope.query.terms : [];
  const scores = scoreFiles(files, terms, scope.query.pathHints);
  return [...scores.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, Math.ceil(scope.depth / PATH_CHUNKS_PER_FILE));
}

/**
 * Runs the channel: from each named file its best BM25 chunks, else its first ones. `joint`:
 * the named files and their scored chunks (best first) when the caller read them with the BM25
 * channel's statement (bm25WithPaths); otherwise the channel reads both itself.
 */
export async function pathChannel(scope: ChannelScope, joint?: { ranked: [string, number][]; matched: Promise<Bm25Hit[]> }): Promise<ChannelResult> {
  const ranked = joint ? joint.ranked : await namedFiles(scope);
  if (!ranked.length) return { channel: "path", hits: [] };
  const paths = ranked.map(([p]) => p);
  const f = filterSql(scope.filters);
  const inPaths = `c.path IN (${paths.map(() => "?").join(", ")})`;
  // A file contributes at most PATH_CHUNKS_PER_FILE chunks, so only that many of its first
  // chunks (definitions first, then by line) can be needed beside its best-scored ones.
  const all = scope.db
    .prepare(
      "SELECT id, path FROM (SELECT c.id AS id, c.path AS path, row_number() OVER (PARTITION BY c.path ORDER BY (c.symbol IS NULL), c.start_line) AS n FROM chunks c " +
        SNAPSHOT_JOIN +
        ` WHERE c.repo = ? AND ${inPaths}${f.sql}) WHERE n <= ${PATH_CHUNKS_PER_FILE} ORDER BY path, n`,
    )
    .bind(scope.commit, scope.repo, ...paths, ...f.params)
    .all<{ id: string; path: string }>();
  const matched = joint
    ? joint.matched
    : scope.terms.length
      ? bm25Statement(scope, scope.terms, undefined, { sql: ` AND ${inPaths}`, params: paths })
          .all<Bm25Hit>()
          .then((r) => r.results)
      : Promise.resolve([]);
  const [first, best] = await Promise.all([all, matched]);
  // Every file with a scored chunk passing the filters has a first chunk passing them too, so
  // the first chunks name the file of each scored one.
  const pathOf = new Map(first.results.map((r) => [fileIdOfChunk(r.id), r.path]));
  const perFile = new Map<string, string[]>();
  for (const r of [...best.map((b) => ({ id: b.id, path: pathOf.get(fileIdOfChunk(b.id)) ?? "" })), ...first.results]) {
    const list = perFile.get(r.path) ?? [];
    if (list.length < PATH_CHUNKS_PER_FILE && !list.includes(r.id)) list.push(r.id);
    perFile.set(r.path, list);
  }
  const hits: ChannelHit[] = [];
  for (const [p, s] of ranked) for (const id of perFile.get(p) ?? []) hits.push({ chunkId: id, score: s });
  return { channel: "path", hits: hits.slice(0, scope.depth) };
}
