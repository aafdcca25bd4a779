/**
 * `node scripts/bench-webhook.ts`: only the webhook step of `npm run bench` (push webhook
 * delivery -> the pushed commit searchable, one file changed), on a server started from a
 * clean export of HEAD (scripts/lib/dev-server.ts) or on `--base-url`.
 *
 *   node scripts/bench-webhook.ts [--corpus /tmp/cc-corpora/hono-28a9c12] [--port N] [--git-port N] [--edit src/hono.ts] [--log FILE]
 *
 * `--log FILE` keeps the server's log (the coordinator logs its fetch, plan and flip with times),
 * to see where the time goes.
 */
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ApiClient } from "../evals/lib/client.ts";
import { parseCli } from "./lib/cli.ts";
import { freePort, startSnapshotServer } from "./lib/dev-server.ts";
import { measureWebhookToSearchable } from "./lib/webhook-latency.ts";

const USAGE = `Usage: node scripts/bench-webhook.ts [--corpus DIR] [--port N] [--git-port N] [--edit PATH] [--log FILE] [--base-url URL --token T]`;
const a = parseCli(USAGE, {
  corpus: { type: "string", default: "/tmp/cc-corpora/hono-28a9c12" },
  port: { type: "string" },
  "git-port": { type: "string" },
  edit: { type: "string", default: "src/hono.ts" },
  "base-url": { type: "string" },
  token: { type: "string" },
  commit: { type: "string", default: "HEAD" },
  log: { type: "string" },
});
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const corpus = resolve(a.corpus!);
if (!existsSync(resolve(corpus, a.edit!))) {
  console.error(`${a.edit} is not in ${corpus}; pass --corpus and --edit`);
  process.exit(2);
}
const log = (s: string) => process.stderr.write(`${s}\n`);
const stateDir = `/tmp/cc-bench-webhook-${process.pid}`;
const server = a["base-url"]
  ? null
  : await startSnapshotServer({
      projectRoot: ROOT,
      commit: a.commit,
      port: a.port ? Number(a.port) : await freePort(),
      persistTo: stateDir,
      token: "bench-token",
      searchLimitPerMinute: 1_000_000,
      // The corpus is served as a git repo on loopback: local mode allows that host.
      vars: { ALLOW_LOOPBACK_GIT_URLS: "true" },
    });
const baseUrl = server?.baseUrl ?? a["base-url"]!;
try {
  const client = new ApiClient({ baseUrl, token: server?.token ?? a.token });
  const r = await measureWebhookToSearchable({
    client,
    baseUrl,
    corpus,
    projectRoot: ROOT,
    repo: "bench-webhook",
    editPath: a.edit!,
    gitPort: a["git-port"] ? Number(a["git-port"]) : await freePort(),
    log,
  });
  console.log(JSON.stringify({ commit: server?.commit ?? null, corpus, ...r }, null, 2));
} finally {
  await server?.stop();
  if (server && a.log) copyFileSync(server.logFile, a.log);
  rmSync(stateDir, { recursive: true, force: true });
}
