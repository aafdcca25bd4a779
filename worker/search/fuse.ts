/**
 * @module worker/search/fuse
 *
 * Reciprocal Rank Fusion (Cormack, Clarke and Buettcher, "Reciprocal Rank Fusion outperforms
 * Condorcet and individual Rank Learning Methods", SIGIR 2009): score(d) = sum over channels of
 * 1 / (k + rank(d)), rank 1-based, k = 60 as in the paper. Plus the merge of one channel's
 * lists from several repos into one list (so fusion ranks the union of candidates) and the
 * per-file cap. Pure.
 */
import { RRF_K } from "./ranking/weights";
import type { ChannelName, ChannelResult } from "./types";

/** A fused candidate: chunk id, RRF score and its 1-based rank in each channel that found it. */
export interface FusedHit {
  chunkId: string;
  score: number;
  ranks: Partial<Record<ChannelName, number>>;
}

/**
 * Fuses channel lists by RRF. Ties are broken by the number of channels that found the chunk,
 * then by the best single rank, then by id (deterministic). `weights` scale a channel's
 * contribution (default 1 each).
 */
export function reciprocalRankFusion(channels: ChannelResult[], k = RRF_K, weights: Partial<Record<ChannelName, number>> = {}): FusedHit[] {
  const byId = new Map<string, FusedHit>();
  for (const ch of channels) {
    const w = weights[ch.channel] ?? 1;
    const seen = new Set<string>();
    let rank = 0;
    for (const hit of ch.hits) {
      if (seen.has(hit.chunkId)) continue;
      seen.add(hit.chunkId);
      rank++;
      const f = byId.get(hit.chunkId) ?? { chunkId: hit.chunkId, score: 0, ranks: {} };
      f.score += w / (k + rank);
      f.ranks[ch.channel] = rank;
      byId.set(hit.chunkId, f);
    }
  }
  // The tie-breakers are computed once per hit, not in every comparison.
  const keyed = [...byId.values()].map((f) => {
    const ranks = Object.values(f.ranks);
    return { f, n: ranks.length, best: Math.min(...ranks) };
  });
  keyed.sort((a, b) => b.f.score - a.f.score || b.n - a.n || a.best - b.best || (a.f.chunkId < b.f.chunkId ? -1 : 1));
  return keyed.map(({ f }) => f);
}

/**
 * Merges one channel's hit lists from several repos into one list over their union, as if the
 * channel had run once over all of them: best channel score first, cut to `depth`. Used before
 * RRF so that a repo's first hit ranks first only when its score beats the other repos' hits
 * (fusing per-repo ranks would make every repo's best hit tie for first place).
 *
 * Channel scores are comparable across repos: BM25 comes from one FTS5 table whose statistics
 * span every repo, vector scores are cosines of one embedding model (repos built by another model
 * are skipped), symbol scores are match tiers and path scores are file-naming weights. Equal
 * scores interleave by their rank within their own list, then by list order. Each list must be
 * best first; it keeps its own order. A single list is returned unchanged.
 */
export function mergeChannelLists(lists: ChannelResult[], depth: number): ChannelResult {
  if (!lists.length) throw new TypeError("mergeChannelLists needs at least one list");
  if (lists.length === 1) return lists[0];
  const pos = lists.map(() => 0);
  const hits: ChannelResult["hits"] = [];
  const seen = new Set<string>();
  while (hits.length < depth) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      if (pos[i] >= lists[i].hits.length) continue;
      if (best < 0) {
        best = i;
        continue;
      }
      const a = lists[i].hits[pos[i]];
      const b = lists[best].hits[pos[best]];
      // Higher score first; equal scores: the one further up its own list; then list order.
      if (a.score > b.score || (a.score === b.score && pos[i] < pos[best])) best = i;
    }
    if (best < 0) break;
    const hit = lists[best].hits[pos[best]++];
    if (seen.has(hit.chunkId)) continue;
    seen.add(hit.chunkId);
    hits.push(hit);
  }
  const skipped = lists.every((l) => l.skipped) ? lists[0].skipped : undefined;
  return skipped ? { channel: lists[0].channel, hits, skipped } : { channel: lists[0].channel, hits };
}

/**
 * Puts at most `cap` items per file first, in order, and the other items after them, in order:
 * a file's surplus only fills a page that the other files cannot (when few files match, a
 * query still gets k results). `fileOf` names an item's file (e.g. repo+path); `exempt` items
 * stay in place and do not count towards their file's cap. A cap of 0 or less leaves the order
 * as it is.
 */
export function capPerFile<T>(items: T[], cap: number, fileOf: (item: T) => string, exempt: (item: T) => boolean = () => false): T[] {
  if (cap <= 0) return items;
  const counts = new Map<string, number>();
  const kept: T[] = [];
  const surplus: T[] = [];
  for (const item of items) {
    // An exempt item neither needs nor takes one of its file's places: a class split into
    // many chunks named as the query names it must not crowd out the method it asks about.
    if (exempt(item)) {
      kept.push(item);
      continue;
    }
    const f = fileOf(item);
    const n = counts.get(f) ?? 0;
    counts.set(f, n + 1);
    (n < cap ? kept : surplus).push(item);
  }
  return [...kept, ...surplus];
}
