/**
 * @module worker/search/channels/bm25
 *
 * The BM25 channel: FTS5 over `chunks_fts` with per-column weights
 * `bm25(chunks_fts, symbol, path, body)`, restricted to the active snapshot. Each query term
 * also matches words sharing its stem as a prefix (`routing` -> `rout*`), a light query
 * expansion. Also reads document frequencies (fts5vocab) for IDF term selection.
 */
import { stem } from "../../../indexer/store/contract";
import { filterSql } from "../filters";
import type { ChannelResult } from "../types";
import { SNAPSHOT_JOIN } from "../snapshot-sql";
import type { ChannelScope } from "./scope";

/** Column weights of bm25(): symbol names, path, body. Chosen from the hono-50 ablation (README). */
export const BM25_WEIGHTS = { symbol: 4, path: 2, body: 1 };

/** Shortest stem used as a prefix: shorter prefixes match too much. */
const MIN_PREFIX_STEM = 4;

/** The FTS5 MATCH expression for terms: OR of each term (quoted) and its stem prefix. */
export function matchExpression(terms: string[]): string {
  return terms
    .map((t) => {
      const s = stem(t);
      return s !== t && s.length >= MIN_PREFIX_STEM ? `("${t}" OR "${s}"*)` : `"${t}"`;
    })
    .join(" OR ");
}

/**
 * Stem-prefix lookups (one vocab range scan each). `max`: most absent query terms looked up (a
 * pasted bug report has many absent words; 0 disables the lookup). `eager`: terms (the first
 * with a stem prefix, in query order) whose prefix frequency is read in the same D1 round trip
 * as the exact ones, before knowing which are absent: the second, dependent round trip cost
 * more than the range scans of the present ones (SWE-bench Lite's 140 problem statements have
 * at most 63 such terms); absent terms past these are read in a second round trip.
 */
export const STEM_LOOKUP = { max: 32, eager: 64 };

/** `max(doc)` of the vocabulary words starting with each stem, one statement (1 bound parameter per stem). */
function prefixStatement(db: D1Database, stems: string[]): D1PreparedStatement {
  return db
    .prepare(
      `WITH p(i, s) AS (VALUES ${stems.map((_, i) => `(${i}, ?)`).join(", ")}) ` +
        "SELECT i, (SELECT max(doc) FROM chunks_fts_vocab WHERE term >= p.s AND term < p.s || char(65535)) AS doc FROM p",
    )
    .bind(...stems);
}

/**
 * Document frequencies of `terms` across the index (all repos; an approximation that is
 * good enough for ranking terms) and the number of chunks. A term that never occurs in the
 * index, but whose stem prefix does (`queuing` -> `queu*` finds `queue`), gets the largest
 * document frequency among the words of that prefix: the MATCH expression reaches those words
 * through the prefix, so dropping the term as absent would lose them (the first STEM_LOOKUP.max
 * absent terms; see STEM_LOOKUP.eager for the round trips).
 */
export async function documentFrequencies(db: D1Database, terms: string[]): Promise<{ df: Map<string, number>; totalDocs: number }> {
  const df = new Map<string, number>();
  const statements: D1PreparedStatement[] = [db.prepare("SELECT count(*) AS n FROM chunks")];
  for (let i = 0; i < terms.length; i += 90) {
    const part = terms.slice(i, i + 90);
    statements.push(db.prepare(`SELECT term, doc FROM chunks_fts_vocab WHERE term IN (${part.map(() => "?").join(", ")})`).bind(...part));
  }
  const exactStatements = statements.length;
  const stemmed = STEM_LOOKUP.max > 0 ? terms.map((t) => ({ t, s: stem(t) })).filter(({ t, s }) => s !== t && s.length >= MIN_PREFIX_STEM) : [];
  const eager = stemmed.slice(0, STEM_LOOKUP.eager);
  for (let i = 0; i < eager.length; i += 90) statements.push(prefixStatement(db, eager.slice(i, i + 90).map(({ s }) => s)));
  const [total, ...rest] = await db.batch<Record<string, unknown>>(statements);
  for (const r of rest.slice(0, exactStatements - 1)) for (const row of r.results) df.set(row.term as string, row.doc as number);
  const prefixDoc = new Map<string, number | null>();
  rest.slice(exactStatements - 1).forEach((r, part) => {
    for (const row of r.results) prefixDoc.set(eager[part * 90 + (row.i as number)].t, (row.doc as number | null) ?? null);
  });
  const byPrefix = stemmed.filter(({ t }) => !df.has(t)).slice(0, STEM_LOOKUP.max);
  const late = byPrefix.filter(({ t }) => !prefixDoc.has(t));
  if (late.length) {
    const found = await db.batch<{ doc: number | null }>(
      late.map(({ s }) => db.prepare("SELECT max(doc) AS doc FROM chunks_fts_vocab WHERE term >= ? AND term < ?").bind(s, `${s}\uffff`)),
    );
    late.forEach(({ t }, i) => prefixDoc.set(t, found[i].results[0]?.doc ?? null));
  }
  for (const { t } of byPrefix) {
    const doc = prefixDoc.get(t);
    if (doc) df.set(t, doc);
  }
  return { df, totalDocs: (total.results[0]?.n as number) ?? 0 };
}

/** Runs the channel: chunks matching any selected term, best BM25 first, up to `depth`. */
export async function bm25Channel(scope: ChannelScope): Promise<ChannelResult> {
  if (!scope.terms.length) return { channel: "bm25", hits: [], skipped: "no query term occurs in the index" };
  const f = filterSql(scope.filters);
  const w = BM25_WEIGHTS;
  // CROSS JOIN pins the plan: the full-text match drives, chunks are looked up by rowid. SQLite
  // may otherwise scan the repo's chunks first (SQLite 3.51 in Node does: ~76x slower on hono).
  const sql =
    `SELECT c.id AS id, bm25(chunks_fts, ${w.symbol}, ${w.path}, ${w.body}) AS rank FROM chunks_fts ` +
    `CROSS JOIN chunks c ON c.rowid = chunks_fts.rowid ${SNAPSHOT_JOIN} ` +
    `WHERE chunks_fts MATCH ? AND c.repo = ?${f.sql} ORDER BY rank LIMIT ?`;
  const { results } = await scope.db
    .prepare(sql)
    .bind(scope.commit, matchExpression(scope.terms), scope.repo, ...f.params, scope.depth)
    .all<{ id: string; rank: number }>();
  // FTS5's bm25() is negative, lower is better; report it positive.
  return { channel: "bm25", hits: results.map((r) => ({ chunkId: r.id, score: -r.rank })) };
}
