/**
 * @module worker/search/term-stats
 *
 * Term statistics of the snapshots being searched, for IDF term selection, the coverage rerank
 * and the confidence gate: the document frequency of each query term and the number of chunks,
 * summed over the searched snapshots (D1 `snapshot_df`, `snapshot_stats`, written when a
 * snapshot is activated; migrations/0007, 0026, 0032: an extra ref's as a delta against a base;
 * `snapshot_terms` for a snapshot activated by format 9). Never the whole database: a word that
 * occurs only in a repo the caller does not search (or may not see) is absent here, and a repo's
 * statistics do not move when another repo is indexed, re-indexed or deleted.
 */
import { stem } from "../../indexer/store/contract";
import { batchAcross } from "../../kernel/d1-batch";
import { dbOf, type TargetDb } from "./shard-targets";

/** A snapshot whose statistics are read: the repo and its active commit. */
export interface StatsTarget {
  id: string;
  commit: string;
}

/** Document frequencies of the query terms and the chunk count, over the searched snapshots. */
export interface TermStatistics {
  /** term -> chunks holding it (a term absent from every searched snapshot has no entry). */
  df: Map<string, number>;
  /** Chunks of the searched snapshots: BM25's N. */
  totalDocs: number;
  /** Chunks per searched repo; null for a snapshot without statistics (activated before format 9). */
  chunksByRepo: Map<string, number | null>;
}

/** Shortest stem used as a prefix: shorter prefixes match too much (the BM25 channel's MATCH uses the same). */
export const MIN_PREFIX_STEM = 4;

/**
 * Stem-prefix lookups (one range scan of `snapshot_df` each). `max`: most absent query terms
 * looked up (a pasted bug report has many absent words; 0 disables the lookup). `eager`: terms
 * (the first with a stem prefix, in query order) whose prefix frequency is read in the same D1
 * round trip as the exact ones, before knowing which are absent: the second, dependent round trip
 * cost more than the range scans of the present ones (SWE-bench Lite's 140 problem statements
 * have at most 63 such terms); absent terms past these are read in a second round trip.
 */
export const STEM_LOOKUP = { max: 32, eager: 64 };

/** Terms per `IN (...)` list: 2 parameters name the snapshot, under D1's 100 per statement. */
const TERMS_PER_STATEMENT = 90;

/** A query term whose stem is used as a prefix, and that stem. */
export function stemPrefix(term: string): string | null {
  const s = stem(term);
  return s !== term && s.length >= MIN_PREFIX_STEM ? s : null;
}

/**
 * Rows `(term, df)` of the snapshot bound as ?1 (repo) and ?2 (commit) whose term passes `where`
 * (SQL over `term`): from `snapshot_df` under the snapshot's `terms_key`, plus its `base_key`'s
 * rows when its own are a delta against that base (summed; a term summing to 0 is absent;
 * migrations/0032, indexer/store/d1/snapshot-stats.ts), or from `snapshot_terms` for a snapshot
 * activated by format 9 (no key; migrations/0026). A snapshot has rows in one of the two tables.
 */
function dfRows(where: string): string {
  const keys =
    "SELECT terms_key FROM snapshot_stats WHERE repo = ?1 AND commit_sha = ?2 UNION ALL SELECT base_key FROM snapshot_stats WHERE repo = ?1 AND commit_sha = ?2";
  return (
    `SELECT term, df FROM snapshot_terms WHERE repo = ?1 AND commit_sha = ?2 AND ${where} UNION ALL ` +
    `SELECT term, sum(df) AS df FROM snapshot_df WHERE repo = ?1 AND terms_key IN (${keys}) AND ${where} GROUP BY term HAVING sum(df) > 0`
  );
}

/** `max(df)` of the snapshot's words starting with each stem, one statement (2 + 1 per stem bound parameters). */
function prefixStatement(db: D1Database, t: StatsTarget, stems: string[]): D1PreparedStatement {
  return db
    .prepare(
      `WITH p(i, s) AS (VALUES ${stems.map((_, i) => `(${i}, ?${i + 3})`).join(", ")}) ` +
        `SELECT i, (SELECT max(df) FROM (${dfRows("term >= p.s AND term < p.s || char(65535)")})) AS doc FROM p`,
    )
    .bind(t.id, t.commit, ...stems);
}

/**
 * Document frequencies of `terms` over `targets`' snapshots (summed) and their chunk count. A
 * term that never occurs there, but whose stem prefix does (`queuing` -> `queu*` finds
 * `queue`), gets the largest document frequency among the words of that prefix: the BM25
 * channel reaches those words through the prefix, so dropping the term as absent would lose them
 * (the first STEM_LOOKUP.max absent terms; see STEM_LOOKUP.eager for the round trips). A snapshot
 * without statistics (activated before format 9) counts as empty. `db`: one database, or each
 * target's (its shard): the statements of each database go out as one batch, in parallel, and
 * the sums are the same as from one database.
 */
export async function documentFrequencies(shards: TargetDb<StatsTarget>, targets: StatsTarget[], terms: string[]): Promise<TermStatistics> {
  const df = new Map<string, number>();
  const chunksByRepo = new Map<string, number | null>();
  if (!targets.length) return { df, totalDocs: 0, chunksByRepo };
  const stemmed =
    STEM_LOOKUP.max > 0
      ? terms.flatMap((t) => {
          const s = stemPrefix(t);
          return s ? [{ t, s }] : [];
        })
      : [];
  const eager = stemmed.slice(0, STEM_LOOKUP.eager);
  const statements: { db: D1Database; statement: D1PreparedStatement }[] = [];
  /** Per statement: what its rows are. */
  const kinds: ({ kind: "total"; repo: string } | { kind: "exact" } | { kind: "prefix"; from: number })[] = [];
  for (const t of targets) {
    const db = dbOf(shards, t);
    const add = (statement: D1PreparedStatement) => statements.push({ db, statement });
    add(db.prepare("SELECT chunks AS n FROM snapshot_stats WHERE repo = ? AND commit_sha = ?").bind(t.id, t.commit));
    kinds.push({ kind: "total", repo: t.id });
    for (let i = 0; i < terms.length; i += TERMS_PER_STATEMENT) {
      const part = terms.slice(i, i + TERMS_PER_STATEMENT);
      add(db.prepare(`SELECT term, df AS doc FROM (${dfRows(`term IN (${part.map((_, i) => `?${i + 3}`).join(", ")})`)})`).bind(t.id, t.commit, ...part));
      kinds.push({ kind: "exact" });
    }
    for (let i = 0; i < eager.length; i += TERMS_PER_STATEMENT) {
      add(
        prefixStatement(
          db,
          t,
          eager.slice(i, i + TERMS_PER_STATEMENT).map(({ s }) => s),
        ),
      );
      kinds.push({ kind: "prefix", from: i });
    }
  }
  const results = await batchAcross<Record<string, unknown>>(statements);
  let totalDocs = 0;
  const prefixDoc = new Map<string, number>();
  const prefixRead = new Set<string>();
  results.forEach((r, n) => {
    const k = kinds[n];
    if (k.kind === "total") {
      const n = (r.results[0]?.n as number | undefined) ?? null;
      chunksByRepo.set(k.repo, n);
      totalDocs += n ?? 0;
    } else if (k.kind === "exact") for (const row of r.results) df.set(row.term as string, (df.get(row.term as string) ?? 0) + (row.doc as number));
    else
      for (const row of r.results) {
        const t = eager[k.from + (row.i as number)].t;
        prefixRead.add(t);
        if (row.doc) prefixDoc.set(t, (prefixDoc.get(t) ?? 0) + (row.doc as number));
      }
  });
  const byPrefix = stemmed.filter(({ t }) => !df.has(t)).slice(0, STEM_LOOKUP.max);
  const late = byPrefix.filter(({ t }) => !prefixRead.has(t));
  if (late.length) {
    const found = await batchAcross<{ doc: number | null }>(
      targets.flatMap((tg) =>
        late.map(({ s }) => {
          const db = dbOf(shards, tg);
          return { db, statement: db.prepare(`SELECT max(df) AS doc FROM (${dfRows("term >= ?3 AND term < ?4")})`).bind(tg.id, tg.commit, s, `${s}\uffff`) };
        }),
      ),
    );
    found.forEach((r, n) => {
      const t = late[n % late.length].t;
      const doc = r.results[0]?.doc;
      if (doc) prefixDoc.set(t, (prefixDoc.get(t) ?? 0) + doc);
    });
  }
  for (const { t } of byPrefix) {
    const doc = prefixDoc.get(t);
    if (doc) df.set(t, doc);
  }
  return { df, totalDocs, chunksByRepo };
}
