/**
 * @module worker/search/engine/head
 *
 * The head the stages rerank: the fused candidates that fill k after the per-file cap in the
 * usual case, plus the chunks the evidence names (anchors), which rank in it at least as if one
 * channel had ranked them first, so the stages can lift their files even when no channel
 * nominated them; each with its chunk row. Then a `TypeError`'s callee, found among them, is
 * read as the trace's innermost frame.
 */
import type { FusedHit } from "../fuse";
import type { QueryPlan } from "../plan";
import type { Candidate } from "../ranking";
import { ANCHOR_SCORE, HEAD_PER_RESULT, MIN_HEAD } from "../ranking/weights";
import type { StackFrame } from "../stack-frames";
import { calleeChunk, withCallee, type DefinitionChunk, type FrameChunk } from "../stack-trace";
import type { ChunkRow } from "../types";
import type { Evidence } from "./evidence";
import { loadChunksAcross, type ShardedDeps } from "../shard-targets";

/** A candidate as a definition the callee of a report's TypeError may be (calleeChunk). */
const definitionOf = (h: { chunkId: string; row: ChunkRow }): DefinitionChunk => ({
  repo: h.row.repo,
  id: h.chunkId,
  path: h.row.path,
  startLine: h.row.startLine,
  endLine: h.row.endLine,
  symbol: h.row.symbol,
  container: h.row.container,
  kind: h.row.kind,
});

/** The head with rows, and the ids of the chunks the query names (anchors, and the callee when found). */
export interface Head {
  /** Each with its fused (RRF) score before the stages, for `explain`. */
  candidates: (Candidate & { fused: number })[];
  named: Set<string>;
  /** The trace as the stages read it: its frames, anchor and outer frames, with the callee when found. */
  trace: { frames: StackFrame[]; anchor: FrameChunk | null; outer: FrameChunk[] };
}

/** Cuts the head of `fused` for `sizedFor` results, adds the evidence's anchors and loads their rows. */
export async function loadHead(
  deps: ShardedDeps,
  targets: readonly { shard?: number }[],
  fused: FusedHit[],
  sizedFor: number,
  evidence: Evidence,
  plan: QueryPlan,
): Promise<Head> {
  // Enough candidates to fill k after the per-file cap in the usual case.
  const head = fused.slice(0, Math.max(sizedFor * HEAD_PER_RESULT, MIN_HEAD));
  const { anchors, anchor, outerFrames } = evidence;
  const rows = await loadChunksAcross(deps, targets, [...head.map((h) => h.chunkId), ...anchors]);
  const named = new Set(anchors);
  for (const id of anchors) {
    const i = head.findIndex((h) => h.chunkId === id);
    if (i >= 0) head[i] = { ...head[i], score: Math.max(head[i].score, ANCHOR_SCORE) };
    else if (rows.has(id)) head.push({ chunkId: id, score: ANCHOR_SCORE, ranks: {} });
  }
  const candidates = head.flatMap((h) => {
    const row = rows.get(h.chunkId);
    return row
      ? [
          {
            ...h,
            fused: h.score,
            row,
            repo: row.repo,
            path: row.path,
            kind: row.kind,
            symbol: row.symbol,
            container: row.container,
            content: row.content,
            language: row.language,
          },
        ]
      : [];
  });
  // A call whose arguments did not bind has no frame of its callee, which the TypeError names:
  // the trace is read as if it had one (stack-trace.ts, withCallee).
  const { frames, callee: asked } = plan.evidence;
  const callee = asked ? calleeChunk(asked, candidates.map(definitionOf), anchor) : null;
  const trace = callee ? withCallee(frames, anchor, outerFrames, asked!, callee) : { frames, anchor, outer: outerFrames };
  if (callee) named.add(callee.id);
  return { candidates, named, trace };
}
