/**
 * `npm run bench:refs`: what a second tracked ref costs (issue #49, docs/refs.md). Serves a bare
 * repository on loopback with git-http-mock-server (the real `git http-backend`), starts the
 * product from a clean export of HEAD, registers the repository (its default branch), then tracks
 * a second ref with `PATCH /api/repos/{id} {refs}` and waits until that ref's snapshot is ready.
 * Prints, for each: wall time from request to ready, files processed and taken over unchanged
 * (the job's counters), and D1 bytes added (the sum of the shards' `meta.size_after`, from
 * `GET /api/health/shards`; SQLite file sizes, free pages included), then a Markdown table of the
 * bytes each step added by table and index (`dbstat` of online-backup copies of every D1 file,
 * taken while the server runs; scripts/lib/d1-storage-diff.ts). History is off
 * (HISTORY_DEPTH=0): the figures are indexing and storage only.
 *
 *   npm run bench:refs -- --repo /work/.mirror/honojs+hono/repo --ref v4.12.34 [--port-base 9600]
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { basename, dirname, resolve } from "node:path";
import { parseCli } from "./lib/cli.ts";
import { measureStateFolder, storageDeltaMarkdown } from "./lib/d1-storage-diff.ts";
import { startSnapshotServer } from "./lib/dev-server.ts";

const USAGE = "Usage: npm run bench:refs -- --repo BARE_REPO_DIR --ref REF [--port-base 9600]";
const a = parseCli(USAGE, { repo: { type: "string" }, ref: { type: "string" }, "port-base": { type: "string", default: "9600" } });
if (!a.repo || !a.ref) throw new Error(USAGE);
const repoDir = resolve(String(a.repo));
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const gitPort = Number(a["port-base"]);
const log = (s: string) => console.log(`[bench:refs] ${s}`);

const require = createRequire(import.meta.url);
const middleware = (
  require("git-http-mock-server/middleware") as (c: { root: string; glob: string; route: string }) => (q: unknown, s: unknown, n: () => void) => void
)({ root: dirname(repoDir), glob: basename(repoDir), route: "/" });
const gitServer = createServer((req, res) => middleware(req, res, () => ((res.statusCode = 404), res.end())));
await new Promise<void>((r) => gitServer.listen(gitPort, "127.0.0.1", r));
const url = `http://127.0.0.1:${gitPort}/${basename(repoDir)}`;

const stateDir = `/tmp/cc-bench-refs-${process.pid}`;
rmSync(stateDir, { recursive: true, force: true });
const server = await startSnapshotServer({
  projectRoot: ROOT,
  port: gitPort + 1,
  persistTo: stateDir,
  token: "bench-token",
  vars: { ALLOW_LOOPBACK_GIT_URLS: "true", HISTORY_DEPTH: "0", POLL_INTERVAL_SECONDS: "0" },
});

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const d1Bytes = async () => ((await call("GET", "/api/health/shards")).shards as { bytes: number }[]).reduce((n, s) => n + s.bytes, 0);

/** Polls until `done(status)`; bounded at 30 minutes. */
async function until(done: (s: any) => boolean): Promise<any> {
  for (let i = 0; i < 3600; i++) {
    const s = await call("GET", "/api/repos/bench");
    if (done(s)) return s;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("timed out after 30 minutes");
}

try {
  const sha = (rev: string) => execFileSync("git", ["--git-dir", repoDir, "rev-parse", `${rev}^{commit}`], { encoding: "utf8" }).trim();
  const head = sha("HEAD");
  const other = sha(String(a.ref));
  const differing = execFileSync("git", ["--git-dir", repoDir, "diff", "--name-only", other, head], { encoding: "utf8" })
    .trim()
    .split("\n")
    .filter(Boolean).length;
  log(
    `product ${server.commit.slice(0, 12)}; repo ${repoDir} HEAD ${head.slice(0, 12)}, ${a.ref} ${other.slice(0, 12)}: ${differing} paths differ (git diff --name-only)`,
  );

  const bytes0 = await d1Bytes();
  const points = [await measureStateFolder(stateDir)];
  let t = performance.now();
  const reg = await call("POST", "/api/repos", { url, name: "bench" });
  const first = await until((s) => s.job?.id === reg.job.id && (s.status === "ready" || s.status === "failed"));
  const firstMs = performance.now() - t;
  const bytes1 = await d1Bytes();
  points.push(await measureStateFolder(stateDir));
  log(
    `default branch: ${(firstMs / 1000).toFixed(1)} s, ${first.progress.filesQueued} files processed, ${first.job.unchanged} unchanged, ${first.index.files} files / ${first.index.chunks} chunks, D1 +${((bytes1 - bytes0) / 1e6).toFixed(2)} MB`,
  );

  t = performance.now();
  const patched = await call("PATCH", "/api/repos/bench", { refs: [a.ref] });
  const name = patched.refs.refs[0].name as string;
  const second = await until((s) => s.refs.some((r: any) => r.name === name && (r.status === "failed" || (r.status === "ready" && r.commit === other))));
  const secondMs = performance.now() - t;
  const bytes2 = await d1Bytes();
  points.push(await measureStateFolder(stateDir));
  const row = second.refs.find((r: any) => r.name === name);
  if (row.status !== "ready") throw new Error(`${name} failed: ${row.lastError}`);
  log(
    `second ref ${name}: ${(secondMs / 1000).toFixed(1)} s, ${second.progress.filesQueued} files processed, ${second.job.unchanged} unchanged (job ${second.job.ref}), D1 +${((bytes2 - bytes1) / 1e6).toFixed(2)} MB (${(((bytes2 - bytes1) / (bytes1 - bytes0)) * 100).toFixed(1)}% of the first)`,
  );
  log("bytes added by table and index (dbstat, every D1 file):");
  console.log(storageDeltaMarkdown(["default branch", `second ref ${name}`], points));
} finally {
  await server.stop();
  gitServer.close();
  // The state folder holds a whole index (about 380 MB for sympy's two refs).
  rmSync(stateDir, { recursive: true, force: true });
}
