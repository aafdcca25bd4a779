/**
 * Where a warm search's SQL time goes: replays the bench queries (scripts/lib/bench-queries.ts)
 * through the real `runSearch` in Node, over a copy of a local server's D1 file, and times every
 * statement.
 *
 *   node scripts/replay-search.ts --state /tmp/cc-eval-state --repo eval-hono-whole [--queries short|reports] [--passes 5] [--root DIR] [--results FILE]
 *
 * `--root` replays another checkout's search code (a `git worktree add DIR REV` with its
 * node_modules), e.g. the commit that served the state folder; default this checkout.
 * `--state` is a `scripts/serve-snapshot.ts` state folder holding the indexed repo (its D1 file is
 * copied, so a running server is not disturbed). Each query runs once unrecorded (the isolate
 * caches warm up), then `--passes` times recorded. Prints per query the wall time, the SQL time
 * and the bytes of rows returned (as JSON), then one line per statement shape (parameters folded)
 * with its time, calls, rows per call and bytes per query, most expensive first. `node:sqlite`
 * is not workerd's SQLite build and has no D1 round trips or result conversion: compare two
 * commits here for where the SQL time goes, and measure speed with `npm run bench:search`.
 * `--results FILE` writes every query's results (path, lines, score) and confidence as JSON, so
 * two checkouts' answers over the same rows can be compared with `cmp`.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { BUG_REPORTS, SHORT_QUERIES } from "./lib/bench-queries.ts";
import { parseCli } from "./lib/cli.ts";
import { bundleWorkerModules, d1Over, largestD1File, sqliteRows } from "./lib/sqlite-d1.ts";

const USAGE = `Usage: node scripts/replay-search.ts --state DIR --repo ID [--queries short|reports] [--passes 5] [--root DIR] [--results FILE]

Replays the bench queries through runSearch over a copy of a local D1 file and times every statement.`;

const a = parseCli(USAGE, {
  state: { type: "string" },
  repo: { type: "string" },
  queries: { type: "string", default: "short" },
  passes: { type: "string", default: "5" },
  root: { type: "string" },
  results: { type: "string" },
});
if (!a.state || !a.repo || !["short", "reports"].includes(a.queries!)) {
  console.error(USAGE);
  process.exit(2);
}

const biggest = largestD1File(a.state);
if (!biggest) {
  console.error(`${a.state} has no D1 database (v3/d1/miniflare-D1DatabaseObject): pass the --state folder of a server that indexed --repo`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), "replay-search-"));
const copy = join(work, "d1.sqlite");
copyFileSync(biggest, copy);
if (existsSync(`${biggest}-wal`)) copyFileSync(`${biggest}-wal`, `${copy}-wal`);
const sqlite = new DatabaseSync(copy);

interface Timed {
  sql: string;
  ms: number;
  rows: number;
  bytes: number;
}
const log: Timed[] = [];
let recording = false;

function run(sql: string, params: unknown[]): Record<string, unknown>[] {
  const t = process.hrtime.bigint();
  const rows = sqliteRows(sqlite, sql, params);
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (recording) log.push({ sql, ms, rows: rows.length, bytes: JSON.stringify(rows).length });
  return rows;
}
const db = d1Over(run);

const bundle = join(work, "search.mjs");
await bundleWorkerModules(
  a.root ?? fileURLToPath(new URL("..", import.meta.url)),
  'export { runSearch } from "./worker/search/searcher"; export { LocalEmbeddingProvider } from "./indexer/embed/local"; export { LocalVectorStore } from "./indexer/store/vectors/local";',
  bundle,
);
/** What the replay uses of the bundle (the Worker's own types belong to the Worker's tsconfig). */
interface SearchBundle {
  runSearch(deps: unknown, targets: unknown[], text: string, options: unknown, expected?: unknown[]): Promise<unknown>;
  LocalEmbeddingProvider: new (dimensions: number) => unknown;
  LocalVectorStore: new (db: unknown, dimensions: number) => unknown;
}
const { runSearch, LocalEmbeddingProvider, LocalVectorStore } = (await import(bundle)) as SearchBundle;

const repo = sqlite.prepare("SELECT active_commit, active_indexed_at, embedding_model, embedding_dims FROM repos WHERE id = ?").get(a.repo) as
  { active_commit: string | null; active_indexed_at: number | null; embedding_model: string | null; embedding_dims: number | null } | undefined;
if (!repo?.active_commit || !repo.embedding_dims) {
  console.error(`repo ${a.repo} has no active snapshot in ${biggest}`);
  process.exit(2);
}
const target = {
  id: a.repo,
  commit: repo.active_commit,
  indexedAt: repo.active_indexed_at,
  embeddingModel: repo.embedding_model,
  embeddingDims: repo.embedding_dims,
  packages: [],
};
const deps = { db, embedder: new LocalEmbeddingProvider(repo.embedding_dims), vectors: new LocalVectorStore(db, repo.embedding_dims) };
const queries = a.queries === "short" ? SHORT_QUERIES : BUG_REPORTS;
const options = { k: 10, mode: "hybrid" as const, filters: {}, fileCap: 2 };

const answers: unknown[] = [];
for (const q of queries) answers.push(await runSearch(deps, [target], q, options, [target]));
if (a.results) {
  // Timings (stats) differ run to run; the results and confidence do not.
  const kept = answers.map((r, i) => {
    const { results, confidence } = r as { results: { path: string; startLine: number; endLine: number; score: number }[]; confidence: unknown };
    return { query: queries[i], results: results.map(({ path, startLine, endLine, score }) => ({ path, startLine, endLine, score })), confidence };
  });
  writeFileSync(a.results, `${JSON.stringify(kept, null, 1)}\n`);
}
recording = true;
const started = process.hrtime.bigint();
const passes = Number(a.passes);
for (let p = 0; p < passes; p++) for (const q of queries) await runSearch(deps, [target], q, options, [target]);
const wall = Number(process.hrtime.bigint() - started) / 1e6;
const n = queries.length * passes;

const shapes = new Map<string, { ms: number; calls: number; rows: number; bytes: number }>();
for (const e of log) {
  const shape = e.sql
    .replace(/\?\d*(, \?\d*)*/g, "?")
    .replace(/\(\d+, \?\)(, \(\d+, \?\))*/g, "(...)")
    .slice(0, 110);
  const s = shapes.get(shape) ?? { ms: 0, calls: 0, rows: 0, bytes: 0 };
  s.ms += e.ms;
  s.calls++;
  s.rows += e.rows;
  s.bytes += e.bytes;
  shapes.set(shape, s);
}
const sum = (f: (e: Timed) => number) => log.reduce((s, e) => s + f(e), 0);
console.log(
  `${n} queries (${a.queries}, ${passes} passes): ${(wall / n).toFixed(2)} ms/query, SQL ${(sum((e) => e.ms) / n).toFixed(2)} ms/query, rows ${Math.round(sum((e) => e.bytes) / n)} bytes/query`,
);
console.log("SQL ms/query | calls | rows/call | bytes/query | statement");
for (const [shape, s] of [...shapes].sort((x, y) => y[1].ms - x[1].ms)) {
  console.log(
    `${(s.ms / n).toFixed(3).padStart(12)} | ${String(s.calls).padStart(5)} | ${String(Math.round(s.rows / s.calls)).padStart(9)} | ${String(Math.round(s.bytes / n)).padStart(11)} | ${shape}`,
  );
}
sqlite.close();
rmSync(work, { recursive: true, force: true });
