/**
 * `npm run bench:history`: what keeping commit history costs (issue #49, measurement only).
 * Serves a bare repository on loopback with git-http-mock-server (the real `git http-backend`,
 * as test/git-server.ts), then in this process: a depth-1 fetch and a HISTORY_DEPTH fetch
 * (indexer/source/git.ts), the extraction (indexer/history/extract.ts), and the rows written by
 * indexer/store/d1/history.ts into a temporary SQLite file (migration 0028), whose bytes per
 * table and index come from `dbstat` (pages, so free space inside pages included).
 *
 *   npm run bench:history -- --repo /work/.mirror/honojs+hono/repo [--depth 2000] [--port 9350]
 */
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
      'export { fetchSnapshot } from "./indexer/source/git";',
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
  fetchSnapshot(o: {
    url: string;
    limits: Record<string, unknown>;
    history?: unknown;
  }): Promise<{ commit: string; entries: unknown[]; history?: { reader: unknown; shallow: Set<string> } }>;
  extractHistory(
    r: unknown,
    head: string,
    o: { known: Set<string>; shallow: Set<string>; maxCommits: number; maxBytes: number },
  ): Promise<{ commits: { parents: string[]; boundary: boolean }[]; changes: unknown[] }>;
  writeHistory(db: unknown, repo: string, commits: unknown[], changes: unknown[], meta: Record<string, unknown>): Promise<void>;
}
const { parseHistoryDepth, extractHistory, fetchSnapshot, writeHistory } = (await import(bundle)) as Mods;

const USAGE = "Usage: npm run bench:history -- --repo BARE_REPO_DIR [--depth 2000] [--port 9350]";
const a = parseCli(USAGE, { repo: { type: "string" }, depth: { type: "string", default: "2000" }, port: { type: "string", default: "9350" } });
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

try {
  const mb = (n: number) => (n / 1048576).toFixed(1);
  let t = performance.now();
  const shallow = await fetchSnapshot({ url, limits });
  const shallowMs = performance.now() - t;
  console.log(`depth-1 fetch: ${shallowMs.toFixed(0)} ms, ${shallow.entries.length} entries`);
  const rssBefore = process.memoryUsage().rss;
  t = performance.now();
  const deep = await fetchSnapshot({ url, limits, history: depth });
  const deepMs = performance.now() - t;
  console.log(`history fetch (${String(a.depth)}): ${deepMs.toFixed(0)} ms; rss ${mb(process.memoryUsage().rss)} MiB (was ${mb(rssBefore)})`);
  t = performance.now();
  const h = await extractHistory(deep.history!.reader, deep.commit, {
    known: new Set(),
    shallow: deep.history!.shallow,
    maxCommits: 20_000,
    maxBytes: 1024 * 1024,
  });
  const extractMs = performance.now() - t;
  console.log(
    `extract: ${extractMs.toFixed(0)} ms, ${h.commits.length} commits (${h.commits.filter((c) => c.parents.length > 1).length} merges, ${h.commits.filter((c) => c.boundary).length} boundary), ${h.changes.length} file changes; rss ${mb(process.memoryUsage().rss)} MiB`,
  );
  const dir = mkdtempSync(join(tmpdir(), "bench-history-"));
  const file = join(dir, "history.sqlite");
  const db = new DatabaseSync(file);
  db.exec(readFileSync(new URL("../migrations/0028_commit_history.sql", import.meta.url), "utf8"));
  t = performance.now();
  await writeHistory(d1Over(db), "bench", h.commits, h.changes, { head: deep.commit, ref: "HEAD", depth: String(a.depth), updatedAt: Date.now() });
  console.log(`write: ${(performance.now() - t).toFixed(0)} ms`);
  const rows = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC").all() as { name: string; bytes: number }[];
  db.close();
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  for (const r of rows) console.log(`  ${r.name}: ${r.bytes} bytes`);
  console.log(`history tables: ${total} bytes (${mb(total)} MiB), ${(total / Math.max(1, h.commits.length)).toFixed(0)} bytes per commit`);
  rmSync(dir, { recursive: true, force: true });
} finally {
  rmSync(bundleDir, { recursive: true, force: true });
  server.close();
}
