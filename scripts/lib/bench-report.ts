/**
 * @module scripts/lib/bench-report
 *
 * The shape of `npm run bench` results and their markdown (the "Benchmarks" block of docs/evaluation.md).
 */
import { table } from "../../evals/lib/report.ts";
import type { LatencySummary } from "./load.ts";
import { askBenchMarkdown, type AskBench } from "./bench-ask.ts";
import { webMarkdown, type FirstResultTiming, type PageWeight } from "./bench-web-report.ts";

/** One indexing run as measured from the client (wall) and reported by the status. */
export interface IndexStageRun {
  label: string;
  wallMs: number;
  uploadedFiles: number;
  archiveBytes: number;
  filesTotal: number | null;
  /** Files the job chunked and wrote (status `progress.filesDone`). */
  filesProcessed: number | null;
  /** Files whose blob was already indexed (status `job.unchanged`). */
  unchanged: number | null;
  chunks: number | null;
  /** requestedAt -> finishedAt of the job, by the server's clock. */
  serverJobMs: number | null;
  /** `upload` (the POST until it answered, client clock), `queued` and `indexing` (the job's timestamps, server clock). */
  stageMs: Record<string, number>;
  /**
   * Client ms of the first search (k = 10) once the snapshot had flipped: it pays what the
   * isolate reloads per snapshot (the local vector store's matrix, the snapshot's chunk list).
   * Absent in results written before it was measured.
   */
  firstSearchMs?: number | null;
}

/** Everything `npm run bench` measures. */
export interface BenchResult {
  date: string;
  commit: string;
  machine: string;
  baseUrl: string;
  corpus: string;
  ripgrep: string;
  searchLimitPerMinute: number | null;
  index: { cold: IndexStageRun; unchanged: IndexStageRun; oneChanged: IndexStageRun; indexedFiles: number | null; indexedLines: number | null };
  /**
   * `productCpuMs`: CPU ms per query of the busiest workerd process (the runtime's one thread;
   * scripts/lib/cpu.ts), null with --base-url. Unlike latency it holds up on a shared machine.
   */
  latency: {
    workload: string;
    clients: number;
    product: LatencySummary;
    productServerP50: number | null;
    productCpuMs?: number | null;
    ripgrep: LatencySummary | null;
  }[];
  memory: { indexWorkerdMb: number; indexTotalMb: number; searchWorkerdMb: number; searchTotalMb: number } | null;
  /** scripts/bench-chunk.ts output (H1's parse-and-chunk throughput), when that script exists. */
  /** Answer overhead with the scripted model (scripts/lib/bench-ask.ts); null when not measured. */
  ask?: AskBench | null;
  chunkBench: { files: number; lines: number; chunks: number; linesPerSecond: number; linesPerSecondBestPass: number; linesPerCpuSecond: number } | null;
  /** Push webhook delivery -> pushed commit searchable (scripts/lib/webhook-latency.ts); absent in older runs. */
  webhook?: WebhookLatency | null;
  /** The web page (scripts/lib/bench-web.ts): first-load weight and time to first result (null without Chromium). */
  web?: { weight: PageWeight; firstResult: FirstResultTiming[] | null };
  command: string;
}

import type { WebhookLatency } from "./webhook-latency.ts";

const s1 = (ms: number) => (ms / 1000).toFixed(2);
const r0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "n/a");
const r1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "n/a");

/** Markdown for docs/evaluation.md: index table, latency table, memory line, provenance. */
export function benchMarkdown(r: BenchResult): string {
  const { cold, unchanged, oneChanged, indexedFiles, indexedLines } = r.index;
  const stages = (run: IndexStageRun) =>
    Object.entries(run.stageMs)
      .map(([k, v]) => `${k} ${s1(v)} s`)
      .join(", ");
  const indexRows = [cold, unchanged, oneChanged].map((run) => [
    run.label,
    String(run.filesProcessed ?? "?"),
    String(run.unchanged ?? "?"),
    s1(run.wallMs),
    run === cold && run.filesProcessed ? r0((run.filesProcessed * 1000) / run.wallMs) : "",
    run === cold && indexedLines ? r0((indexedLines * 1000) / run.wallMs) : "",
    run.firstSearchMs == null ? "" : r0(run.firstSearchMs),
    stages(run),
  ]);
  const latRows = r.latency.map((l) => [
    l.workload,
    String(l.clients),
    r1(l.product.p50),
    r1(l.product.p95),
    l.productServerP50 === null ? "" : r1(l.productServerP50),
    r0(l.product.qps),
    l.productCpuMs == null ? "" : r1(l.productCpuMs),
    l.ripgrep ? r1(l.ripgrep.p50) : "",
    l.ripgrep ? r1(l.ripgrep.p95) : "",
    l.ripgrep ? r0(l.ripgrep.qps) : "",
  ]);
  const corpusName = r.corpus.split("/").pop();
  const parts = [
    `**Indexing** \`${corpusName}\`: ${cold.uploadedFiles} files uploaded (${(cold.archiveBytes / 1e6).toFixed(1)} MB tar.gz), ${indexedFiles ?? "?"} indexed, ${indexedLines ?? "?"} lines, ${cold.chunks ?? "?"} chunks.`,
    table(["Run", "Files processed", "Unchanged", "Wall s (upload to ready)", "Files/s", "Lines/s", "First search ms", "Stages"], indexRows),
    "Stages: `upload` is the archive POST until it answered (client clock); `queued` and `indexing` come from the job's own timestamps (server clock). The job is requested while the upload is still being answered, so the stages overlap and add up to more than the wall time. \"First search\" is the client round trip of one short query (k = 10) right after the snapshot flipped, before any other search of it: what the isolate reloads per snapshot (the local vector store's matrix, the snapshot's chunk list) is in it.",
    `**Search latency** (warm, k = 10, ms, client-side HTTP round trip; "server p50" is the response's \`stats.tookMs\`; "workerd CPU" is the CPU time per query of the runtime's workerd process, whose one thread runs every Worker, Durable Object and D1 locally, so at saturation queries/s is about 1000 / that figure) beside ripgrep over the same tree (\`rg -i -F -l\` with the query's terms, process spawn included). The last rows are the local runtime's floor: \`GET /api/health\`, which does no search, authentication or storage call, through the same client, proxy and workerd:`,
    table(["Workload", "Clients", "p50", "p95", "server p50", "queries/s", "workerd CPU ms/query", "rg p50", "rg p95", "rg queries/s"], latRows),
    r.memory
      ? `**Peak memory** (RSS sampled every 200 ms): workerd ${r.memory.indexWorkerdMb} MB while indexing, ${r.memory.searchWorkerdMb} MB during the search runs (with wrangler's Node process: ${r.memory.indexTotalMb} MB / ${r.memory.searchTotalMb} MB). This is the local runtime (all Workers, Durable Objects, D1 and the queue in one workerd), not one production isolate.`
      : "Peak memory: not sampled (remote --base-url).",
    r.chunkBench
      ? `**Parse-and-chunk throughput** (\`scripts/bench-chunk.ts\`, one core, same tree): ${r.chunkBench.files} files, ${r.chunkBench.lines} lines, ${r.chunkBench.chunks} chunks; ${r.chunkBench.linesPerSecond} lines/s mean wall, ${r.chunkBench.linesPerSecondBestPass} lines/s fastest pass, ${r.chunkBench.linesPerCpuSecond} lines per CPU second.`
      : "",
    r.webhook
      ? `**Push to searchable** (the corpus served as a git repo on loopback, one file changed and pushed, a signed GitHub \`push\` delivery; client clock from sending the delivery to the first search that finds the new line): ${s1(r.webhook.deliveryToSearchableMs)} s (delivery answered in ${r0(r.webhook.deliveryResponseMs)} ms; ${r.webhook.searchPolls} searches; changed \`${r.webhook.changedPath}\`). It includes the shallow fetch of the whole commit and the snapshot flip.`
      : "",
    r.ask ? askBenchMarkdown(r.ask) : "",
    r.web ? `**Web page**: ${webMarkdown(r.web.weight, r.web.firstResult).replace(/\n/g, " ")}` : "",
    `_Generated ${r.date.slice(0, 10)} at commit \`${r.commit.slice(0, 7)}\` on ${r.machine}; ${r.baseUrl}${r.searchLimitPerMinute ? `, search rate limits raised to ${r.searchLimitPerMinute}/min for the run` : ""}; ${r.ripgrep}. Reproduce: \`${r.command}\`._`,
  ];
  return parts.filter(Boolean).join("\n\n");
}
