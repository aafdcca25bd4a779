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
import { blobAt, blobLines, diffTrees, pairRenames, type GitObjectReader, type PathDiff } from "./tree-diff";

/** Options of `extractHistory`. */
export interface ExtractOptions {
  /** Commits already stored: not read again (their ancestors are stored too). */
  known: Set<string>;
  /** Commits whose parents were not fetched (the `shallow` file of a depth-limited fetch). */
  shallow: Set<string>;
  /** Most commits to record; the walk's frontier past it becomes the boundary. */
  maxCommits: number;
  /** Larger blobs get no line history (MAX_FILE_BYTES: the indexer skips them too). */
  maxBytes: number;
}

/** Commits and changes to store. */
export interface ExtractedHistory {
  commits: CommitRecord[];
  changes: ChangeRecord[];
}

function splitMessage(message: string): { subject: string; body: string } {
  const text = message.replace(/\r\n/g, "\n").trim();
  const cut = text.indexOf("\n\n");
  const subject = (cut < 0 ? text : text.slice(0, cut)).replace(/\n/g, " ");
  return { subject: subject.slice(0, 1000), body: cut < 0 ? "" : text.slice(cut + 2).slice(0, 20_000) };
}

/** Walks from `head` (breadth first over parents) and extracts every commit not in `opts.known`. */
export async function extractHistory(r: GitObjectReader, head: string, opts: ExtractOptions): Promise<ExtractedHistory> {
  const commits: CommitRecord[] = [];
  const changes: ChangeRecord[] = [];
  const lines = new Map<string, string[] | null>();
  const seen = new Set<string>([head]);
  const queue = [head];
  while (queue.length > 0 && commits.length < opts.maxCommits) {
    const sha = queue.shift()!;
    if (opts.known.has(sha)) continue;
    const c = await r.readCommit(sha);
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
    if (lines.size > 2000) lines.clear(); // bounds memory: blobs of recent commits are what repeats
  }
  return { commits, changes };
}

async function changesOf(
  r: GitObjectReader,
  sha: string,
  tree: string,
  parents: string[],
  maxBytes: number,
  cache: Map<string, string[] | null>,
): Promise<ChangeRecord[]> {
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
async function renamesIn(r: GitObjectReader, d: Map<string, PathDiff>, maxBytes: number, cache: Map<string, string[] | null>): Promise<Map<string, string>> {
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
  cache: Map<string, string[] | null>,
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
