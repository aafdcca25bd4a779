/**
 * `npm run bench:shards`: the capacity model's simulation (issue #45, docs/scale.md). Indexes
 * many real repositories on one local server per shard count (a clean export of `--commit` whose
 * wrangler.toml gets that many local shard databases, scripts/lib/dev-server.ts `localShards`),
 * then runs the same search load from `--clients` concurrent clients over all of them: each
 * request searches one repository, round-robin over the repositories and the queries, so every
 * shard is read. Prints, per shard count, where the repos were placed, the index time, and the
 * load's p50/p95 and errors.
 *
 *   npm run bench:shards -- --corpus-root /tmp/cc-corpora --repos 20 --shards 1,4 [--clients 16] [--rounds 2]
 *
 * `--repos N` takes N folders of `--corpus-root` (named `<repo>-<short commit>`): the smallest
 * folder of each repository, then the N smallest of those, so N different repositories.
 * The state folders and servers are removed on every exit path.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { ApiClient } from "../evals/lib/client.ts";
import { readCorpus } from "../evals/lib/corpus-fs.ts";
import { indexCorpus } from "../evals/lib/evaluate.ts";
import { SHORT_QUERIES } from "./lib/bench-queries.ts";
import { parseCli } from "./lib/cli.ts";
import { startSnapshotServer, type DevServer } from "./lib/dev-server.ts";
import { runLoad } from "./lib/load.ts";

const USAGE = `Usage: npm run bench:shards -- --corpus-root DIR [--repos 20] [--shards 1,4] [--clients 16] [--rounds 2] [--commit HEAD] [--port 9070]

Indexes N repositories on one server per shard count and runs the same concurrent search load.`;

const a = parseCli(USAGE, {
  "corpus-root": { type: "string", default: "/tmp/cc-corpora" },
  repos: { type: "string", default: "20" },
  shards: { type: "string", default: "1,4" },
  clients: { type: "string", default: "16" },
  rounds: { type: "string", default: "2" },
  commit: { type: "string", default: "HEAD" },
  port: { type: "string", default: "9070" },
});
const ROOT = resolve(new URL("..", import.meta.url).pathname);
const log = (s: string) => process.stderr.write(`[bench:shards] ${s}\n`);
const counts = a.shards!.split(",").map(Number);
if (counts.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error(`--shards must be a comma list of positive integers\n\n${USAGE}`);
  process.exit(2);
}

/** Bytes under a folder (files only). */
function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n += statSync(join(e.parentPath, e.name)).size;
  return n;
}
const root = resolve(a["corpus-root"]!);
const smallestPerRepo = new Map<string, { name: string; bytes: number }>();
for (const e of readdirSync(root, { withFileTypes: true })) {
  if (!e.isDirectory()) continue;
  const f = { name: e.name, bytes: folderBytes(join(root, e.name)) };
  const repo = e.name.replace(/-[0-9a-f]{7,}$/, "");
  const seen = smallestPerRepo.get(repo);
  if (!seen || f.bytes < seen.bytes) smallestPerRepo.set(repo, f);
}
const folders = [...smallestPerRepo.values()].sort((x, y) => x.bytes - y.bytes).slice(0, Number(a.repos));
log(`${folders.length} repositories, ${(folders.reduce((s, f) => s + f.bytes, 0) / 1e6).toFixed(1)} MB: ${folders.map((f) => f.name).join(", ")}`);
const repoId = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, "-")
    .slice(0, 60);

interface Outcome {
  shards: number;
  placement: Record<string, number>;
  indexMs: number;
  p50: number;
  p95: number;
  requests: number;
  errors: number;
}
const outcomes: Outcome[] = [];
for (const [i, n] of counts.entries()) {
  const stateDir = join("/tmp", `bench-shards-${process.pid}-${n}`);
  let server: DevServer | undefined;
  try {
    rmSync(stateDir, { recursive: true, force: true });
    server = await startSnapshotServer({
      projectRoot: ROOT,
      commit: a.commit,
      port: Number(a.port) + i,
      persistTo: stateDir,
      token: "bench-token",
      searchLimitPerMinute: 1_000_000,
      localShards: n,
    });
    const client = new ApiClient({ baseUrl: server.baseUrl, token: server.token });
    const started = Date.now();
    for (const f of folders) {
      const run = await indexCorpus(client, repoId(f.name), readCorpus(join(root, f.name), "whole"), { pollMs: 500, timeoutMs: 1_800_000 });
      log(`${n} shard(s): indexed ${f.name} in ${run.wallMs} ms`);
    }
    const indexMs = Date.now() - started;
    const placement: Record<string, number> = {};
    for (const f of folders) {
      const status = await client.request<{ placement?: { shard: number | null } }>("GET", `/api/repos/${repoId(f.name)}`);
      const shard = String(status.placement?.shard ?? "?");
      placement[shard] = (placement[shard] ?? 0) + 1;
    }
    const items = folders.flatMap((f, r) => SHORT_QUERIES.map((q, k) => ({ repo: repoId(f.name), q: SHORT_QUERIES[(k + r) % SHORT_QUERIES.length] ?? q })));
    let errors = 0;
    const summary = await runLoad(items, Number(a.rounds), Number(a.clients), async ({ repo, q }) => {
      const t = performance.now();
      try {
        await client.search({ query: q, repo, k: 10 });
      } catch {
        errors++;
      }
      return performance.now() - t;
    });
    outcomes.push({ shards: n, placement, indexMs, p50: summary.p50, p95: summary.p95, requests: summary.n, errors });
    log(`${n} shard(s): p50 ${summary.p50.toFixed(0)} ms, p95 ${summary.p95.toFixed(0)} ms, ${errors} errors of ${summary.n}`);
  } finally {
    await server?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}
console.log(`| shards | repos per shard | index all (s) | requests | p50 ms | p95 ms | errors |`);
console.log(`| ---: | --- | ---: | ---: | ---: | ---: | ---: |`);
for (const o of outcomes) {
  const per = Object.entries(o.placement)
    .sort()
    .map(([s, c]) => `${s}: ${c}`)
    .join(", ");
  console.log(`| ${o.shards} | ${per} | ${(o.indexMs / 1000).toFixed(0)} | ${o.requests} | ${o.p50.toFixed(0)} | ${o.p95.toFixed(0)} | ${o.errors} |`);
}
