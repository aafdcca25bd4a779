/**
 * @module worker/search/channels/bm25
 *
 * The BM25 channel: Okapi BM25 over the `chunks_fts` postings of the active snapshot, with
 * per-column weights (symbol, path, body) and the snapshot's own statistics: N and the average
 * document length from `snapshot_stats`, each phrase's document frequency counted over the
 * snapshot's chunks in the same statement. The formula is FTS5's `bm25()` (k1 = 1.2, b = 0.75,
 * column-weighted term frequency, IDF floored at 1e-6; sqlite.org/fts5.html#the_bm25_function),
 * but FTS5's statistics span the whole table (every repo) and, with `contentless_delete`, its row
 * count and token totals only grow as rows are rewritten; these equal a fresh build's.
 *
 * Each query term also matches words sharing its stem as a prefix (`routing` -> `rout*`), a
 * light query expansion: as in FTS5's `"routing" OR "rout"*`, the term and its prefix are two
 * phrases, each with its own document frequency and frequency per chunk.
 */
import { filterSql } from "../filters";
import { BM25_B, BM25_K1, BM25_WEIGHTS } from "../ranking/weights";
import { stemPrefix } from "../term-stats";
import type { ChannelResult } from "../types";
import type { ChannelScope } from "./scope";

/** The FTS5 MATCH expression for terms: OR of each term (quoted) and its stem prefix (boolean matching only). */
export function matchExpression(terms: string[]): string {
  return terms
    .map((t) => {
      const s = stemPrefix(t);
      return s ? `("${t}" OR "${s}"*)` : `"${t}"`;
    })
    .join(" OR ");
}

/**
 * The phrases of `terms` as vocabulary ranges [lo, hi): a term matches itself (`hi` = the term
 * and a space, which sorts below every letter and digit, so the range holds the term alone), its
 * stem prefix every word starting with the stem.
 */
export function phraseRanges(terms: string[]): [string, string][] {
  return terms.flatMap((t): [string, string][] => {
    const s = stemPrefix(t);
    return s
      ? [
          [t, `${t} `],
          [s, `${s}\uffff`],
        ]
      : [[t, `${t} `]];
  });
}

/** Restrictions on the scored chunks `c` beyond the scope's filters (SQL with leading " AND ", and its parameters). */
export interface Bm25Restriction {
  sql: string;
  params: unknown[];
}

/**
 * The statement's text up to and including the CTE `scored` (rows `id`, `path`, `score` of every
 * chunk of the scope's snapshot holding a phrase of the terms and passing the filters), and its
 * parameters: ?1 the phrases, ?2 the repo, ?3 the commit, then the filters' and `restrict`'s.
 */
function scoredCte(scope: ChannelScope, terms: string[], restrict?: Bm25Restriction): { sql: string; params: unknown[] } {
  const f = filterSql(scope.filters);
  const w = BM25_WEIGHTS;
  // Phrases travel as one JSON parameter (a report's 24 terms make 48 ranges, over D1's 100
  // parameters as separate ones). CROSS JOIN fixes the plan: phrases drive, occurrences are range
  // scans of chunks_fts's index by term (chunks_fts_instance, migrations/0025), counted per column
  // and chunk first; then each chunk's snapshot membership is looked up once, by rowid and
  // (repo, file_id). q is materialized: the view re-checks each occurrence against lo and hi, and
  // an inlined q re-parsed the JSON for every occurrence (sympy, `self return expr`: 478 -> 295 ms
  // for the scan alone in node:sqlite).
  const sql =
    "WITH q AS MATERIALIZED (SELECT CAST(j.key AS INTEGER) AS i, json_extract(j.value, '$[0]') AS lo, json_extract(j.value, '$[1]') AS hi FROM json_each(?1) j), " +
    "s AS (SELECT chunks AS total, CAST(tokens AS REAL) / max(chunks, 1) AS avgdl FROM snapshot_stats WHERE repo = ?2 AND commit_sha = ?3), " +
    "p AS MATERIALIZED (SELECT q.i AS i, v.doc AS r, sum(v.col = 'symbol') AS ts, sum(v.col = 'path') AS tp, sum(v.col = 'body') AS tb " +
    "FROM q CROSS JOIN chunks_fts_instance v WHERE v.term >= q.lo AND v.term < q.hi GROUP BY q.i, v.doc), " +
    `m AS MATERIALIZED (SELECT p.i AS i, p.r AS r, p.ts * ${w.symbol} + p.tp * ${w.path} + p.tb * ${w.body} AS tf ` +
    "FROM p CROSS JOIN chunks c CROSS JOIN snapshot_files sf " +
    "WHERE c.rowid = p.r AND c.repo = ?2 AND sf.repo = ?2 AND sf.file_id = c.file_id AND sf.commit_sha = ?3), " +
    "d AS (SELECT i, count(*) AS n FROM m GROUP BY i), " +
    "scored AS MATERIALIZED (SELECT c.id AS id, c.path AS path, " +
    `sum(max(1e-6, ln((s.total - d.n + 0.5) / (d.n + 0.5))) * m.tf * ${BM25_K1 + 1} / (m.tf + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * c.token_count / s.avgdl))) AS score ` +
    "FROM m JOIN d ON d.i = m.i CROSS JOIN s CROSS JOIN chunks c ON c.rowid = m.r " +
    `WHERE 1${f.sql}${restrict?.sql ?? ""} GROUP BY m.r)`;
  return { sql, params: [JSON.stringify(phraseRanges(terms)), scope.repo, scope.commit, ...f.params, ...(restrict?.params ?? [])] };
}

/**
 * One statement scoring the chunks of the scope's snapshot that hold a phrase of `terms`, best
 * first, at most `limit` (all when absent): rows `{ id, path, score }`, score > 0. Statistics
 * (N, average length, document frequencies) are the whole snapshot's, never narrowed by the
 * filters, which only choose which chunks are returned. Ties: chunk id (content-addressed, so the
 * order does not depend on insertion history). A snapshot without statistics scores nothing.
 */
export function bm25Statement(scope: ChannelScope, terms: string[], limit?: number, restrict?: Bm25Restriction): D1PreparedStatement {
  const { sql, params } = scoredCte(scope, terms, restrict);
  return scope.db
    .prepare(`${sql} SELECT id, path, score FROM scored ORDER BY score DESC, id${limit === undefined ? "" : ` LIMIT ${Math.floor(limit)}`}`)
    .bind(...params);
}

/** A BM25-scored chunk: its id and score (> 0). */
export interface Bm25Hit {
  id: string;
  score: number;
}

/** A BM25-scored chunk with its path. */
export interface Bm25Row extends Bm25Hit {
  path: string;
}

/** Best first, ties by chunk id: the order of bm25Statement. */
const byScore = (a: Bm25Hit, b: Bm25Hit) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The BM25 channel's list and the best scored chunks of `paths` (the path channel's named files)
 * from one statement: the postings are scanned and scored once, where bm25Statement twice would
 * scan them twice (workerd CPU per warm hono query 9-26% lower: docs/ranking.md "Search cost").
 * `top`: the best `limit` chunks, as bm25Statement(scope, terms, limit) without the paths;
 * `inPaths`: the best `perFile` scored chunks of each of `paths` (best first overall, ties by
 * chunk id), as bm25Statement restricted to them keeps per file. Rows carry no path (a chunk's
 * file is its id's prefix, `fileIdOfChunk`): the path channel needs no more, and every byte of
 * a row is converted in the runtime.
 */
export async function bm25WithPaths(
  scope: ChannelScope,
  terms: string[],
  limit: number,
  paths: string[],
  perFile: number,
): Promise<{ top: Bm25Hit[]; inPaths: Bm25Hit[] }> {
  const { sql, params } = scoredCte(scope, terms);
  const first = params.length + 1;
  const inPaths = paths.map((_, i) => `?${first + i}`).join(", ");
  const { results } = await scope.db
    .prepare(
      `${sql} SELECT id, score, 0 AS part FROM (SELECT id, score FROM scored ORDER BY score DESC, id LIMIT ${Math.floor(limit)}) ` +
        "UNION ALL SELECT id, score, 1 AS part FROM (SELECT id, score, row_number() OVER (PARTITION BY path ORDER BY score DESC, id) AS n " +
        `FROM scored WHERE path IN (${inPaths})) WHERE n <= ${Math.floor(perFile)}`,
    )
    .bind(...params, ...paths)
    .all<Bm25Hit & { part: number }>();
  const top: Bm25Hit[] = [];
  const inFiles: Bm25Hit[] = [];
  for (const r of results) (r.part === 0 ? top : inFiles).push({ id: r.id, score: r.score });
  // UNION ALL keeps each arm's rows together but promises no order: both are sorted here.
  return { top: top.sort(byScore), inPaths: inFiles.sort(byScore) };
}

/**
 * Runs the channel: chunks matching any selected term, best BM25 first, up to `depth`.
 * `scored`: the list when the caller already read it (bm25WithPaths).
 */
export async function bm25Channel(scope: ChannelScope, scored?: Bm25Hit[]): Promise<ChannelResult> {
  if (!scope.terms.length) return { channel: "bm25", hits: [], skipped: "no query term occurs in the index" };
  const rows = scored ?? (await bm25Statement(scope, scope.terms, scope.depth).all<Bm25Hit>()).results;
  return { channel: "bm25", hits: rows.map((r) => ({ chunkId: r.id, score: r.score })) };
}
