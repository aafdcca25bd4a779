/**
 * @module worker/search/grep/run
 *
 * One grep over the active snapshots of some repos: candidates from the trigram index (or every
 * file when the pattern has no usable literal), verified file by file with the compiled
 * pattern, in (repo, path, line) order; a page of matching lines from `offset` (or a cursor),
 * and a count. Work is bounded by bytes of file text verified: GREP_SCAN_MAX_BYTES in all, and
 * GREP_COUNT_AHEAD_BYTES once the page is full (counting further only refines the total), and
 * by wall-clock time: past `deadline` the grep stops after the file it is verifying and answers
 * with what it has and a cursor at the next file. Stopping early is reported (`truncated`,
 * `total_exact: false`), never silent.
 */
import { isTestPath } from "../filters";
import { compileGlob, isGlob } from "../path-glob";
import { candidateFiles, enclosingSymbols, fileTexts, GREP_CANDIDATES_MAX, GREP_IDS_PER_QUERY, type CandidateFile, type EnclosingSymbol } from "./candidates";
import type { CompiledPattern, Range } from "./matcher";
import { textFilter } from "./text-filter";
import { trigramMatch } from "./trigram-query";

/** Most bytes of file text verified by one grep (about 0.3 s of regex work on one core, measured in `npm run bench`). */
export const GREP_SCAN_MAX_BYTES = 32 * 1024 * 1024;
/**
 * Most bytes verified after the page is full, to count matches beyond it; the total is a lower
 * bound past this. Counting further only refines the total, so it may cost at most what finding
 * the page cost (bytes verified until it was full, at least GREP_COUNT_AHEAD_MIN_BYTES): reading
 * texts from D1 dominates a grep (`npm run bench:grep`), and a dense pattern whose page fills in
 * the first files then answers in about the time of those files, not of 512 KiB more.
 */
export const GREP_COUNT_AHEAD_BYTES = 512 * 1024;
/** Least count-ahead allowance, bytes (a page found in a few small files still counts on a little). */
export const GREP_COUNT_AHEAD_MIN_BYTES = 64 * 1024;
/** Most bytes of text read from D1 in one statement. */
const TEXT_BATCH_BYTES = 2 * 1024 * 1024;
/**
 * Bytes of text the first statement reads; each next one doubles, up to TEXT_BATCH_BYTES. A page
 * of 50 lines is often full within a few files, so reading 2 MiB first would mostly be wasted;
 * a long scan still reaches full-size batches after four round trips.
 */
const TEXT_FIRST_BATCH_BYTES = 128 * 1024;
/** Longest line text returned, in characters; longer lines are cut around the first match. */
export const GREP_LINE_MAX_CHARS = 300;
/** Characters kept before the first match when a line is cut. */
const LINE_CONTEXT_BEFORE_CHARS = 80;

/** Where a grep resumes: after `n` matches, at file `path` of `repo`, skipping its first `skip` matching lines. */
export interface GrepCursor {
  n: number;
  repo: string;
  path: string;
  skip: number;
}

/** What to grep. `path` is a prefix, or a glob (worker/search/path-glob.ts) when it holds `*`, `?`, `[` or `{`. */
export interface GrepRequest {
  pattern: CompiledPattern;
  caseSensitive: boolean;
  repos: { id: string; commit: string }[];
  path?: string;
  language?: string;
  includeTests: boolean;
  limit: number;
  offset: number;
  cursor?: GrepCursor;
  /** Wall-clock deadline (epoch ms, as `now`): no file is started after it, but the first always is, so every call makes progress. Default: none. */
  deadline?: number;
  /** The clock `deadline` is read on (default Date.now). */
  now?: () => number;
}

/** One matching line. `column` is 1-based (UTF-16 units) of the first match; `ranges` are within `text`. */
export interface GrepMatch {
  repo: string;
  path: string;
  line: number;
  column: number;
  text: string;
  ranges: Range[];
  symbol: EnclosingSymbol | null;
}

/** A grep's page, count and how much work it did. */
export interface GrepResult {
  matches: GrepMatch[];
  totalCount: number;
  totalExact: boolean;
  hasMore: boolean;
  nextOffset: number | null;
  nextCursor: GrepCursor | null;
  /** "trigram": candidates came from the index; "scan": the pattern has no usable literal, every file was a candidate. */
  index: "trigram" | "scan";
  /** The pattern has no usable literal and the scan stopped at its byte budget (or the candidate cap) before every file was verified. */
  scanCapped: boolean;
  /** The page may lack matches: verification stopped at the byte or time budget before the page was full, or the candidate cap was hit. Continue with `nextCursor`. */
  truncated: boolean;
  candidateFiles: number;
  filesScanned: number;
  bytesScanned: number;
}

/** The line cut to GREP_LINE_MAX_CHARS around its first match, ranges shifted and clipped, `…` marking each cut. */
function excerpt(text: string, ranges: Range[]): { text: string; ranges: Range[] } {
  if (text.length <= GREP_LINE_MAX_CHARS) return { text, ranges };
  const from = Math.max(0, Math.min(ranges[0][0] - LINE_CONTEXT_BEFORE_CHARS, text.length - GREP_LINE_MAX_CHARS));
  const to = Math.min(text.length, from + GREP_LINE_MAX_CHARS);
  const lead = from > 0 ? "…" : "";
  const cut = `${lead}${text.slice(from, to)}${to < text.length ? "…" : ""}`;
  const shifted = ranges
    .filter(([s, e]) => (e > from && s < to) || (s === e && s >= from && s <= to))
    .map(([s, e]): Range => [Math.max(s, from) - from + lead.length, Math.min(e, to) - from + lead.length]);
  return { text: cut, ranges: shifted };
}

/**
 * Runs the grep. Reads D1 only (candidates, texts, symbols): `db`, or for each repo the database
 * `db(repo)` returns (its shard, indexer/store/shards.ts). Repos are read in (repo, path) order,
 * one after the other: a page and its cursor follow that order.
 */
export async function runGrep(db: D1Database | ((repo: string) => D1Database), req: GrepRequest): Promise<GrepResult> {
  const dbOf = typeof db === "function" ? db : () => db;
  const match = trigramMatch(req.pattern.requirement, !req.caseSensitive);
  const filter = textFilter(req.pattern.requirement, req.pattern.caseSensitive);
  const glob = req.path && isGlob(req.path) ? compileGlob(req.path, { field: "path" }) : null;
  // A glob's literal leading folder narrows the SQL read like a prefix does.
  const pathPrefix = glob ? glob.prefix || undefined : req.path;
  const cursor = req.cursor;
  const pageStart = cursor ? cursor.n : req.offset;
  const pageEnd = pageStart + req.limit;
  type Pending = { repo: string; fileId: string; path: string; line: number; text: string; ranges: Range[] };
  const page: Pending[] = [];
  let seen = cursor ? cursor.n : 0;
  let next: GrepCursor | null = null;
  let candidates = 0;
  let filesScanned = 0;
  let bytes = 0;
  let bytesAtFull = -1;
  let countAhead = GREP_COUNT_AHEAD_BYTES;
  let stopped = false;
  let capped = false;
  let batchBudget = TEXT_FIRST_BATCH_BYTES;
  const repos = cursor ? req.repos.filter((r) => r.id >= cursor.repo) : req.repos;
  const now = req.now ?? Date.now;
  const deadline = req.deadline ?? Number.POSITIVE_INFINITY;
  const outOfTime = () => filesScanned > 0 && now() >= deadline;

  outer: for (const repo of repos) {
    const resume = cursor && repo.id === cursor.repo ? cursor : null;
    let files: CandidateFile[] = await candidateFiles(dbOf(repo.id), repo.id, repo.commit, match, {
      pathPrefix,
      language: req.language,
      fromPath: resume?.path,
    });
    if (files.length > GREP_CANDIDATES_MAX) {
      files = files.slice(0, GREP_CANDIDATES_MAX);
      capped = true;
    }
    files = files.filter((f) => (!glob || glob.test(f.path)) && (req.includeTests || !isTestPath(f.path)));
    candidates += files.length;
    for (let i = 0; i < files.length;) {
      if (bytes >= GREP_SCAN_MAX_BYTES || (bytesAtFull >= 0 && bytes - bytesAtFull >= countAhead) || outOfTime()) {
        stopped = true;
        next ??= { n: seen, repo: repo.id, path: files[i].path, skip: 0 };
        break outer;
      }
      const batch: CandidateFile[] = [];
      let batchBytes = 0;
      // Once the page is full, only the count-ahead allowance is left to read: a doubled batch
      // would overshoot it (2 MiB read to refine a count bounded at 512 KiB).
      const budget = bytesAtFull < 0 ? batchBudget : Math.min(batchBudget, countAhead - (bytes - bytesAtFull));
      while (i < files.length && batch.length < GREP_IDS_PER_QUERY && (batch.length === 0 || batchBytes + files[i].bytes <= budget)) {
        batchBytes += files[i].bytes;
        batch.push(files[i++]);
      }
      batchBudget = Math.min(TEXT_BATCH_BYTES, batchBudget * 2);
      const texts = await fileTexts(
        dbOf(repo.id),
        repo.id,
        batch.map((f) => f.fileId),
        filter,
      );
      for (let j = 0; j < batch.length; j++) {
        const f = batch[j];
        if (outOfTime()) {
          stopped = true;
          next ??= { n: seen, repo: repo.id, path: f.path, skip: 0 };
          break outer;
        }
        // A text the filter left out was checked by SQLite and holds no match.
        filesScanned++;
        bytes += f.bytes;
        const text = texts.get(f.fileId);
        if (text === undefined) continue;
        // Lines off the page are only counted: their first match is enough. A page line needs the
        // matches its excerpt can show (it starts at most GREP_LINE_MAX_CHARS before the last).
        const skip = resume && f.path === resume.path ? resume.skip : 0;
        const base = seen - skip;
        const window = (k: number) => (base + k >= pageStart && base + k < pageEnd ? GREP_LINE_MAX_CHARS + 1 : 0);
        let lines = req.pattern.matchLines(text, Number.POSITIVE_INFINITY, window);
        if (skip) lines = lines.slice(skip);
        for (let k = 0; k < lines.length; k++) {
          const lm = lines[k];
          if (seen >= pageStart && seen < pageEnd)
            page.push({ repo: repo.id, fileId: f.fileId, path: f.path, line: lm.line, text: lm.text, ranges: lm.ranges });
          else if (seen === pageEnd && !next) next = { n: seen, repo: repo.id, path: f.path, skip: k + skip };
          seen++;
        }
        if (bytesAtFull < 0 && seen >= pageEnd) {
          bytesAtFull = bytes;
          countAhead = Math.min(GREP_COUNT_AHEAD_BYTES, Math.max(GREP_COUNT_AHEAD_MIN_BYTES, bytes));
        }
      }
    }
  }

  const symbols = new Map<string, (EnclosingSymbol | null)[]>();
  for (const repo of new Set(page.map((p) => p.repo))) {
    const mine = page.filter((p) => p.repo === repo);
    symbols.set(
      repo,
      await enclosingSymbols(
        dbOf(repo),
        repo,
        mine.map((p) => ({ fileId: p.fileId, line: p.line })),
      ),
    );
  }
  const counters = new Map<string, number>();
  const matches: GrepMatch[] = page.map((p) => {
    const k = counters.get(p.repo) ?? 0;
    counters.set(p.repo, k + 1);
    const cut = excerpt(p.text, p.ranges);
    return { repo: p.repo, path: p.path, line: p.line, column: p.ranges[0][0] + 1, text: cut.text, ranges: cut.ranges, symbol: symbols.get(p.repo)![k] };
  });
  // Stopping after the page was full only leaves the count short; before, the page may lack matches.
  const truncated = (stopped && bytesAtFull < 0) || capped;
  const hasMore = seen > pageEnd || (stopped && next !== null);
  return {
    matches,
    totalCount: seen,
    totalExact: !stopped && !capped,
    hasMore,
    nextOffset: hasMore ? pageStart + matches.length : null,
    nextCursor: hasMore ? next : null,
    index: match === null ? "scan" : "trigram",
    scanCapped: match === null && (stopped || capped),
    truncated,
    candidateFiles: candidates,
    filesScanned,
    bytesScanned: bytes,
  };
}
