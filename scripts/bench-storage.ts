/**
 * `npm run bench:storage`: bytes of D1 per byte of indexed source, by table and index (issue #45,
 * measurement only). Starts a clean export of one commit on a fresh state folder (loopback only,
 * scripts/lib/dev-server.ts), uploads the tree as one archive, waits until the snapshot is ready,
 * stops the server by process group, copies the local D1 file with SQLite's online backup and
 * reads the copy's `dbstat` (scripts/lib/d1-storage.ts).
 *
 *   npm run bench:storage -- --corpus worker [--commit HEAD] [--port 9030] [--timeout-s 900] [--json]
 *
 * Prints a Markdown table (or JSON with `--json`): source bytes (the UTF-8 length of `files.text`),
 * each table and index in bytes and per source byte, and the total with and without
 * `local_vectors` (production keeps vectors in Vectorize). The whole run is bounded by
 * `--timeout-s`; the server and the state folder are removed on every exit path.
 */
import { rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ApiClient } from "../evals/lib/client.ts";
import { readCorpus } from "../evals/lib/corpus-fs.ts";
import { indexCorpus } from "../evals/lib/evaluate.ts";
import { parseCli } from "./lib/cli.ts";
import { backupSqlite, measureD1, storageMarkdown } from "./lib/d1-storage.ts";
import { startSnapshotServer, type DevServer } from "./lib/dev-server.ts";
import { largestD1File } from "./lib/sqlite-d1.ts";

const USAGE = `Usage: npm run bench:storage -- --corpus DIR [--commit HEAD] [--port 9030] [--timeout-s 900] [--json]

Indexes DIR on a local server of COMMIT and prints D1 bytes per source byte by table and index.`;

const a = parseCli(USAGE, {
  corpus: { type: "string" },
  commit: { type: "string", default: "HEAD" },
  port: { type: "string", default: "9030" },
  "timeout-s": { type: "string", default: "900" },
  json: { type: "boolean", default: false },
});
if (!a.corpus) {
  console.error(`--corpus is required (the folder to index)\n\n${USAGE}`);
  process.exit(2);
}
const port = Number(a.port);
const timeoutMs = Number(a["timeout-s"]) * 1000;
if (!Number.isInteger(port) || port < 1 || port > 65535 || !(timeoutMs > 0)) {
  console.error(`--port must be 1..65535 and --timeout-s a positive number\n\n${USAGE}`);
  process.exit(2);
}

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const log = (s: string) => console.error(`[bench:storage] ${s}`);
if (!statSync(resolve(a.corpus), { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`--corpus ${resolve(a.corpus)} is not a folder\n\n${USAGE}`);
  process.exit(2);
}
const files = readCorpus(resolve(a.corpus), "whole");
if (files.length === 0) {
  console.error(`no files under ${resolve(a.corpus)}`);
  process.exit(2);
}

const stateDir = `/tmp/cc-bench-storage-${process.pid}`;
let server: DevServer | undefined;
const cleanup = async () => {
  await server?.stop();
  rmSync(stateDir, { recursive: true, force: true });
};
// A hard bound on the whole run: a stuck index must not leave a server behind.
const timer = setTimeout(() => {
  log(`timed out after ${a["timeout-s"]} s`);
  void cleanup().finally(() => process.exit(1));
}, timeoutMs);
timer.unref();

try {
  rmSync(stateDir, { recursive: true, force: true });
  log(`starting ${a.commit} on 127.0.0.1:${port}`);
  server = await startSnapshotServer({ projectRoot: ROOT, commit: a.commit, port, persistTo: stateDir, token: "bench-token" });
  const client = new ApiClient({ baseUrl: server.baseUrl, token: server.token });
  const run = await indexCorpus(client, "bench-storage", files, { pollMs: 250, timeoutMs });
  log(`indexed ${files.length} files in ${run.wallMs} ms; stopping the server`);
  await server.stop();
  const d1 = largestD1File(stateDir);
  if (!d1) throw new Error(`no D1 file under ${stateDir}`);
  const copy = join(stateDir, "d1-copy.sqlite");
  await backupSqlite(d1, copy);
  const report = measureD1(copy);
  const out = { corpus: resolve(a.corpus), commit: server.commit, ...report };
  if (a.json) console.log(JSON.stringify(out, null, 2));
  else console.log(`Corpus \`${out.corpus}\`, commit ${out.commit.slice(0, 7)}.\n\n${storageMarkdown(report)}`);
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
} finally {
  clearTimeout(timer);
  await cleanup();
}
