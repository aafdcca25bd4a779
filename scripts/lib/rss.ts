/**
 * @module scripts/lib/rss
 *
 * Samples the resident memory of a process tree from /proc (Linux only): the root pid and all
 * its descendants, summed, split into workerd processes and the rest (wrangler's Node).
 */
import { readdirSync, readFileSync } from "node:fs";

/** One sample, in bytes. */
export interface RssSample {
  workerdBytes: number;
  totalBytes: number;
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 4 after the ")" that closes the command name (which may contain spaces).
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

function rssBytes(pid: number): { bytes: number; name: string } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
    const name = /Name:\s+(\S+)/.exec(status)?.[1] ?? "";
    return { bytes: kb * 1024, name };
  } catch {
    return { bytes: 0, name: "" };
  }
}

/** The pid and every descendant of `root`. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const ppid = parentOf(pid);
    if (ppid === null) continue;
    (children.get(ppid) ?? children.set(ppid, []).get(ppid)!).push(pid);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** RSS of `root`'s tree now. */
export function sampleRss(root: number): RssSample {
  let workerd = 0;
  let total = 0;
  for (const pid of processTree(root)) {
    const { bytes, name } = rssBytes(pid);
    total += bytes;
    if (name.startsWith("workerd")) workerd += bytes;
  }
  return { workerdBytes: workerd, totalBytes: total };
}

/** Samples every `intervalMs` until stopped; `peak()` gives the largest sums seen since the last `reset()`. */
export function startRssSampler(root: number, intervalMs = 200) {
  let peak: RssSample = { workerdBytes: 0, totalBytes: 0 };
  const tick = () => {
    const s = sampleRss(root);
    peak = { workerdBytes: Math.max(peak.workerdBytes, s.workerdBytes), totalBytes: Math.max(peak.totalBytes, s.totalBytes) };
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return {
    peak: () => peak,
    reset: () => {
      peak = { workerdBytes: 0, totalBytes: 0 };
      tick();
    },
    stop: () => clearInterval(timer),
  };
}
