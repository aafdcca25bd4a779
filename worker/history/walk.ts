/**
 * @module worker/history/walk
 *
 * History and blame as walks over the stored commit graph, newest commit first (committer
 * time), following renames and passing through merges the way git does: a file or line equal
 * to a parent's goes to that parent (the first one that has it unchanged). Pure apart from
 * `changes`, which loads a path's change rows (indexer/store/d1/history.ts). Lines and ranges
 * are 0-based, end exclusive, here; the service turns them into 1-based inclusive ones.
 */
import type { ChangeRecord, CommitGraph } from "../../indexer/store/d1/history";
import { mapLine, mapRange, touches } from "./line-map";

/** What a walk reads: the graph, and a path's change rows by commit (the caller caches them). */
export interface WalkSource {
  graph: CommitGraph;
  changes(path: string): Promise<Map<string, ChangeRecord[]>>;
  /** True once the time budget is spent: the walk throws `BudgetSpentError`. */
  spent(): boolean;
}

/** A walk ran out of its time budget. */
export class BudgetSpentError extends Error {
  override name = "BudgetSpentError";
}

/** A range of a file at a commit. */
export interface FileRange {
  path: string;
  start: number;
  end: number;
}

/** One commit of a file's (or range's) history: its range after, and before (null: all added). */
export interface HistoryStep {
  sha: string;
  after: FileRange;
  before: FileRange | null;
}

/** The range "whole file". */
export const WHOLE_FILE_END = Number.MAX_SAFE_INTEGER;

interface Item<T> {
  sha: string;
  path: string;
  data: T;
}

const ranks = new WeakMap<CommitGraph, Map<string, number>>();

/**
 * Each commit's place in a topological order, children first and, among commits that are
 * ready together, the newest (committer time) first: equal or skewed clocks never put a parent
 * before its child, so a (commit, path) is visited once, after everything that reaches it.
 */
export function topoRank(graph: CommitGraph): Map<string, number> {
  const cached = ranks.get(graph);
  if (cached) return cached;
  const children = new Map<string, number>();
  for (const n of graph.values()) for (const p of n.parents) if (graph.has(p)) children.set(p, (children.get(p) ?? 0) + 1);
  const ready = [...graph.keys()].filter((sha) => !children.has(sha));
  const rank = new Map<string, number>();
  while (ready.length > 0) {
    let at = 0;
    for (let i = 1; i < ready.length; i++) if (graph.get(ready[i]!)!.committerTime > graph.get(ready[at]!)!.committerTime) at = i;
    const sha = ready.splice(at, 1)[0]!;
    rank.set(sha, rank.size);
    for (const p of graph.get(sha)!.parents) {
      const left = (children.get(p) ?? 0) - 1;
      children.set(p, left);
      if (left === 0) ready.push(p);
    }
  }
  ranks.set(graph, rank);
  return rank;
}

/** The stored commits reachable from `head` (itself included; stops where the stored history stops). */
export function reachableFrom(graph: CommitGraph, head: string): Set<string> {
  const seen = new Set<string>();
  const todo = graph.has(head) ? [head] : [];
  for (let sha = todo.pop(); sha !== undefined; sha = todo.pop()) {
    if (seen.has(sha)) continue;
    seen.add(sha);
    for (const p of graph.get(sha)!.parents) if (graph.has(p) && !seen.has(p)) todo.push(p);
  }
  return seen;
}

/** A queue of (commit, path) items, popped in `topoRank` order; pushing an item twice merges it. */
class CommitQueue<T> {
  readonly #items = new Map<string, Item<T>>();
  readonly #rank: Map<string, number>;
  constructor(
    private readonly graph: CommitGraph,
    private readonly merge: (a: T, b: T) => T,
  ) {
    this.#rank = topoRank(graph);
  }
  /** False when `sha` is beyond the stored history. */
  push(sha: string | undefined, path: string, data: T): boolean {
    if (!sha || !this.graph.has(sha)) return false;
    const key = `${sha}\0${path}`;
    const had = this.#items.get(key);
    this.#items.set(key, { sha, path, data: had ? this.merge(had.data, data) : data });
    return true;
  }
  pop(): Item<T> | undefined {
    let best: [string, Item<T>] | undefined;
    for (const e of this.#items) if (!best || this.#rank.get(e[1].sha)! < this.#rank.get(best[1].sha)!) best = e;
    if (best) this.#items.delete(best[0]);
    return best?.[1];
  }
}

/**
 * The commits that changed lines [start, end) of `path` at `head` (end WHOLE_FILE_END: any
 * change of the file), newest first, at most `limit`. `truncated`: the walk reached the depth
 * limit, so older changes are not known.
 */
export async function rangeHistory(
  src: WalkSource,
  head: string,
  path: string,
  start: number,
  end: number,
  limit: number,
): Promise<{ steps: HistoryStep[]; truncated: boolean }> {
  const whole = end === WHOLE_FILE_END;
  const q = new CommitQueue<[number, number]>(src.graph, (a, b) => [Math.min(a[0], b[0]), Math.max(a[1], b[1])]);
  q.push(head, path, [start, end]);
  const steps: HistoryStep[] = [];
  let truncated = false;
  const follow = (sha: string | undefined, p: string, r: [number, number]) => {
    if (r[0] < r[1] && !q.push(sha, p, r)) truncated = true;
  };
  for (let item = q.pop(); item && steps.length < limit; item = q.pop()) {
    if (src.spent()) throw new BudgetSpentError();
    const { sha, path: p, data: r } = item;
    const node = src.graph.get(sha)!;
    if (node.boundary) {
      truncated = true;
      continue;
    }
    const rows = (await src.changes(p)).get(sha) ?? [];
    const same = rows.find((x) => x.status === "=");
    if (rows.length === 0 || same) {
      follow(node.parents[same?.parentIndex ?? 0], p, r);
      continue;
    }
    // A merge is listed only when it changed the range against every parent (a conflict
    // resolved there); a whole file always differs from both sides, so, as `git log --follow`,
    // merges are passed through for whole files.
    if (whole && node.parents.length > 1) {
      for (const row of rows) if (row.status !== "A") follow(node.parents[row.parentIndex], row.oldPath ?? p, mapRange(r[0], r[1], row.hunks!));
      continue;
    }
    // A parent the range is unchanged against (merges): the range's history is that parent's.
    const clean = node.parents.length > 1 ? rows.find((x) => x.status !== "A" && !touches(r[0], r[1], x.hunks!, whole)) : undefined;
    if (clean) {
      follow(node.parents[clean.parentIndex], clean.oldPath ?? p, mapRange(r[0], r[1], clean.hunks!));
      continue;
    }
    let before: FileRange | null = null;
    for (const row of rows) {
      if (row.status === "A") continue;
      if (!whole && !touches(r[0], r[1], row.hunks!, false)) continue;
      const [os, oe] = mapRange(r[0], r[1], row.hunks!);
      if (os < oe && row.parentIndex === 0) before = { path: row.oldPath ?? p, start: os, end: oe };
      follow(node.parents[row.parentIndex], row.oldPath ?? p, [os, oe]);
    }
    const changed = rows.some((row) => row.status === "A" || touches(r[0], r[1], row.hunks!, whole));
    if (changed) steps.push({ sha, after: { path: p, start: r[0], end: r[1] }, before });
    else follow(node.parents[0], rows[0]!.oldPath ?? p, mapRange(r[0], r[1], rows[0]!.hunks!));
  }
  return { steps, truncated: truncated || q.pop() !== undefined };
}

/** Where one line of the asked range came from. `boundary`: at least as old as `sha`, the oldest stored commit on its way. */
export interface BlameLine {
  sha: string;
  boundary: boolean;
  /** The line's path and 0-based line number in `sha`'s version. */
  path: string;
  line: number;
}

/** For each line of [start, end) of `path` at `head`, the commit that last changed it. */
export async function blameLines(src: WalkSource, head: string, path: string, start: number, end: number): Promise<BlameLine[]> {
  type L = { cur: number; orig: number };
  const out: BlameLine[] = new Array(end - start);
  const q = new CommitQueue<L[]>(src.graph, (a, b) => [...a, ...b]);
  const blame = (sha: string, p: string, lines: L[], boundary: boolean) => {
    for (const l of lines) out[l.orig - start] = { sha, boundary, path: p, line: l.cur };
  };
  const pass = (from: string, sha: string | undefined, p: string, lines: L[]) => {
    if (lines.length && !q.push(sha, p, lines)) blame(from, p, lines, true);
  };
  const all: L[] = [];
  for (let i = start; i < end; i++) all.push({ cur: i, orig: i });
  if (!q.push(head, path, all)) return [];
  for (let item = q.pop(); item; item = q.pop()) {
    if (src.spent()) throw new BudgetSpentError();
    const { sha, path: p, data: lines } = item;
    const node = src.graph.get(sha)!;
    if (node.boundary) {
      blame(sha, p, lines, true);
      continue;
    }
    const rows = (await src.changes(p)).get(sha) ?? [];
    const same = rows.find((x) => x.status === "=");
    if (rows.length === 0 || same) {
      if (node.parents.length === 0) blame(sha, p, lines, false);
      else pass(sha, node.parents[same?.parentIndex ?? 0], p, lines);
      continue;
    }
    let remaining = lines;
    for (const row of rows) {
      if (row.status === "A") continue;
      const kept: L[] = [];
      const moved: L[] = [];
      for (const l of remaining) {
        const old = mapLine(l.cur, row.hunks!);
        if (old === null) kept.push(l);
        else moved.push({ cur: old, orig: l.orig });
      }
      pass(sha, node.parents[row.parentIndex], row.oldPath ?? p, moved);
      remaining = kept;
    }
    blame(sha, p, remaining, false);
  }
  return out;
}
