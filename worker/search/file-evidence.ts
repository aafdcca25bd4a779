/**
 * @module worker/search/file-evidence
 *
 * File-level evidence for bug reports. A report is answered by the file to change, and that file
 * usually matches the report in several places (the function that fails, its helpers, the class
 * around it), while a file matching it once matched one sentence. Each chunk's score gets a bonus
 * from the next best chunks of its own file in the reranked head: a decayed sum of ranked scores,
 * in the manner of CombSUM evidence aggregation (Fox and Shaw, "Combination of Multiple
 * Searches", TREC-2, 1994) with geometric decay so a long file with many weak matches cannot
 * outweigh one strong match. Every chunk of a file gets the same bonus, so the order within a
 * file is kept. Pure.
 */

import { FILE_EVIDENCE } from "./ranking/weights";

/**
 * Adds to every candidate's `score` the decayed scores of the best `FILE_EVIDENCE.siblings`
 * other candidates of its file (`fileOf` names a candidate's file), then sorts best first
 * (ties: input order). Scores must be non-negative. Returns a new array.
 */
export function addFileEvidence<T extends { score: number }>(candidates: T[], fileOf: (c: T) => string): T[] {
  const byFile = new Map<string, number[]>();
  for (const c of candidates) {
    const list = byFile.get(fileOf(c)) ?? [];
    list.push(c.score);
    byFile.set(fileOf(c), list);
  }
  const bonus = new Map<string, number>();
  for (const [file, scores] of byFile) {
    scores.sort((a, b) => b - a);
    let b = 0;
    let w = 1;
    for (let i = 1; i <= FILE_EVIDENCE.siblings && i < scores.length; i++) {
      w *= FILE_EVIDENCE.decay;
      b += w * scores[i];
    }
    bonus.set(file, b);
  }
  return candidates
    .map((c, i) => ({ c: { ...c, score: c.score + bonus.get(fileOf(c))! }, i }))
    .sort((a, b) => b.c.score - a.c.score || a.i - b.i)
    .map(({ c }) => c);
}
