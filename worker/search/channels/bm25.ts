/**
 * @module worker/search/channels/bm25
 *
 * The BM25 channel: Okapi BM25 over the `chunk_terms` postings of the active snapshot, with
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
 * One statement scoring the chunks of the scope's snapshot that hold a phrase of `terms`, best
 * first, at most `limit` (all when absent): rows `{ id, path, score }`, score > 0. Statistics
 * (N, average length, document frequencies) are the whole snapshot's, never narrowed by the
 * filters, which only choose which chunks are returned. Ties: chunk id (content-addressed, so the
 * order does not depend on insertion history). A snapshot without statistics scores nothing.
 */
export function bm25Statement(scope: ChannelScope, terms: string[], limit?: number, restrict?: Bm25Restriction): D1PreparedStatement {
  const f = filterSql(scope.filters);
  const w = BM25_WEIGHTS;
  // Phrases travel as one JSON parameter (a report's 24 terms make 48 ranges, over D1's 100
  // parameters as separate ones). CROSS JOIN fixes the plan: phrases drive, postings are range
  // scans of (repo, term), snapshot membership a lookup by (repo, file_id).
  const sql =
    "WITH q AS (SELECT CAST(j.key AS INTEGER) AS i, json_extract(j.value, '$[0]') AS lo, json_extract(j.value, '$[1]') AS hi FROM json_each(?1) j), " +
    "s AS (SELECT chunks AS total, CAST(tokens AS REAL) / max(chunks, 1) AS avgdl FROM snapshot_stats WHERE repo = ?2 AND commit_sha = ?3), " +
    "m AS MATERIALIZED (SELECT q.i AS i, t.chunk_rowid AS r, " +
    `sum(t.tf_symbol * ${w.symbol} + t.tf_path * ${w.path} + t.tf_body * ${w.body}) AS tf ` +
    "FROM q CROSS JOIN chunk_terms t CROSS JOIN snapshot_files sf " +
    "WHERE t.repo = ?2 AND t.term >= q.lo AND t.term < q.hi AND sf.repo = ?2 AND sf.file_id = t.file_id AND sf.commit_sha = ?3 " +
    "GROUP BY q.i, t.chunk_rowid), " +
    "d AS (SELECT i, count(*) AS n FROM m GROUP BY i) " +
    "SELECT c.id AS id, c.path AS path, " +
    `sum(max(1e-6, ln((s.total - d.n + 0.5) / (d.n + 0.5))) * m.tf * ${BM25_K1 + 1} / (m.tf + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * c.token_count / s.avgdl))) AS score ` +
    "FROM m JOIN d ON d.i = m.i CROSS JOIN s CROSS JOIN chunks c ON c.rowid = m.r " +
    `WHERE 1${f.sql}${restrict?.sql ?? ""} GROUP BY m.r ORDER BY score DESC, c.id` +
    (limit === undefined ? "" : ` LIMIT ${Math.floor(limit)}`);
  return scope.db.prepare(sql).bind(JSON.stringify(phraseRanges(terms)), scope.repo, scope.commit, ...f.params, ...(restrict?.params ?? []));
}

/** Runs the channel: chunks matching any selected term, best BM25 first, up to `depth`. */
export async function bm25Channel(scope: ChannelScope): Promise<ChannelResult> {
  if (!scope.terms.length) return { channel: "bm25", hits: [], skipped: "no query term occurs in the index" };
  const { results } = await bm25Statement(scope, scope.terms, scope.depth).all<{ id: string; score: number }>();
  return { channel: "bm25", hits: results.map((r) => ({ chunkId: r.id, score: r.score })) };
}
