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
 * Frames come from worker/search/stack-frames (formats listed there).
 */
import { commonTailSegments } from "./channels/path";
import { SNAPSHOT_JOIN } from "./channels/scope";
import { filterSql, likeEscape } from "./filters";
import { applyPrior } from "./prior";
import type { SearchFilters } from "./types";
import type { StackFrame } from "./stack-frames";

/** Most frames (distinct path and line, innermost first) whose chunks `frameChunks` looks up. */
export const MAX_LOOKUP_FRAMES = 16;

/**
 * Multiplier of the scores of the chunks of the file named by the innermost frame that is in
 * the repo. On a 55-instance SWE-bench Lite dev sample (README "Retrieval", round 8), 1 / 1.5 /
 * 2 / 3 gave Acc@1 47.3 / 49.1 / 54.5 / 54.5 and Acc@5 78.2 / 80.0 / 80.0 / 80.0.
 */
export const TRACE_PRIOR = 2;


/** Directories under which installed packages live: what follows starts with the package's own name. */
const PACKAGE_ROOT_RE = /^(?:.*\/)?(?:site-packages|dist-packages|node_modules)\/(.+)$/;
/** A Python standard-library directory (`/usr/lib/python3.11/`, `lib/python3.9/`), with no package root below it. */
const STDLIB_RE = /(?:^|\/)lib\/python\d+(?:\.\d+)?\//;
/** A name a runtime gives code that has no file: `<frozen importlib._bootstrap>`, `<string>`, Ruby's `(eval)`, Node's `[eval]`. */
const PSEUDO_PATH_RE = /^[<([]/;
/** Whether a frame's path can name no repo file: a pseudo-path, or the Python standard library (not under a package root). */
const namesNoFile = (framePath: string) => PSEUDO_PATH_RE.test(framePath) || (!PACKAGE_ROOT_RE.test(framePath) && STDLIB_RE.test(framePath));

/**
 * How well a frame's `framePath` names the repo file `path`: the number of trailing path
 * segments they share (more is a better match; equal paths match fully), or 0 when it does not
 * name it. A frame under an installed-package directory (`site-packages/`, `node_modules/`)
 * names a repo file only if everything from the package name on is the file's path or its tail
 * (`site-packages/_pytest/config/__init__.py` names `src/_pytest/config/__init__.py`, while
 * `site-packages/myplugin/config/__init__.py` names nothing); a frame of the Python standard
 * library and a pseudo-path (`<frozen importlib._bootstrap>`, `<string>`) name nothing; any other path needs at least its last two segments to agree
 * (`/Users/a/sympy/sympy/core/numbers.py` names `sympy/core/numbers.py`; a bare `mod.py` names
 * only a top-level `mod.py`). Case-sensitive, as paths are.
 */
export function frameMatch(framePath: string, path: string): number {
  const p = path.split("/");
  if (framePath === path) return p.length;
  if (namesNoFile(framePath)) return 0;
  const pkg = PACKAGE_ROOT_RE.exec(framePath);
  const f = (pkg ? pkg[1] : framePath).split("/");
  if (f[f.length - 1] !== p[p.length - 1]) return 0;
  const n = commonTailSegments(f, p);
  if (pkg) return n === f.length ? n : 0;
  return n >= 2 || (n === p.length && p.length === 1) ? n : 0;
}

/**
 * Multiplies by TRACE_PRIOR the scores of the candidates in the file of the innermost frame
 * that names one of the candidates' files (the best-matching one, frameMatch), and once more
 * the score of the `anchor` chunk (traceAnchor: the one holding the innermost frame's line,
 * where the failure surfaced), then re-sorts best first (ties: input order). No frame naming a
 * candidate's file: the candidates are returned as they are. Returns a new array.
 */
export function applyTracePrior<T extends { score: number; path: string; chunkId?: string }>(candidates: T[], frames: StackFrame[], anchor?: string): T[] {
  if (!frames.length) return candidates;
  const paths = [...new Set(candidates.map((c) => c.path))];
  let file: string | undefined;
  for (const f of frames) {
    let best = 0;
    for (const p of paths) {
      const n = frameMatch(f.path, p);
      if (n > best) [best, file] = [n, p];
    }
    if (file) break;
  }
  if (!file) return candidates;
  return applyPrior(candidates, (c) => (c.path === file ? TRACE_PRIOR : 1) * (anchor !== undefined && c.chunkId === anchor ? TRACE_PRIOR : 1));
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
 * decides whether the frame names them). Frames of the Python standard library and pseudo-paths
 * (`<frozen importlib._bootstrap>`) are skipped, so they use up no lookup.
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
  const { results } = await db
    .prepare(
      `SELECT c.id AS id, c.path AS path, c.start_line AS startLine, c.end_line AS endLine FROM chunks c ${SNAPSHOT_JOIN} ` +
        `WHERE c.repo = ? AND (${lookups.map(() => "(('/' || c.path) LIKE ? ESCAPE '\\' AND c.start_line <= ? AND c.end_line >= ?)").join(" OR ")})${f.sql}`,
    )
    .bind(commit, repo, ...lookups.flatMap((l) => [l.pattern, l.line, l.line]), ...f.params)
    .all<Omit<FrameChunk, "repo">>();
  return results.map((r) => ({ ...r, repo }));
}

/**
 * The chunk where the trace surfaced: among `chunks` (frameChunks of every searched repo), the
 * one holding the line of the innermost frame that names its file (best frameMatch; then the
 * smallest chunk, a method before its class). Null when no frame names a looked-up file.
 */
export function traceAnchor(frames: StackFrame[], chunks: FrameChunk[]): FrameChunk | null {
  for (const f of frames) {
    let best: FrameChunk | null = null;
    let bestMatch = 0;
    for (const c of chunks) {
      if (c.startLine > f.line || c.endLine < f.line) continue;
      const n = frameMatch(f.path, c.path);
      if (n > bestMatch || (n > 0 && n === bestMatch && c.endLine - c.startLine < best!.endLine - best!.startLine)) [best, bestMatch] = [c, n];
    }
    if (best) return best;
  }
  return null;
}
