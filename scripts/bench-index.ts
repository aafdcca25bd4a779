/**
 * `npm run bench:index`: cold-indexing speed of two commits of the product on the same tree,
 * paired. Each round starts a clean export of commit A, then of commit B (or B then A: the order
 * alternates), each on a fresh state folder, uploads the corpus as one archive and waits until
 * the snapshot is ready. The figures are upload-to-ready wall time and the CPU time the workerd
 * processes spent meanwhile (scripts/lib/cpu.ts; on a machine shared with other work the CPU
 * figure holds up better than wall time). Ratios head/base are taken pair by pair, so a drift
 * in the machine's speed between rounds cancels out. Server start-up (bundling, migrations) is
 * not timed.
 *
 *   npm run bench:index -- --corpus /tmp/cc-corpora/hono-28a9c12 --base REV --head HEAD [--rounds 3] [--port-base P]
 *
 * Prints one line per run and a summary: median wall time of each, files/s and lines/s, the
 * median, minimum and maximum of the paired ratio head/base, and the peak resident memory of
 * the workerd processes while indexing. `--out FILE` keeps the runs as JSON.
 */
import { rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ApiClient } from "../evals/lib/client.ts";
import { readCorpus } from "../evals/lib/corpus-fs.ts";
import { buildTarGz } from "../evals/lib/archive.ts";
import { waitUntilIndexed } from "../evals/lib/client.ts";
import { jobIdOf } from "../evals/lib/evaluate.ts";
import { parseCli } from "./lib/cli.ts";
import { workerdCpu } from "./lib/cpu.ts";
import { freePort, startSnapshotServer } from "./lib/dev-server.ts";
import { startRssSampler } from "./lib/rss.ts";

const USAGE = `Usage: npm run bench:index -- --corpus DIR --base REV [--head HEAD] [--rounds 3] [--out FILE]

Cold-indexing wall time of two commits on the same tree, alternating, with paired ratios.`;

const a = parseCli(USAGE, {
  corpus: { type: "string", default: "/tmp/cc-corpora/hono-28a9c12" },
  base: { type: "string" },
  head: { type: "string", default: "HEAD" },
  rounds: { type: "string", default: "3" },
  out: { type: "string" },
  "port-base": { type: "string" },
});
if (!a.base) {
  console.error(`--base is required (the commit to compare against)\n\n${USAGE}`);
  process.exit(2);
}

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const files = readCorpus(resolve(a.corpus!), "whole");
/** Lines of the corpus (newline-separated, as `wc -l` plus a last unterminated line). */
const corpusLines = files.reduce((n, f) => n + new TextDecoder().decode(f.bytes).split("\n").length, 0);
/** `--port-base P`: servers listen on P, P+1, ... (a port range of one's own on a shared machine); default: any free port. */
let nextPort = a["port-base"] ? Number(a["port-base"]) : 0;
const rounds = Number(a.rounds);
const log = (s: string) => console.log(`[bench:index] ${s}`);

interface Run {
  commit: string;
  sha: string;
  round: number;
  wallMs: number;
  /** The upload request alone: the coordinator reads the archive and plans the job (filters, secret scan) before it answers. */
  uploadMs: number;
  /** CPU ms of all workerd processes of the server from the upload to ready. */
  cpuMs: number;
  /** The part of `cpuMs` spent until the upload answered (reading the archive and planning). */
  uploadCpuMs: number;
  /** Largest sum of the workerd processes' resident memory sampled (every 200 ms) from the upload to ready, MB. */
  peakWorkerdMb: number;
  filesDone: number;
  chunks: number;
}

/** One cold index of the corpus on a fresh server of `commit`. */
async function coldIndex(commit: string, round: number): Promise<Run> {
  const stateDir = `/tmp/cc-bench-index-${process.pid}`;
  rmSync(stateDir, { recursive: true, force: true });
  const port = nextPort ? nextPort++ : await freePort();
  const server = await startSnapshotServer({ projectRoot: ROOT, commit, port, persistTo: stateDir, token: "bench-token" });
  try {
    const client = new ApiClient({ baseUrl: server.baseUrl, token: server.token });
    const sum = (m: Map<number, number>) => [...m.values()].reduce((x, y) => x + y, 0);
    const cpuBefore = sum(workerdCpu(server.pid));
    const rss = startRssSampler(server.pid);
    // evals/lib/evaluate.ts indexCorpus, with the CPU read when the upload answers.
    const tarGz = await buildTarGz(files);
    const started = Date.now();
    let uploadCpuMs = 0;
    let uploadMs = 0;
    const status = await (async () => {
      const upload = await client.uploadArchive("bench-corpus", tarGz);
      uploadMs = Date.now() - started;
      uploadCpuMs = Math.round(sum(workerdCpu(server.pid)) - cpuBefore);
      const jobId = jobIdOf(upload);
      return waitUntilIndexed(client, "bench-corpus", {
        pollMs: 250,
        timeoutMs: 30 * 60_000,
        isDone: (s) => s.status === "ready" && (jobId === undefined || jobIdOf(s) === undefined || jobIdOf(s) === jobId),
      });
    })().finally(() => rss.stop());
    const run = { wallMs: Date.now() - started, uploadMs, status };
    const cpuMs = Math.round(sum(workerdCpu(server.pid)) - cpuBefore);
    const peakWorkerdMb = Math.round(rss.peak().workerdBytes / 2 ** 20);
    const progress = (run.status.progress ?? {}) as { filesDone?: number; chunks?: number };
    const r = {
      commit,
      sha: server.commit,
      round,
      wallMs: run.wallMs,
      uploadMs: run.uploadMs,
      cpuMs,
      uploadCpuMs,
      peakWorkerdMb,
      filesDone: progress.filesDone ?? 0,
      chunks: progress.chunks ?? 0,
    };
    log(
      `round ${round} ${commit} (${server.commit.slice(0, 7)}): ${r.wallMs} ms wall (upload and plan ${r.uploadMs} ms), ${r.cpuMs} ms workerd CPU (${r.uploadCpuMs} ms until the upload answered), peak workerd RSS ${r.peakWorkerdMb} MB, ${r.filesDone} files, ${r.chunks} chunks`,
    );
    return r;
  } finally {
    await server.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const runs: Run[] = [];
const ratios: number[] = [];
const cpuRatios: number[] = [];
for (let round = 1; round <= rounds; round++) {
  const order = round % 2 ? [a.base, a.head!] : [a.head!, a.base];
  const pair = new Map<string, Run>();
  for (const commit of order) {
    const r = await coldIndex(commit, round);
    runs.push(r);
    pair.set(commit, r);
  }
  ratios.push(pair.get(a.head!)!.wallMs / pair.get(a.base)!.wallMs);
  cpuRatios.push(pair.get(a.head!)!.cpuMs / pair.get(a.base)!.cpuMs);
}

const summary = (commit: string) => {
  const mine = runs.filter((r) => r.commit === commit);
  const ms = median(mine.map((r) => r.wallMs));
  return {
    commit,
    sha: mine[0]!.sha,
    medianMs: ms,
    medianCpuMs: median(mine.map((r) => r.cpuMs)),
    medianPeakWorkerdMb: median(mine.map((r) => r.peakWorkerdMb)),
    maxPeakWorkerdMb: Math.max(...mine.map((r) => r.peakWorkerdMb)),
    linesPerSec: Math.round((corpusLines / ms) * 1000),
    filesPerSec: Math.round((mine[0]!.filesDone / ms) * 1000 * 10) / 10,
    chunks: mine[0]!.chunks,
  };
};
const result = {
  corpus: resolve(a.corpus!),
  files: files.length,
  lines: corpusLines,
  rounds,
  base: summary(a.base),
  head: summary(a.head!),
  ratio: { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) },
  cpuRatio: { median: median(cpuRatios), min: Math.min(...cpuRatios), max: Math.max(...cpuRatios) },
  runs,
};
log(
  `${result.files} files, ${result.lines} lines: base ${result.base.sha.slice(0, 7)} median ${result.base.medianMs} ms (${result.base.filesPerSec} files/s, ${result.base.linesPerSec} lines/s), head ${result.head.sha.slice(0, 7)} median ${result.head.medianMs} ms (${result.head.filesPerSec} files/s, ${result.head.linesPerSec} lines/s); head/base paired wall ratio median ${result.ratio.median.toFixed(3)} (min ${result.ratio.min.toFixed(3)}, max ${result.ratio.max.toFixed(3)}); workerd CPU base ${result.base.medianCpuMs} ms, head ${result.head.medianCpuMs} ms, paired ratio median ${result.cpuRatio.median.toFixed(3)} (min ${result.cpuRatio.min.toFixed(3)}, max ${result.cpuRatio.max.toFixed(3)}); peak workerd RSS median (max) base ${result.base.medianPeakWorkerdMb} (${result.base.maxPeakWorkerdMb}) MB, head ${result.head.medianPeakWorkerdMb} (${result.head.maxPeakWorkerdMb}) MB`,
);
if (a.out) writeFileSync(a.out, JSON.stringify(result, null, 2) + "\n");
