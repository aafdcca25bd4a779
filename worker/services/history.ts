/**
 * @module worker/services/history
 *
 * File and line-range history (`fileHistory`) and blame (`blame`) of a repo's snapshot at a
 * ref (default: the default ref; any tracked ref or its commit), walked over the stored commits
 * from that ref's commit (worker/history/walk.ts). REST routes and MCP tools are thin adapters
 * over these functions and the schemas in history-schema.ts. The file must be in that
 * snapshot's index: its line count bounds the range.
 */
import { CodeSearchError } from "../../kernel/errors";
import { parseOrThrow } from "../../kernel/validation";
import { commitsBySha, type CommitRecord } from "../../indexer/store/d1/history";
import { blameLines, rangeHistory, WHOLE_FILE_END } from "../history/walk";
import type { ServiceContext } from "./context";
import { loadFile } from "./files";
import {
  BLAME_MAX_LINES,
  blameInput,
  END_NEEDS_START,
  fileHistoryInput,
  type BlameInput,
  type BlameOutput,
  type FileHistoryInput,
  type FileHistoryOutput,
} from "./history-schema";
import { budgetError, repoHistory, walkSourceOf } from "./history-source";

/** The summary fields of a stored commit. */
export function summaryOf(c: CommitRecord | undefined, sha: string) {
  return {
    sha,
    author: { name: c?.authorName ?? "", email: c?.authorEmail ?? "" },
    date: c ? new Date(c.authorTime * 1000).toISOString() : "",
    subject: c?.subject ?? "",
  };
}

/** Checks a 1-based inclusive range against the file's line count. */
function checkRange(start: number, end: number, lines: number, path: string): void {
  if (end < start) throw new CodeSearchError("invalid_input", `end (${end}) is before start (${start}).`);
  if (end > lines) throw new CodeSearchError("invalid_input", `${path} has ${lines} lines at the ref's snapshot; end (${end}) is past it.`);
}

/**
 * The commits that changed `path` (or lines `start..end` of it), newest first, one page.
 * Throws `history_unavailable` (archive or shallow source), `file_not_found`, `invalid_input`
 * (range), `payload_too_large` (time budget).
 */
export async function fileHistory(ctx: ServiceContext, raw: FileHistoryInput): Promise<FileHistoryOutput> {
  const input = parseOrThrow(fileHistoryInput, raw, {}, "file_history");
  if (input.end !== undefined && input.start === undefined) throw new CodeSearchError("invalid_input", END_NEEDS_START);
  const h = await repoHistory(ctx, input.repo, input.ref);
  const file = await loadFile(ctx, h.snapshot, input.path, "rest");
  const range = input.start === undefined ? null : { start: input.start, end: input.end ?? input.start };
  if (range) checkRange(range.start, range.end, file.line_count, input.path);
  const offset = Number(input.cursor ?? 0);
  let walked;
  try {
    walked = await rangeHistory(
      walkSourceOf(ctx, h),
      h.commit,
      input.path,
      range ? range.start - 1 : 0,
      range ? range.end : WHOLE_FILE_END,
      offset + input.limit + 1,
    );
  } catch (err) {
    budgetError(err, `History of ${input.path}`);
  }
  const page = walked.steps.slice(offset, offset + input.limit);
  const meta = await commitsBySha(
    ctx.env.DB,
    h.repo,
    page.map((s) => s.sha),
  );
  const shown = (r: { path: string; start: number; end: number } | null) => (r && range ? { path: r.path, start: r.start + 1, end: r.end } : null);
  return {
    repo: h.repo,
    path: input.path,
    ref: h.ref,
    commit: h.commit,
    range,
    commits: page.map((s) => ({ ...summaryOf(meta.get(s.sha), s.sha), path: s.after.path, after: shown(s.after), before: shown(s.before) })),
    next_cursor: walked.steps.length > offset + input.limit ? String(offset + input.limit) : null,
    truncated: walked.steps.length <= offset + input.limit && walked.truncated,
    depth: h.depth,
    history_limit: h.limit,
  };
}

/**
 * For each line of `start..end` (default the whole file, at most BLAME_MAX_LINES), the commit
 * that last changed it, as ranges of consecutive lines. Errors as `fileHistory`.
 */
export async function blame(ctx: ServiceContext, raw: BlameInput): Promise<BlameOutput> {
  const input = parseOrThrow(blameInput, raw, {}, "blame");
  const h = await repoHistory(ctx, input.repo, input.ref);
  const file = await loadFile(ctx, h.snapshot, input.path, "rest");
  const start = input.start ?? 1;
  const end = input.end ?? (input.start !== undefined ? input.start : file.line_count);
  checkRange(start, end, file.line_count, input.path);
  if (end - start + 1 > BLAME_MAX_LINES) {
    throw new CodeSearchError(
      "invalid_input",
      `Blame covers at most ${BLAME_MAX_LINES} lines per call; ${input.path} lines ${start}-${end} are ${end - start + 1}. Pass start and end.`,
    );
  }
  let lines;
  try {
    lines = await blameLines(walkSourceOf(ctx, h), h.commit, input.path, start - 1, end);
  } catch (err) {
    budgetError(err, `Blame of ${input.path} lines ${start}-${end}`);
  }
  const meta = await commitsBySha(ctx.env.DB, h.repo, [...new Set(lines.map((l) => l.sha))]);
  const ranges: BlameOutput["ranges"] = [];
  lines.forEach((l, i) => {
    const last = ranges[ranges.length - 1];
    const n = start + i;
    if (last && last.sha === l.sha && last.boundary === l.boundary && last.origin.path === l.path && last.origin.end === l.line) {
      last.end = n;
      last.origin.end = l.line + 1;
      return;
    }
    ranges.push({ ...summaryOf(meta.get(l.sha), l.sha), start: n, end: n, origin: { path: l.path, start: l.line + 1, end: l.line + 1 }, boundary: l.boundary });
  });
  return { repo: h.repo, path: input.path, ref: h.ref, commit: h.commit, start, end, ranges, depth: h.depth, history_limit: h.limit };
}
