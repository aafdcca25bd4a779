/**
 * @module scripts/lib/load
 *
 * Runs a timed operation sequentially or from N concurrent clients and collects latencies.
 * Used for the product's search and for ripgrep side by side.
 */
import { percentile } from "../../evals/lib/metrics.ts";

/** Latency summary, ms; `qps` is completed operations per second of wall time. */
export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  max: number;
  qps: number;
}

/** Summarises latencies measured over `wallMs`. */
export function summarize(latencies: number[], wallMs: number): LatencySummary {
  return {
    n: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: latencies.length ? Math.max(...latencies) : Number.NaN,
    qps: wallMs > 0 ? (latencies.length * 1000) / wallMs : Number.NaN,
  };
}

/**
 * Runs `op(item)` for every item, `rounds` times, from `clients` concurrent workers pulling
 * from one shared list (1 = sequential). Each op returns its own latency in ms.
 */
export async function runLoad<T>(items: T[], rounds: number, clients: number, op: (item: T) => Promise<number>): Promise<LatencySummary> {
  const queue: T[] = [];
  for (let r = 0; r < rounds; r++) queue.push(...items);
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < queue.length) {
        const item = queue[next++];
        latencies.push(await op(item));
      }
    }),
  );
  return summarize(latencies, performance.now() - started);
}
