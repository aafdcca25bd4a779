/**
 * `npm run profile:index`: where the CPU time of one cold index goes. Starts a fresh server of
 * one commit (like `npm run bench:index`), attaches to the Worker's inspector, records a V8 CPU
 * profile while the corpus is uploaded and indexed, and prints:
 *   - the workerd CPU time of the run (all its processes) beside the Worker isolate's profiled
 *     time: the difference is D1's SQLite, the queue broker and the runtime itself;
 *   - self time by source module (the bundle's `// path` markers map lines to modules);
 *   - inclusive time of the stages (planning, secret scan, chunking, postings, D1 batch calls...).
 *
 *   npm run profile:index -- --corpus /tmp/cc-corpora/hono-28a9c12 [--commit HEAD] [--port 9250] [--inspector-port 9251] [--out FILE.cpuprofile]
 *
 * The sampling interval is 1 ms; the profiler slows the isolate a little, so take the shares,
 * not the absolute figures, and time with `npm run bench:index`.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ApiClient } from "../evals/lib/client.ts";
import { readCorpus } from "../evals/lib/corpus-fs.ts";
import { indexCorpus } from "../evals/lib/evaluate.ts";
import { parseCli } from "./lib/cli.ts";
import { workerdCpu } from "./lib/cpu.ts";
import { exportSnapshot, startSnapshotServer } from "./lib/dev-server.ts";
import { bundleModules, summariseProfile, type CpuProfile } from "./lib/cpu-profile.ts";

const USAGE = `Usage: npm run profile:index -- --corpus DIR [--commit HEAD] [--port 9250] [--inspector-port 9251] [--out FILE]

CPU profile of one cold index of DIR on a fresh server of the commit.`;

const a = parseCli(USAGE, {
  corpus: { type: "string", default: "/tmp/cc-corpora/hono-28a9c12" },
  commit: { type: "string", default: "HEAD" },
  port: { type: "string", default: "9250" },
  "inspector-port": { type: "string", default: "9251" },
  out: { type: "string" },
});

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const log = (s: string) => console.log(`[profile:index] ${s}`);

/** A minimal Chrome DevTools Protocol session over the inspector's WebSocket. */
async function inspector(url: string) {
  // wrangler's inspector proxy refuses an upgrade without an Origin header.
  const ws = new WebSocket(url, { headers: { Origin: "http://127.0.0.1" } } as unknown as string[]);
  await new Promise((ok, fail) => {
    ws.addEventListener("open", ok, { once: true });
    ws.addEventListener("error", fail, { once: true });
  });
  let next = 1;
  const waiting = new Map<number, (r: { result?: unknown; error?: unknown }) => void>();
  ws.addEventListener("message", (ev) => {
    const msg = JSON.parse(String(ev.data)) as { id?: number; result?: unknown; error?: unknown };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((ok, fail) => {
      const id = next++;
      waiting.set(id, (r) => (r.error ? fail(new Error(`${method}: ${JSON.stringify(r.error)}`)) : ok(r.result)));
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close() };
}

/** The Worker bundle wrangler last wrote for the export (`.wrangler/tmp/dev-*\/index.js`). */
function latestBundle(dir: string): string {
  const tmp = join(dir, ".wrangler", "tmp");
  const bundles = readdirSync(tmp)
    .filter((d) => d.startsWith("dev-"))
    .map((d) => join(tmp, d, "index.js"))
    .filter((f) => statSync(f, { throwIfNoEntry: false }));
  return bundles.sort((x, y) => statSync(y).mtimeMs - statSync(x).mtimeMs)[0]!;
}

const files = readCorpus(resolve(a.corpus!), "whole");
const lines = files.reduce((n, f) => n + new TextDecoder().decode(f.bytes).split("\n").length, 0);
const stateDir = `/tmp/cc-profile-index-${process.pid}`;
rmSync(stateDir, { recursive: true, force: true });
const server = await startSnapshotServer({
  projectRoot: ROOT,
  commit: a.commit,
  port: Number(a.port),
  inspectorPort: Number(a["inspector-port"]),
  persistTo: stateDir,
  token: "profile-token",
});
try {
  const targets = (await (await fetch(`http://127.0.0.1:${a["inspector-port"]}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const cdp = await inspector(targets[0]!.webSocketDebuggerUrl);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 1000 });
  const sum = (m: Map<number, number>) => [...m.values()].reduce((x, y) => x + y, 0);
  const cpuBefore = sum(workerdCpu(server.pid));
  await cdp.send("Profiler.start");
  const client = new ApiClient({ baseUrl: server.baseUrl, token: server.token });
  const run = await indexCorpus(client, "profile-corpus", files, { pollMs: 250, timeoutMs: 30 * 60_000 });
  const { profile } = (await cdp.send("Profiler.stop")) as { profile: CpuProfile };
  const cpuMs = Math.round(sum(workerdCpu(server.pid)) - cpuBefore);
  cdp.close();
  if (a.out) writeFileSync(a.out, JSON.stringify(profile));
  const progress = (run.status.progress ?? {}) as { filesDone?: number; chunks?: number };
  log(
    `${server.commit.slice(0, 7)} on ${a.corpus}: ${files.length} files, ${lines} lines; ${run.wallMs} ms wall (upload and plan ${run.uploadMs} ms), ${cpuMs} ms workerd CPU, ${progress.filesDone} files, ${progress.chunks} chunks`,
  );
  const modules = bundleModules(readFileSync(latestBundle(exportSnapshot(ROOT, a.commit).dir), "utf8"));
  console.log(summariseProfile(profile, modules));
} finally {
  await server.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
