/**
 * @module scripts/lib/cpu
 *
 * CPU time of workerd processes from /proc (Linux only), for "CPU per query" figures that hold
 * up on a machine shared with other work, unlike wall-clock latency. wrangler dev runs two
 * workerd processes: a small proxy in front and the runtime, whose single thread runs every
 * Worker, Durable Object and the D1 simulation; at saturation that thread is the limit, so
 * queries/s is about 1000 / (its CPU ms per query).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { processTree } from "./rss.ts";

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  ticksPerSecond ??= Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
  return ticksPerSecond;
}

/** utime + stime of one process (all its threads), ms; 0 when it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5), counted from the state field (3) after the command name.
    return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks();
  } catch {
    return 0;
  }
}

/** CPU ms of each workerd process under `root` now, by pid. */
export function workerdCpu(root: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of processTree(root)) {
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    } catch {
      continue;
    }
    if (name.startsWith("workerd")) out.set(pid, processCpuMs(pid));
  }
  return out;
}

/**
 * CPU ms the busiest workerd process under `root` spent between `before` (a `workerdCpu`
 * snapshot) and now, divided by `operations`: its CPU cost per operation.
 */
export function busiestCpuPerOperation(root: number, before: Map<number, number>, operations: number): number {
  let busiest = 0;
  for (const [pid, ms] of workerdCpu(root)) busiest = Math.max(busiest, ms - (before.get(pid) ?? 0));
  return operations > 0 ? busiest / operations : Number.NaN;
}
