/**
 * `npm run bench:search-indexing`: search latency under indexing load, on loopback. One server
 * (the working tree's HEAD, exported and started by scripts/lib/dev-server.ts) indexes the
 * corpus as `bench-corpus` (not timed) and is warmed; then the same search load (the queries of
 * `npm run bench`, from N concurrent clients) runs twice: on a quiet server, and while a second
 * copy of the corpus is being indexed as a new repo (a full index job). Prints p50/p95 of both
 * and whether the job was still running when the load ended (if not, the figure under load is
 * partly quiet: use a larger corpus).
 *
 *   npm run bench:search-indexing -- --corpus DIR [--concurrency 16] [--passes 2] [--timeout-s 600] [--port N]
 *
 * Bounded: `passes` times the query list per phase, and the whole run stops at `--timeout-s`.
 * Locally the Worker, its queue consumer and D1 share one workerd process (docs/indexing.md,
 * "Indexing beside search"): this measures that sharing, not production's separation.
 */
import { rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ApiClient } from "../evals/lib/client.ts";
import { buildTarGz } from "../evals/lib/archive.ts";
import { readCorpus } from "../evals/lib/corpus-fs.ts";
import { indexCorpus } from "../evals/lib/evaluate.ts";
import { BUG_REPORTS, SHORT_QUERIES } from "./lib/bench-queries.ts";
import { parseCli } from "./lib/cli.ts";
import { freePort, startSnapshotServer } from "./lib/dev-server.ts";
import { runLoad, type LatencySummary } from "./lib/load.ts";

const USAGE = `Usage: npm run bench:search-indexing -- --corpus DIR [--concurrency 16] [--passes 2] [--timeout-s 600] [--port N]

Search p50/p95 on a quiet server, then while a full index job of the same corpus runs.`;

const a = parseCli(USAGE, {
  corpus: { type: "string", default: "/tmp/cc-corpora/hono-28a9c12" },
  concurrency: { type: "string", default: "16" },
  passes: { type: "string", default: "2" },
  "timeout-s": { type: "string", default: "600" },
  port: { type: "string" },
});

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const files = readCorpus(resolve(a.corpus!), "whole");
const clients = Number(a.concurrency);
const passes = Number(a.passes);
const log = (s: string) => console.log(`[bench:search-indexing] ${s}`);
const QUERIES = [...SHORT_QUERIES, ...BUG_REPORTS];
const timer = setTimeout(
  () => {
    log(`stopped at --timeout-s ${a["timeout-s"]}`);
    process.exit(3);
  },
  Number(a["timeout-s"]) * 1000,
);
timer.unref();

const stateDir = `/tmp/cc-bench-search-indexing-${process.pid}`;
rmSync(stateDir, { recursive: true, force: true });
// The search limit is raised in the export: this measures search, not the limiter.
const server = await startSnapshotServer({
  projectRoot: ROOT,
  port: a.port ? Number(a.port) : await freePort(),
  persistTo: stateDir,
  token: "bench-token",
  searchLimitPerMinute: 1_000_000,
});
const client = new ApiClient({ baseUrl: server.baseUrl, token: server.token });
const load = () => runLoad(QUERIES, passes, clients, async (q) => (await client.search({ query: q, repo: "bench-corpus", k: 10 })).latencyMs);
const show = (name: string, s: LatencySummary) =>
  log(`${name}: ${s.n} searches x${clients} clients, p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`);
try {
  const run = await indexCorpus(client, "bench-corpus", files, { pollMs: 250, timeoutMs: 30 * 60_000 });
  log(`${server.commit.slice(0, 7)} indexed ${run.files} files in ${run.wallMs} ms`);
  for (const q of QUERIES) await client.search({ query: q, repo: "bench-corpus", k: 10 });
  const quiet = await load();
  show("quiet", quiet);
  // A second repo of the same files: a full index job (nothing is shared with bench-corpus's ledger).
  await client.uploadArchive("bench-corpus-load", await buildTarGz(files));
  const busy = await load();
  const status = await client.repoStatus("bench-corpus-load");
  show(`while indexing ${files.length} files`, busy);
  log(`index job when the load ended: ${status.status}${status.status === "ready" ? " (finished during the load: part of it ran on a quiet server)" : ""}`);
  log(`p95 under indexing / quiet: ${(busy.p95 / quiet.p95).toFixed(2)}`);
} finally {
  await server.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
