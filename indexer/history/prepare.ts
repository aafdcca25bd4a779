/**
 * @module indexer/history/prepare
 *
 * The line diff git's default (Myers) algorithm computes before placement: git's xdiff first
 * leaves out the common prefix and suffix, counts a line with no copy on the other side as
 * changed, and counts a line that has very many copies (a blank line in a long file) as changed
 * when it sits inside a run of such lines (`xdl_trim_ends`, `xdl_cleanup_records` and
 * `xdl_clean_mmatch` in xdiff/xprepare.c); only the rest goes to Myers (here fast-myers-diff).
 * Without this a blank line inside a rewritten block is matched to an old blank line, and blame
 * names an older commit for it than `git blame` does.
 */
import { diff } from "fast-myers-diff";

/** Hunk [os, oe, ns, ne]: 0-based, end exclusive. */
type Hunk = [number, number, number, number];

// git's limits (xdiff/xprepare.c): copies past which a line is "multimatch", and the scan window.
const MAX_EQLIMIT = 1024;
const SIMSCAN_WINDOW = 100;
const KPDIS_RUN = 4;

const NO_MATCH = 0;
const MATCH = 1;
const MANY = 2;

/** git's rough square root (a power of two), the copy count past which a line is "many". */
function bogoSqrt(n: number): number {
  let i = 1;
  for (; n > 0; n >>= 2) i <<= 1;
  return i;
}

function counts(lines: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of lines) m.set(l, (m.get(l) ?? 0) + 1);
  return m;
}

/** Whether the many-copies line `i` sits in a run mostly of unmatched lines (then it is left out). */
function inUnmatchedRun(dis: Uint8Array, i: number, start: number, last: number): boolean {
  const s = Math.max(start, i - SIMSCAN_WINDOW);
  const e = Math.min(last, i + SIMSCAN_WINDOW);
  let none = 0;
  let many = 2; // git counts line i itself in the run before and in the run after
  for (let j = i - 1; j >= s && dis[j] !== MATCH; j--) {
    if (dis[j] === NO_MATCH) none++;
    else many++;
  }
  if (none === 0) return false;
  let noneAfter = 0;
  for (let j = i + 1; j <= e && dis[j] !== MATCH; j++) {
    if (dis[j] === NO_MATCH) noneAfter++;
    else many++;
  }
  if (noneAfter === 0) return false;
  return many * KPDIS_RUN < many + none + noneAfter;
}

/** Indices in [start, end) that go to Myers; the others in that range are changed. */
function keptLines(lines: string[], start: number, end: number, other: Map<string, number>): number[] {
  const limit = Math.min(bogoSqrt(lines.length), MAX_EQLIMIT);
  const dis = new Uint8Array(lines.length);
  for (let i = start; i < end; i++) {
    const n = other.get(lines[i]!) ?? 0;
    dis[i] = n === 0 ? NO_MATCH : n >= limit ? MANY : MATCH;
  }
  const kept: number[] = [];
  for (let i = start; i < end; i++) if (dis[i] === MATCH || (dis[i] === MANY && !inUnmatchedRun(dis, i, start, end - 1))) kept.push(i);
  return kept;
}

/**
 * The hunks that turn `a` into `b` as git's Myers diff finds them before placement (compact.ts
 * places them). In order, 0-based, end exclusive.
 */
export function xdiffHunks(a: string[], b: string[]): Hunk[] {
  const lim = Math.min(a.length, b.length);
  let pre = 0;
  while (pre < lim && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < lim - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const keptA = keptLines(a, pre, a.length - suf, counts(b));
  const keptB = keptLines(b, pre, b.length - suf, counts(a));
  // Every line between the common ends is changed unless Myers matches it below.
  const changedA = new Uint8Array(a.length + 1).fill(1, pre, a.length - suf);
  const changedB = new Uint8Array(b.length + 1).fill(1, pre, b.length - suf);
  for (const i of keptA) changedA[i] = 0;
  for (const i of keptB) changedB[i] = 0;
  const ra = keptA.map((i) => a[i]!);
  const rb = keptB.map((i) => b[i]!);
  for (const [os, oe, ns, ne] of diff(ra, rb)) {
    for (let k = os; k < oe; k++) changedA[keptA[k]!] = 1;
    for (let k = ns; k < ne; k++) changedB[keptB[k]!] = 1;
  }
  const out: Hunk[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (!changedA[i] && !changedB[j]) {
      i++;
      j++;
      continue;
    }
    const os = i;
    const ns = j;
    while (changedA[i]) i++;
    while (changedB[j]) j++;
    out.push([os, i, ns, j]);
  }
  return out;
}
