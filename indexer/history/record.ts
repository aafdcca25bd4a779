/**
 * @module indexer/history/record
 *
 * Records a fetched snapshot's commit history (called by the coordinator after a fetch with
 * HISTORY_DEPTH): extracts the commits not stored yet and writes them. A failure is logged and
 * leaves history as it was: indexing the snapshot does not depend on it.
 */
import { MAX_HISTORY_COMMITS } from "../../kernel/history-depth";
import type { SourceSnapshot } from "../source/snapshot";
import { hasCommit, knownCommits, writeHistory } from "../store/d1/history";
import { extractHistory } from "./extract";

/** What one recording did (for the log and the bench). */
export interface RecordedHistory {
  commits: number;
  changes: number;
  ms: number;
}

/**
 * Whether a repo lacks history for `commit` (so a fast "unchanged" refresh, or a ref taking over
 * a complete snapshot, should still fetch): the commit is not in the repo's commit graph, which
 * every tracked ref's fetch adds to.
 */
export async function historyMissing(db: D1Database, repo: string, commit: string): Promise<boolean> {
  return !(await hasCommit(db, repo, commit));
}

/**
 * Extracts and writes the snapshot's new commits into the repo's one commit graph, whichever
 * tracked ref was fetched (`defaultRef`: the default ref's fetch, which also moves the history
 * meta row's head and ref); null when the snapshot has no history or recording failed.
 */
export async function recordHistory(
  db: D1Database,
  repo: string,
  snapshot: SourceSnapshot,
  maxBytes: number,
  now: () => number,
  defaultRef = true,
): Promise<RecordedHistory | null> {
  if (!snapshot.history) return null;
  const started = now();
  try {
    const known = await knownCommits(db, repo);
    const { reader, shallow, depth, ref } = snapshot.history;
    const h = await extractHistory(reader, snapshot.commit, { known, shallow, maxCommits: MAX_HISTORY_COMMITS, maxBytes });
    await writeHistory(db, repo, h.commits, h.changes, { head: snapshot.commit, ref, depth, updatedAt: now(), defaultRef });
    return { commits: h.commits.length, changes: h.changes.length, ms: now() - started };
  } catch (err) {
    console.error(`repo ${repo}: recording history of ${snapshot.commit} failed; history stays as it was`, err);
    return null;
  }
}
