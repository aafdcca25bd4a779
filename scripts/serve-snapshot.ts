/**
 * Serves one commit of the project for evaluation runs, from a clean export (so edits in the
 * work tree do not reload the server mid-run): `node scripts/serve-snapshot.ts [--commit HEAD]
 * [--port 8791] [--state /tmp/cc-eval-state] [--token eval-token] [--fresh] [--search-limit N] [--keep-snapshots]`
 * (`--search-limit` raises the search rate limits of the export, see scripts/lib/dev-server.ts;
 * `--keep-snapshots` collects no garbage, for scripts/replay-swebench.ts). Prints the base URL
 * and stays in the foreground; Ctrl-C stops wrangler and workerd.
 *
 * Then: `npm run eval -- --set fixture --base-url http://127.0.0.1:8791 --token eval-token`.
 */
import { rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseCli } from "./lib/cli.ts";
import { startSnapshotServer } from "./lib/dev-server.ts";

const USAGE = `Usage: node scripts/serve-snapshot.ts [--commit HEAD] [--port 8791] [--state DIR] [--token eval-token] [--fresh] [--search-limit N] [--keep-snapshots]

Serves one commit of the project from a clean export (wrangler dev) until Ctrl-C.

  --commit REV          the commit to serve (default HEAD)
  --port N              TCP port (default 8791)
  --state DIR           where D1, KV and Durable Object state persist (default /tmp/cc-eval-state)
  --token T             API token the server accepts (default eval-token)
  --fresh               delete the state folder first
  --search-limit N      the export's search rate limits, per minute (raised for load tests)
  --keep-snapshots      keep every snapshot (KEEP_SNAPSHOTS=true), so scripts/replay-swebench.ts
                        can replay a SWE-bench run over this state`;

const a = parseCli(USAGE, {
  commit: { type: "string", default: "HEAD" },
  port: { type: "string", default: "8791" },
  state: { type: "string", default: "/tmp/cc-eval-state" },
  token: { type: "string", default: "eval-token" },
  fresh: { type: "boolean", default: false },
  "search-limit": { type: "string" },
  "keep-snapshots": { type: "boolean", default: false },
});
const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
if (a.fresh) rmSync(a.state!, { recursive: true, force: true });
const server = await startSnapshotServer({
  projectRoot: root,
  commit: a.commit,
  port: Number(a.port),
  persistTo: a.state!,
  token: a.token!,
  searchLimitPerMinute: a["search-limit"] ? Number(a["search-limit"]) : undefined,
  vars: a["keep-snapshots"] ? { KEEP_SNAPSHOTS: "true" } : undefined,
});
console.log(`serving commit ${server.commit.slice(0, 7)} at ${server.baseUrl} (token ${server.token}); log ${server.logFile}; pid ${server.pid}`);
const stop = () => void server.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
setInterval(() => {}, 1 << 30);
