/**
 * @module indexer/history/extract
 *
 * Turns fetched commits into history rows (indexer/store/d1/history.ts): for each commit not
 * stored yet, newest first, its metadata and, per changed text file, the line hunks against
 * its parent (renames paired by tree-diff.ts). Merges record only what history needs to pass
 * through them: nothing for a file equal to the first parent's, `=` for a file equal to another
 * parent's, and hunks against every parent otherwise. Binary files and files over `maxBytes`
 * get no rows. Plain data in, plain data out: the git objects come through `GitObjectReader`.
 */
import type { ChangeRecord, CommitRecord } from "../store/d1/history";
import { lineHunks } from "./hunks";
import { blobAt, blobLines, diffTrees, pairRenames, LinesCache, type GitObjectReader, type PathDiff } from "./tree-diff";

/** Options of `extractHistory`. */
export interface ExtractOptions {
  /** Commits already stored: not read again (their ancestors are stored too). */
  known: Set<string>;
  /** Commits whose parents were not fetched (the `shallow` file of a depth-limited fetch). */
  shallow: Set<string>;
  /** Most commits to record; the walk stops there (`stopped`) and a later step continues. */
  maxCommits: number;
  /** Time (from `now`) past which the walk stops (`stopped`); none by default. */
  deadline?: number;
  /** Clock for `deadline` (ms). Default Date.now. */
  now?: () => number;
  /** Larger blobs get no line history (MAX_FILE_BYTES: the indexer skips them too). */
  maxBytes: number;
}

/** Commits and changes to store, and where and why the walk stopped short (null: it did not). */
export interface ExtractedHistory {
  commits: CommitRecord[];
  changes: ChangeRecord[];
  stopped: { commit: string; reason: string } | null;
}

/** Commits extracted between two yields to the event loop (a coordinator keeps answering; Workers' clock moves only then). */
const COMMITS_PER_YIELD = 20;

/** Bytes of blobs whose lines are kept between commits (a Worker isolate has 128 MiB, and lines as strings take more than their bytes). */
const LINES_CACHE_BYTES = 8 * 1024 * 1024;

function splitMessage(message: string): { subject: string; body: string } {
  const text = message.replace(/\r\n/g, "\n").trim();
  const cut = text.indexOf("\n\n");
  const subject = (cut < 0 ? text : text.slice(0, cut)).replace(/\n/g, " ");
  return { subject: subject.slice(0, 1000), body: cut < 0 ? "" : text.slice(cut + 2).slice(0, 20_000) };
}

/**
 * Walks from `heads` (breadth first over parents; the first is the tip, the rest are where an
 * earlier step stopped) and extracts every commit not in `opts.known`. A start that is not in
 * the fetched objects (an earlier step's frontier now older than the window) is skipped.
 */
export async function extractHistory(r: GitObjectReader, heads: string | string[], opts: ExtractOptions): Promise<ExtractedHistory> {
  const now = opts.now ?? Date.now;
  const commits: CommitRecord[] = [];
  const changes: ChangeRecord[] = [];
  const lines = new LinesCache(LINES_CACHE_BYTES);
  const starts = typeof heads === "string" ? [heads] : heads;
  const seen = new Set<string>(starts);
  const queue = [...starts];
  const optional = new Set(starts.slice(1));
  let stopped: ExtractedHistory["stopped"] = null;
  while (queue.length > 0) {
    if (commits.length > 0 && commits.length % COMMITS_PER_YIELD === 0) await new Promise((res) => setTimeout(res, 0));
    const reason =
      commits.length >= opts.maxCommits
        ? `the step's budget of ${opts.maxCommits} commits was spent`
        : opts.deadline !== undefined && now() > opts.deadline
          ? "the step's time budget was spent"
          : null;
    const sha = queue.shift()!;
    if (opts.known.has(sha)) continue;
    if (reason) {
      stopped = { commit: sha, reason };
      break;
    }
    const c = await readOptional(r, sha, optional.has(sha));
    if (!c) continue;
    const boundary = opts.shallow.has(sha);
    commits.push({
      sha,
      parents: c.parent,
      boundary,
      authorName: c.author.name,
      authorEmail: c.author.email,
      authorTime: c.author.timestamp,
      committerTime: c.committer.timestamp,
      ...splitMessage(c.message),
    });
    if (boundary) continue;
    changes.push(...(await changesOf(r, sha, c.tree, c.parent, opts.maxBytes, lines)));
    for (const p of c.parent) {
      if (seen.has(p)) continue;
      seen.add(p);
      queue.push(p);
    }
  }
  return { commits, changes, stopped };
}

/** The commit, or null when `optional` and it was not fetched. */
async function readOptional(r: GitObjectReader, sha: string, optional: boolean): Promise<Awaited<ReturnType<GitObjectReader["readCommit"]>> | null> {
  try {
    return await r.readCommit(sha);
  } catch (err) {
    if (optional) return null;
    throw err;
  }
}

async function changesOf(r: GitObjectReader, sha: string, tree: string, parents: string[], maxBytes: number, cache: LinesCache): Promise<ChangeRecord[]> {
  const parentTrees = await Promise.all(parents.map(async (p) => (await r.readCommit(p)).tree));
  const first = await diffTrees(r, parentTrees[0] ?? null, tree);
  const renames = await renamesIn(r, first, maxBytes, cache);
  const out: ChangeRecord[] = [];
  const otherDiffs = new Map<number, Promise<Map<string, string>>>();
  for (const [path, d] of first) {
    if (d.new === null) continue;
    if (parents.length > 1) {
      const blobs = await Promise.all(parentTrees.slice(1).map((t) => blobAt(r, t, path)));
      const same = blobs.indexOf(d.new);
      if (same >= 0) {
        out.push({ sha, parentIndex: same + 1, path, status: "=", oldPath: null, hunks: null });
        continue;
      }
      for (let k = 1; k < parents.length; k++) {
        if (!otherDiffs.has(k))
          otherDiffs.set(
            k,
            diffTrees(r, parentTrees[k]!, tree).then((dk) => renamesIn(r, dk, maxBytes, cache)),
          );
        const oldPath = blobs[k - 1] ? path : ((await otherDiffs.get(k)!).get(path) ?? null);
        const oldBlob = blobs[k - 1] ?? (oldPath ? await blobAt(r, parentTrees[k]!, oldPath) : null);
        const row = await changeRow(r, sha, k, path, oldPath, oldBlob, d.new, maxBytes, cache);
        if (row) out.push(row);
      }
    }
    const oldPath = d.old ? path : (renames.get(path) ?? null);
    const oldBlob = d.old ?? (oldPath ? first.get(oldPath)!.old : null);
    const row = await changeRow(r, sha, 0, path, parents.length === 0 ? null : oldPath, parents.length === 0 ? null : oldBlob, d.new, maxBytes, cache);
    if (row) out.push(row);
  }
  return out;
}

/** New path -> old path for the added and deleted paths of one diff. */
async function renamesIn(r: GitObjectReader, d: Map<string, PathDiff>, maxBytes: number, cache: LinesCache): Promise<Map<string, string>> {
  const added = [...d].filter(([, x]) => x.old === null && x.new !== null).map(([path, x]) => ({ path, blob: x.new! }));
  const deleted = [...d].filter(([, x]) => x.old !== null && x.new === null).map(([path, x]) => ({ path, blob: x.old! }));
  return added.length && deleted.length ? pairRenames(r, added, deleted, maxBytes, cache) : new Map();
}

/** The row of one file against one parent, or null for binary or oversized files. */
async function changeRow(
  r: GitObjectReader,
  sha: string,
  parentIndex: number,
  path: string,
  oldPath: string | null,
  oldBlob: string | null,
  newBlob: string,
  maxBytes: number,
  cache: LinesCache,
): Promise<ChangeRecord | null> {
  const after = await blobLines(r, newBlob, maxBytes, cache);
  if (!after) return null;
  if (!oldBlob) return { sha, parentIndex, path, status: "A", oldPath: null, hunks: null };
  const before = await blobLines(r, oldBlob, maxBytes, cache);
  if (!before) return { sha, parentIndex, path, status: "A", oldPath: null, hunks: null };
  return {
    sha,
    parentIndex,
    path,
    status: oldPath && oldPath !== path ? "R" : "M",
    oldPath: oldPath && oldPath !== path ? oldPath : null,
    hunks: lineHunks(before, after),
  };
}
