/**
 * @module worker/search/fuse
 *
 * Reciprocal Rank Fusion (Cormack, Clarke and Buettcher, "Reciprocal Rank Fusion outperforms
 * Condorcet and individual Rank Learning Methods", SIGIR 2009): score(d) = sum over channels of
 * 1 / (k + rank(d)), rank 1-based, k = 60 as in the paper. Plus the per-file cap. Pure.
 */
import type { ChannelName, ChannelResult } from "./types";

/** RRF constant from the paper. */
export const RRF_K = 60;

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
export function reciprocalRankFusion(
  channels: ChannelResult[],
  k = RRF_K,
  weights: Partial<Record<ChannelName, number>> = {},
): FusedHit[] {
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
  const nRanks = (f: FusedHit) => Object.keys(f.ranks).length;
  const best = (f: FusedHit) => Math.min(...Object.values(f.ranks));
  return [...byId.values()].sort(
    (a, b) => b.score - a.score || nRanks(b) - nRanks(a) || best(a) - best(b) || (a.chunkId < b.chunkId ? -1 : 1),
  );
}

/**
 * Keeps at most `cap` items per file, in order; `fileOf` names an item's file (e.g. repo+path).
 * A cap of 0 or less disables it.
 */
export function capPerFile<T>(items: T[], cap: number, fileOf: (item: T) => string): T[] {
  if (cap <= 0) return items;
  const counts = new Map<string, number>();
  const out: T[] = [];
  for (const item of items) {
    const f = fileOf(item);
    const n = counts.get(f) ?? 0;
    if (n >= cap) continue;
    counts.set(f, n + 1);
    out.push(item);
  }
  return out;
}
