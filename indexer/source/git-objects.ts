/**
 * @module indexer/source/git-objects
 *
 * Reads a fetched packfile's commits, trees and blobs for indexer/history (the history walk), with
 * a bounded memo: a commit's trees are read again as the next commit's parent trees.
 */
import git from "isomorphic-git";
import type { GitObjectReader } from "../history/tree-diff";
import type { MemoryFs } from "./memory-fs";

/**
 * Parsed trees and commits kept by `objectReader`: a commit's trees are read again as the next
 * commit's parent trees, so a short memo has most of the reuse. It was 20,000; with 2,000 (and
 * the bounded line cache) a year of sympy held 48 MiB after extraction (docs/history.md).
 */
const MEMO_OBJECTS_MAX = 2_000;

/** Reads the fetched objects for indexer/history, remembering parsed trees and commits (each is undeltified once, not per use). */
export function objectReader(fs: MemoryFs, cache: object): GitObjectReader {
  const trees = new Map<string, Awaited<ReturnType<GitObjectReader["readTree"]>>>();
  const commits = new Map<string, Awaited<ReturnType<GitObjectReader["readCommit"]>>>();
  const memo = async <T>(m: Map<string, T>, oid: string, read: () => Promise<T>): Promise<T> => {
    const hit = m.get(oid);
    if (hit) return hit;
    if (m.size >= MEMO_OBJECTS_MAX) m.clear();
    const value = await read();
    m.set(oid, value);
    return value;
  };
  return {
    readCommit: (oid) => memo(commits, oid, async () => (await git.readCommit({ fs, gitdir: "/", oid, cache })).commit),
    readTree: (oid) => memo(trees, oid, async () => (await git.readTree({ fs, gitdir: "/", oid, cache })).tree),
    readBlob: async (oid) => (await git.readBlob({ fs, gitdir: "/", oid, cache })).blob,
  };
}
