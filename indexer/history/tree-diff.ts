/**
 * @module indexer/history/tree-diff
 *
 * Git object reading for history: the files that differ between two trees (descending only
 * into subtrees whose ids differ, so a one-file commit reads a handful of trees), a blob looked
 * up by path, and rename pairing (exact blob match first, then line similarity).
 */
import { isBinary, lineSimilarity, splitLines } from "./hunks";

/** The git objects history needs; isomorphic-git over the fetched pack implements it (extract.ts). */
export interface GitObjectReader {
  readCommit(
    oid: string,
  ): Promise<{ tree: string; parent: string[]; author: { name: string; email: string; timestamp: number }; committer: { timestamp: number }; message: string }>;
  readTree(oid: string): Promise<{ mode: string; path: string; oid: string; type: string }[]>;
  readBlob(oid: string): Promise<Uint8Array>;
}

/** One differing path: blob before (null: absent) and after (null: absent). */
export interface PathDiff {
  old: string | null;
  new: string | null;
}

/** Most (added x deleted) pairs compared by content in one commit; beyond it only exact renames count. */
export const MAX_RENAME_PAIRS = 100;

/** Least line similarity for a rename (git's default is 50 %). */
export const RENAME_SIMILARITY = 0.5;

/** Paths whose blob differs between trees `a` and `b` (either may be null: empty). Submodules are skipped. */
export async function diffTrees(
  r: GitObjectReader,
  a: string | null,
  b: string | null,
  prefix = "",
  out = new Map<string, PathDiff>(),
): Promise<Map<string, PathDiff>> {
  if (a === b) return out;
  const left = a ? await r.readTree(a) : [];
  const right = b ? await r.readTree(b) : [];
  const byName = new Map<string, { l?: (typeof left)[number]; r?: (typeof right)[number] }>();
  for (const e of left) byName.set(e.path, { l: e });
  for (const e of right) byName.set(e.path, { ...byName.get(e.path), r: e });
  for (const [name, { l, r: rt }] of byName) {
    if (l && rt && l.oid === rt.oid) continue;
    const path = prefix + name;
    const lTree = l?.type === "tree" ? l.oid : null;
    const rTree = rt?.type === "tree" ? rt.oid : null;
    if (lTree || rTree) await diffTrees(r, lTree, rTree, `${path}/`, out);
    const lBlob = l?.type === "blob" ? l.oid : null;
    const rBlob = rt?.type === "blob" ? rt.oid : null;
    if (lBlob !== rBlob) out.set(path, { old: lBlob, new: rBlob });
  }
  return out;
}

/** The blob at `path` in tree `tree`, or null. */
export async function blobAt(r: GitObjectReader, tree: string, path: string): Promise<string | null> {
  const parts = path.split("/");
  let oid = tree;
  for (let i = 0; i < parts.length; i++) {
    const e = (await r.readTree(oid)).find((x) => x.path === parts[i]);
    if (!e) return null;
    if (i === parts.length - 1) return e.type === "blob" ? e.oid : null;
    if (e.type !== "tree") return null;
    oid = e.oid;
  }
  return null;
}

/**
 * Lines of blobs read lately (a commit's new side is the next commit's old side), emptied when
 * the blobs' bytes pass `maxBytes`: a count of entries would not bound memory, as one file can
 * be 1 MiB.
 */
export class LinesCache {
  readonly #map = new Map<string, string[] | null>();
  #bytes = 0;
  constructor(readonly maxBytes: number) {}
  has(oid: string): boolean {
    return this.#map.has(oid);
  }
  get(oid: string): string[] | null | undefined {
    return this.#map.get(oid);
  }
  /** Remembers `lines` of a blob of `bytes` bytes (null: binary or too large). */
  set(oid: string, lines: string[] | null, bytes: number): void {
    if (this.#bytes + bytes > this.maxBytes) {
      this.#map.clear();
      this.#bytes = 0;
    }
    this.#map.set(oid, lines);
    this.#bytes += lines ? bytes : 0;
  }
}

/** Lines of a blob, or null when it is binary or larger than `maxBytes` (no line history for those). */
export async function blobLines(r: GitObjectReader, oid: string, maxBytes: number, cache: LinesCache): Promise<string[] | null> {
  if (cache.has(oid)) return cache.get(oid)!;
  const bytes = await r.readBlob(oid);
  const lines = bytes.length > maxBytes || isBinary(bytes) ? null : splitLines(bytes);
  cache.set(oid, lines, bytes.length);
  return lines;
}

/**
 * Pairs added paths with deleted ones: same blob first, then (when there are at most
 * MAX_RENAME_PAIRS pairs) the most similar text at RENAME_SIMILARITY or more. Returns new path -> old path.
 */
export async function pairRenames(
  r: GitObjectReader,
  added: { path: string; blob: string }[],
  deleted: { path: string; blob: string }[],
  maxBytes: number,
  cache: LinesCache,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const free = new Map(deleted.map((d) => [d.path, d.blob]));
  for (const a of added) {
    const same = [...free].find(([, blob]) => blob === a.blob);
    if (!same) continue;
    out.set(a.path, same[0]);
    free.delete(same[0]);
  }
  const rest = added.filter((a) => !out.has(a.path));
  if (rest.length === 0 || free.size === 0 || rest.length * free.size > MAX_RENAME_PAIRS) return out;
  const pairs: { to: string; from: string; score: number }[] = [];
  for (const a of rest) {
    const al = await blobLines(r, a.blob, maxBytes, cache);
    if (!al) continue;
    for (const [from, blob] of free) {
      const dl = await blobLines(r, blob, maxBytes, cache);
      if (dl) pairs.push({ to: a.path, from, score: lineSimilarity(dl, al) });
    }
  }
  for (const p of pairs.sort((x, y) => y.score - x.score)) {
    if (p.score < RENAME_SIMILARITY) break;
    if (out.has(p.to) || !free.has(p.from)) continue;
    out.set(p.to, p.from);
    free.delete(p.from);
  }
  return out;
}
