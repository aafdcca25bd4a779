/**
 * @module scripts/lib/bench-ask
 *
 * The service overhead of a grounded answer (`POST /api/ask`) with a model that answers at once:
 * the scripted Messages API server (test/messages-api-server.ts, scenario `cite`) behind the
 * real Anthropic provider. Per ask, the server reports `timings.totalMs` and `timings.modelMs`
 * (the provider's call, including the loopback round trip to the scripted server);
 * `overheadMs = totalMs - modelMs` is search, evidence assembly, verification and bookkeeping
 * (budget ledger, snapshot reads). Questions: the answerable ones of evals/sets/ask/hono.json.
 */
import type { ApiClient } from "../../evals/lib/client.ts";
import { percentile } from "../../evals/lib/ask-metrics.ts";

/** Summary of the ask runs (ms). */
export interface AskBench {
  n: number;
  statuses: Record<string, number>;
  overhead: { p50: number; p95: number };
  /** The search part of the overhead (`timings.searchMs`). */
  search: { p50: number; p95: number };
  serverTotal: { p50: number; p95: number };
  client: { p50: number; p95: number };
}

/** Asks every question `rounds` times, sequentially, after one warm-up pass. */
export async function runAskBench(client: ApiClient, repo: string, questions: string[], rounds: number): Promise<AskBench> {
  type R = { status: string; timings: { totalMs: number; overheadMs: number; searchMs: number } };
  for (const q of questions) await client.request<R>("POST", "/api/ask", { question: q, repo });
  const overhead: number[] = [];
  const searchMs: number[] = [];
  const total: number[] = [];
  const clientMs: number[] = [];
  const statuses: Record<string, number> = {};
  for (let round = 0; round < rounds; round++) {
    for (const q of questions) {
      const { body, ms } = await client.requestTimed<R>("POST", "/api/ask", { question: q, repo });
      overhead.push(body.timings.overheadMs);
      searchMs.push(body.timings.searchMs);
      total.push(body.timings.totalMs);
      clientMs.push(ms);
      statuses[body.status] = (statuses[body.status] ?? 0) + 1;
    }
  }
  const pp = (xs: number[]) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95) });
  return { n: overhead.length, statuses, overhead: pp(overhead), search: pp(searchMs), serverTotal: pp(total), client: pp(clientMs) };
}

/** One paragraph for the bench report. */
export function askBenchMarkdown(a: AskBench): string {
  const st = Object.entries(a.statuses)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  return (
    `**Answer overhead** (\`POST /api/ask\`, ${a.n} sequential asks, ${st}; the scripted Messages API answers at once, so this is the service's own time): ` +
    `search + evidence + verification + bookkeeping p50 ${a.overhead.p50.toFixed(1)} ms, p95 ${a.overhead.p95.toFixed(1)} ms (target p50 < 100 ms), of which the search p50 ${a.search.p50.toFixed(1)} ms; ` +
    `server total with the scripted model call p50 ${a.serverTotal.p50.toFixed(1)} ms; client round trip p50 ${a.client.p50.toFixed(1)} ms, p95 ${a.client.p95.toFixed(1)} ms.`
  );
}
