/**
 * @module worker/search/stack-trace
 *
 * Stack traces in a pasted bug report, and the prior they give the ranking. When a report
 * carries a trace, the fix is most often in a file of the trace and most often near its
 * innermost frame (Schröter, Bettenburg and Premraj, "Do stack traces help developers fix
 * bugs?", MSR 2010: about 60% of the fixed bugs with a trace were fixed in a method of the
 * trace, most often in its top frames). The innermost frame that names a file of the repo
 * (frames of the standard library and of other packages name none) is where the report's
 * failure surfaced, so that file's chunks get a prior. When no channel nominated that file,
 * the chunk holding the frame's line is looked up (`frameChunks`, in the channels' D1 round
 * trip) and joins the fused head, so the prior can lift it.
 *
 * Frames come from worker/search/stack-frames (formats listed there). Which repo file a frame
 * names depends on the repo only for `node_modules/<name>/`: in a repo that publishes `<name>`
 * (its RepoPackage rows) the frame names its own file; that matching is worker/search/frame-paths.ts.
 */
import { containerName } from "./channels/symbol";
import { SNAPSHOT_JOIN } from "./snapshot-sql";
import { filterSql, likeEscape } from "./filters";
import { applyPrior } from "./prior";
import { OUTER_FRAME_PRIOR, TRACE_PRIOR } from "./ranking/weights";
import type { SearchFilters } from "./types";
import type { Callee, StackFrame } from "./stack-frames";
import { frameReader, innermostPick, matchFramePath, namesNoFile, packagesIn, type RepoPackages } from "./frame-paths";

export { frameMatch, isThrowHelper, type RepoPackages } from "./frame-paths";

/** Most frames (distinct path and line, innermost first) whose chunks `frameChunks` looks up. */
export const MAX_LOOKUP_FRAMES = 16;

/**
 * Multiplies by TRACE_PRIOR the scores of the candidates in the file of the innermost frame
 * that names one of the candidates' files (the best-matching one, frameMatch with the
 * candidate's repo's `packages`; a throw helper's frame only when no outer frame names one,
 * innermostPick), and once more the score of the `anchor` chunk (traceAnchor: the one holding
 * that frame's line, where the failure surfaced), then re-sorts best first (ties: input order).
 * The file is its path in every repo where the frame names it as well. The candidates in the
 * files of `outer` (outerFrameChunks: the other frames' chunks) but not in that file are
 * multiplied by OUTER_FRAME_PRIOR. No frame naming a candidate's file: the candidates are
 * returned as they are. Returns a new array.
 */
export function applyTracePrior<T extends { score: number; path: string; repo?: string; chunkId?: string }>(
  candidates: T[],
  frames: StackFrame[],
  anchor?: string,
  packages?: RepoPackages,
  outer: FrameChunk[] = [],
): T[] {
  if (!frames.length) return candidates;
  const files = new Map(candidates.map((c) => [`${c.repo ?? ""}\0${c.path}`, { repo: c.repo, path: c.path }]));
  const picked = innermostPick(frames, (f) => {
    const frameIn = frameReader(f.path, packagesIn(packages));
    const matches = new Map<string, number>();
    let [best, file] = [0, null as string | null];
    for (const [key, c] of files) {
      const n = matchFramePath(frameIn(c.repo), c.path);
      matches.set(key, n);
      if (n > best) [best, file] = [n, c.path];
    }
    return file === null ? null : { file, best, matches };
  });
  if (!picked) return candidates;
  const named = (c: T) => c.path === picked.file && picked.matches.get(`${c.repo ?? ""}\0${c.path}`) === picked.best;
  const callers = new Set(outer.map((o) => `${o.repo}\0${o.path}`));
  const prior = (c: T) => (named(c) ? TRACE_PRIOR : callers.has(`${c.repo ?? ""}\0${c.path}`) ? OUTER_FRAME_PRIOR : 1);
  return applyPrior(candidates, (c) => prior(c) * (anchor !== undefined && c.chunkId === anchor ? TRACE_PRIOR : 1));
}

/** A chunk of a snapshot that holds the line of a stack frame (`frameChunks`). */
export interface FrameChunk {
  repo: string;
  id: string;
  path: string;
  startLine: number;
  endLine: number;
}

/**
 * The chunks of `repo`'s snapshot `commit` that hold the line of one of the innermost
 * MAX_LOOKUP_FRAMES frames, in files whose name is the frame file's name (frameMatch then
 * decides whether the frame names them). Frames of a standard library (Python's, Go's, Rust's)
 * and pseudo-paths (`<frozen importlib._bootstrap>`) are skipped, so they use up no lookup.
 * One D1 statement; files the filters exclude are not read. Empty when there are no frames.
 */
export async function frameChunks(db: D1Database, repo: string, commit: string, frames: StackFrame[], filters: SearchFilters): Promise<FrameChunk[]> {
  const seen = new Set<string>();
  const lookups: { pattern: string; line: number }[] = [];
  for (const f of frames) {
    if (lookups.length >= MAX_LOOKUP_FRAMES) break;
    const name = f.path.split("/").pop()!;
    const key = `${f.path}:${f.line}`;
    if (!name || seen.has(key) || namesNoFile(f.path)) continue;
    seen.add(key);
    lookups.push({ pattern: `%/${likeEscape(name)}`, line: f.line });
  }
  if (!lookups.length) return [];
  const f = filterSql(filters);
  // The snapshot's files named by a frame are found first (its file list, a few hundred rows,
  // instead of every chunk of the repo with each frame's LIKE), then their chunks by the
  // (repo, file_id) index: a third of this statement's time, rows in the same (file_id) order.
  const named = lookups.map(() => "('/' || path) LIKE ? ESCAPE '\\'").join(" OR ");
  const { results } = await db
    .prepare(
      `SELECT c.id AS id, c.path AS path, c.start_line AS startLine, c.end_line AS endLine FROM chunks c ${SNAPSHOT_JOIN} ` +
        `WHERE c.repo = ? AND c.file_id IN (SELECT file_id FROM snapshot_files WHERE repo = ? AND commit_sha = ? AND (${named})) ` +
        `AND (${lookups.map(() => "(('/' || c.path) LIKE ? ESCAPE '\\' AND c.start_line <= ? AND c.end_line >= ?)").join(" OR ")})${f.sql}`,
    )
    .bind(commit, repo, repo, commit, ...lookups.map((l) => l.pattern), ...lookups.flatMap((l) => [l.pattern, l.line, l.line]), ...f.params)
    .all<Omit<FrameChunk, "repo">>();
  return results.map((r) => ({ ...r, repo }));
}

/**
 * The chunk among `chunks` (frameChunks of every searched repo) holding the line of frame `f`
 * in a file the frame names: the best frameMatch (with the chunk's repo's packages), then the
 * smallest chunk, a method before its class. Null when the frame names none of their files.
 */
function chunkOfFrame(f: StackFrame, chunks: FrameChunk[], packages?: RepoPackages): FrameChunk | null {
  const frameIn = frameReader(f.path, packagesIn(packages));
  let best: FrameChunk | null = null;
  let bestMatch = 0;
  for (const c of chunks) {
    if (c.startLine > f.line || c.endLine < f.line) continue;
    const n = matchFramePath(frameIn(c.repo), c.path);
    if (n > bestMatch || (n > 0 && n === bestMatch && c.endLine - c.startLine < best!.endLine - best!.startLine)) [best, bestMatch] = [c, n];
  }
  return best;
}

/**
 * The chunk where the trace surfaced: among `chunks` (frameChunks of every searched repo), the
 * one holding the line of the innermost frame that names its file (chunkOfFrame; past throw
 * helpers, innermostPick). Null when no frame names a looked-up file.
 */
export function traceAnchor(frames: StackFrame[], chunks: FrameChunk[], packages?: RepoPackages): FrameChunk | null {
  return innermostPick(frames, (f) => chunkOfFrame(f, chunks, packages));
}

/**
 * The chunks holding the lines of the trace's other frames (chunkOfFrame of each, innermost
 * first, each chunk once), outside the file of `anchor` (traceAnchor): the callers of the code
 * where the failure surfaced, and a throw helper's own frame. Empty without an anchor.
 */
export function outerFrameChunks(frames: StackFrame[], chunks: FrameChunk[], anchor: FrameChunk | null, packages?: RepoPackages): FrameChunk[] {
  if (!anchor) return [];
  const out: FrameChunk[] = [];
  for (const f of frames) {
    const c = chunkOfFrame(f, chunks, packages);
    if (c && !(c.repo === anchor.repo && c.path === anchor.path) && !out.some((o) => o.id === c.id)) out.push(c);
  }
  return out;
}

/** A candidate chunk as calleeChunk reads it. */
export interface DefinitionChunk extends FrameChunk {
  symbol: string | null;
  container: string | null;
  kind: string;
}

/**
 * The chunk among `candidates` (the fused head) that defines `callee` (signatureCallee): its
 * method `name` in a class named `container` (containerName, case-insensitive), else that class's
 * own chunk (a small class's chunk holds its methods; an inherited `__init__` is fixed by giving
 * the class its own); without a container, a definition named `name`. Defined in several files,
 * the one of `anchor` (where the trace surfaced: the call was made beside it) or none. Null when
 * no candidate defines it: the channels nominate the callee's definition by its name, which the
 * message writes as code, so no lookup of its own is made.
 */
export function calleeChunk(callee: Callee, candidates: readonly DefinitionChunk[], anchor: FrameChunk | null): DefinitionChunk | null {
  const owner = callee.container?.toLowerCase();
  const methods = candidates.filter((c) => c.symbol === callee.name && (owner === undefined || containerName(c.container) === owner));
  const classes = owner === undefined ? [] : candidates.filter((c) => c.kind === "class" && c.symbol?.toLowerCase() === owner);
  const found = methods.length ? methods : classes;
  const files = new Set(found.map((c) => `${c.repo}\0${c.path}`));
  if (files.size === 1) return found[0];
  return (anchor && found.find((c) => c.repo === anchor.repo && c.path === anchor.path)) ?? null;
}

/** A trace with the frame of a callee its frames lack (withCallee). */
export interface CalledTrace {
  frames: StackFrame[];
  anchor: FrameChunk;
  outer: FrameChunk[];
}

/**
 * The trace as it would read had the callee's frame been printed: `callee` (calleeChunk) is the
 * innermost frame and the anchor, and the frame where the trace surfaced (`anchor`, the caller)
 * becomes an outer frame ahead of `outer`, so applyTracePrior lifts the callee's file by
 * TRACE_PRIOR and the caller's by OUTER_FRAME_PRIOR. The frame's symbol is the callee as the
 * message writes it (`RST.__init__`).
 */
export function withCallee(frames: StackFrame[], anchor: FrameChunk | null, outer: FrameChunk[], callee: Callee, chunk: FrameChunk): CalledTrace {
  const sameFile = (c: FrameChunk) => c.repo === chunk.repo && c.path === chunk.path;
  const symbol = callee.container ? `${callee.container}.${callee.name}` : callee.name;
  return {
    frames: [{ path: chunk.path, line: chunk.startLine, symbol }, ...frames],
    anchor: chunk,
    // `outer` (outerFrameChunks) never holds the anchor: it is outside the anchor's file.
    outer: [...(anchor && !sameFile(anchor) ? [anchor] : []), ...outer.filter((o) => !sameFile(o))],
  };
}
