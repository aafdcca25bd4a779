/**
 * `npm run bench:history`: what keeping commit history costs (issue #49, measurement only).
 * Serves a bare repository on loopback with git-http-mock-server (the real `git http-backend`,
 * as test/git-server.ts), then in this process: a depth-1 fetch (indexer/source/git.ts), the
 * history fetch (indexer/source/git-history.ts, with the default budget unless `--budget off`;
 * `--pack-mib N` sets its pack budget),
 * the extraction (indexer/history/extract.ts), and the rows written by
 * indexer/store/d1/history.ts into a temporary SQLite file (migration 0028), whose bytes per
 * table and index come from `dbstat` (pages, so free space inside pages included). An age
 * (`365d`) counts back from the repository's HEAD commit time, not from today, so that a
 * mirror gives the same figures later. Memory, per phase: peak RSS and peak JS heap plus array
 * buffers (sampled every 50 ms, garbage included: an upper bound of what an isolate would hold),
 * and that sum after a forced GC (what stays reachable). `--live on` collects before every
 * sample, so the peak heap figure is reachable memory only (slower).
 *
 *   npm run bench:history -- --repo /work/.mirror/honojs+hono/repo [--depth 365d] [--port 9350] [--budget off] [--pack-mib 16] [--live on]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { parseCli } from "./lib/cli.ts";
import { build } from "esbuild";

// The worker's modules use bundler-style imports: bundle them as wrangler does, then import.
const bundleDir = mkdtempSync(join(tmpdir(), "bench-history-bundle-"));
const bundle = join(bundleDir, "history.mjs");
await build({
  stdin: {
    resolveDir: fileURLToPath(new URL("..", import.meta.url)),
    loader: "ts",
    contents: [
      'export { parseHistoryDepth } from "./kernel/history-depth";',
      'export { extractHistory } from "./indexer/history/extract";',
      'export { checkRemote, fetchSnapshot } from "./indexer/source/git";',
      'export { fetchHistory } from "./indexer/source/git-history";',
      'export { DEFAULT_HISTORY_BUDGET } from "./kernel/history-depth";',
      'export { writeHistory } from "./indexer/store/d1/history";',
    ].join("\n"),
  },
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: bundle,
  logLevel: "warning",
  // isomorphic-git is CommonJS and requires node built-ins.
  banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
});
/** What the bench uses from the bundle (the worker's types need the Workers type set, so they are restated). */
interface Mods {
  parseHistoryDepth(v: string): { commits: number } | { days: number } | null;
  checkRemote(o: { url: string; limits: Record<string, unknown> }): Promise<{ ref: string; commit: string }>;
  fetchSnapshot(o: { url: string; limits: Record<string, unknown> }): Promise<{ commit: string; entries: unknown[] }>;
  fetchHistory(
    o: { url: string; limits: Record<string, unknown> },
    resolved: { ref: string; commit: string },
    depth: unknown,
    budget: Budget,
    now: () => number,
  ): Promise<{ reader: unknown; shallow: Set<string>; depth: string; limit: string | null; bytes: number }>;
  DEFAULT_HISTORY_BUDGET: Budget;
  extractHistory(
    r: unknown,
    head: string,
    o: { known: Set<string>; shallow: Set<string>; maxCommits: number; maxBytes: number; deadline?: number },
  ): Promise<{ commits: { parents: string[]; boundary: boolean }[]; changes: unknown[]; stopped: { commit: string; reason: string } | null }>;
  writeHistory(db: unknown, repo: string, commits: unknown[], changes: unknown[], meta: Record<string, unknown>): Promise<void>;
}
type Budget = { packBytes: number; fetchMs: number; extractMs: number; commits: number; halvings: number };
const { parseHistoryDepth, extractHistory, checkRemote, fetchSnapshot, fetchHistory, DEFAULT_HISTORY_BUDGET, writeHistory } = (await import(bundle)) as Mods;

const USAGE = "Usage: npm run bench:history -- --repo BARE_REPO_DIR [--depth 365d] [--port 9350] [--budget off] [--pack-mib 16] [--live on]";
const a = parseCli(USAGE, {
  repo: { type: "string" },
  depth: { type: "string", default: "365d" },
  port: { type: "string", default: "9350" },
  budget: { type: "string", default: "on" },
  live: { type: "string", default: "off" },
  "pack-mib": { type: "string" },
});
if (!a.repo) throw new Error(USAGE);
const repoDir = String(a.repo);
const depth = parseHistoryDepth(String(a.depth));
if (!depth) throw new Error("--depth 0 keeps no history: nothing to measure");

const require = createRequire(import.meta.url);
const middleware = (
  require("git-http-mock-server/middleware") as (c: { root: string; glob: string; route: string }) => (q: unknown, s: unknown, n: () => void) => void
)({
  root: dirname(repoDir),
  glob: basename(repoDir),
  route: "/",
});
const server = createServer((req, res) =>
  middleware(req, res, () => {
    res.statusCode = 404;
    res.end();
  }),
);
await new Promise<void>((r) => server.listen(Number(a.port), "127.0.0.1", r));
const url = `http://127.0.0.1:${a.port}/${basename(repoDir)}`;
const limits = { allowLoopback: true, connectTimeoutMs: 600_000, totalTimeoutMs: 3_600_000, maxResponseBytes: 4 * 1024 ** 3 };

/** A D1Database over node:sqlite, enough for writeHistory (prepare, bind, run, all, first, batch). */
function d1Over(db: DatabaseSync): unknown {
  const stmt = (sql: string, args: unknown[] = []) => ({
    bind: (...b: unknown[]) => stmt(sql, b),
    run: async () => (db.prepare(sql).run(...(args as never[])), { success: true }),
    all: async () => ({ results: db.prepare(sql).all(...(args as never[])) }),
    first: async () => db.prepare(sql).get(...(args as never[])) ?? null,
    exec: () => db.prepare(sql).run(...(args as never[])),
  });
  return {
    prepare: (sql: string) => stmt(sql),
    batch: async (list: { exec: () => unknown }[]) => {
      db.exec("BEGIN");
      for (const s of list) s.exec();
      db.exec("COMMIT");
      return [];
    },
  };
}

const gc = (globalThis as { gc?: () => void }).gc;
/** JS heap plus array buffers after a full GC: what stays reachable. */
async function held(): Promise<number> {
  // Twice, a turn apart: array buffers are counted free only once their sweep has run.
  gc?.();
  await new Promise((r) => setImmediate(r));
  gc?.();
  const m = process.memoryUsage();
  if (process.env.BENCH_MEM_DETAIL)
    console.log(
      `  heapUsed ${(m.heapUsed / 1048576).toFixed(1)} MiB, arrayBuffers ${(m.arrayBuffers / 1048576).toFixed(1)} MiB, external ${(m.external / 1048576).toFixed(1)} MiB`,
    );
  return m.heapUsed + m.arrayBuffers;
}
let peakRss = 0;
let peakHeap = 0;
const sampler = setInterval(() => {
  // --live: collect first, so the heap figure is what was reachable at the sample, not garbage.
  if (a.live === "on") gc?.();
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed + m.arrayBuffers);
}, 50);
const headTime = Number(execFileSync("git", ["-C", repoDir, "log", "-1", "--format=%ct", "HEAD"], { encoding: "utf8" }).trim()) * 1000;
const budget: Budget =
  a.budget === "off"
    ? { packBytes: 8 * 1024 ** 3, fetchMs: 3_600_000, extractMs: 3_600_000, commits: 20_000, halvings: 0 }
    : { ...DEFAULT_HISTORY_BUDGET, ...(a["pack-mib"] ? { packBytes: Number(a["pack-mib"]) * 1024 * 1024 } : {}) };

const started = performance.now();
try {
  const mb = (n: number) => (n / 1048576).toFixed(1);
  let t = performance.now();
  // Only the commit is kept: the coordinator drops the snapshot before its history step too.
  const shallow = await fetchSnapshot({ url, limits }).then((s) => {
    console.log(
      `depth-1 fetch: ${(performance.now() - t).toFixed(0)} ms, ${s.entries.length} entries; peak rss ${mb(peakRss)} MiB, heap+buffers ${mb(peakHeap)} MiB`,
    );
    return { commit: s.commit };
  });
  const heldBefore = await held();
  peakRss = 0;
  peakHeap = 0;
  t = performance.now();
  const fetched = await fetchHistory({ url, limits }, await checkRemote({ url, limits }), depth, budget, () => headTime);
  const deepMs = performance.now() - t;
  console.log(
    `history fetch (${String(a.depth)} before HEAD's time, budget ${a.budget}): ${deepMs.toFixed(0)} ms, depth ${fetched.depth}, limit: ${fetched.limit ?? "none"}; ${mb(fetched.bytes)} MiB of pack and index; peak rss ${mb(peakRss)} MiB, heap+buffers ${mb(peakHeap)} MiB; held ${mb(await held())} MiB (${mb(heldBefore)} before)`,
  );
  peakRss = 0;
  peakHeap = 0;
  t = performance.now();
  const h = await extractHistory(fetched.reader, shallow.commit, {
    known: new Set(),
    shallow: fetched.shallow,
    maxCommits: budget.commits,
    maxBytes: 1024 * 1024,
    deadline: Date.now() + budget.extractMs,
  });
  const extractMs = performance.now() - t;
  console.log(
    `extract: ${extractMs.toFixed(0)} ms, ${h.commits.length} commits (${h.commits.filter((c) => c.parents.length > 1).length} merges, ${h.commits.filter((c) => c.boundary).length} boundary), ${h.changes.length} file changes, stopped: ${h.stopped ? `at ${h.stopped.commit}, ${h.stopped.reason}` : "no"}; peak rss ${mb(peakRss)} MiB, heap+buffers ${mb(peakHeap)} MiB; held ${mb(await held())} MiB`,
  );
  const dir = mkdtempSync(join(tmpdir(), "bench-history-"));
  const file = join(dir, "history.sqlite");
  const db = new DatabaseSync(file);
  db.exec(readFileSync(new URL("../migrations/0028_commit_history.sql", import.meta.url), "utf8"));
  db.exec(readFileSync(new URL("../migrations/0031_history_limit.sql", import.meta.url), "utf8"));
  t = performance.now();
  await writeHistory(d1Over(db), "bench", h.commits, h.changes, {
    head: shallow.commit,
    ref: "HEAD",
    depth: fetched.depth,
    updatedAt: Date.now(),
    limit: fetched.limit,
    pending: !!h.stopped,
  });
  console.log(`write: ${(performance.now() - t).toFixed(0)} ms`);
  const rows = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC").all() as { name: string; bytes: number }[];
  db.close();
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  for (const r of rows) console.log(`  ${r.name}: ${r.bytes} bytes`);
  console.log(`history tables: ${total} bytes (${mb(total)} MiB), ${(total / Math.max(1, h.commits.length)).toFixed(0)} bytes per commit`);
  rmSync(dir, { recursive: true, force: true });
} catch (err) {
  console.error(
    `bench failed after ${((performance.now() - started) / 1000).toFixed(1)} s: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`,
  );
  process.exitCode = 1;
} finally {
  clearInterval(sampler);
  rmSync(bundleDir, { recursive: true, force: true });
  server.close();
  // Fetches cut off by a budget leave their `git pack-objects` running on the server side.
  process.exit();
}
