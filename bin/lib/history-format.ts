/**
 * Human output of `codebase-copilot history|blame|commits` (bin/lib/cmd-history.ts). Pure: each
 * function turns an API answer (bin/lib/api-types.ts) into lines. A commit is one line: short
 * sha (12 characters, as `read at:` elsewhere), author date (YYYY-MM-DD, UTC), author name,
 * subject, then what it changed.
 */
import type { Blame, CommitSearch, CommitSummary, FileHistory, FileRange } from "./api-types.ts";
import { readAt } from "./cli-format.ts";

/** Characters of a sha shown. */
const SHORT_SHA = 12;

/** Pads each column but the last to its widest cell, two spaces apart. */
function columns(rows: string[][]): string[] {
  const widths = rows.reduce<number[]>((w, r) => r.map((c, i) => Math.max(w[i] ?? 0, c.length)), []);
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  "));
}

/** `sha date author subject` cells of a commit; `mark` prefixes the sha (`^` for a boundary). */
function commitCells(c: CommitSummary, mark = ""): string[] {
  return [`${mark}${c.sha.slice(0, SHORT_SHA)}`, c.date.slice(0, 10) || "?", c.author.name || c.author.email || "?", c.subject];
}

/** `path:start-end`, or `start-end` when `path` is `same`. */
function span(r: FileRange, same?: string): string {
  return `${r.path === same ? "" : `${r.path}:`}${r.start}-${r.end}`;
}

/** What one history entry changed: `lines 4-4 (were src/a.ts:3-3)`, `(added)`, or the file's path then. */
function changed(c: FileHistory["commits"][number], path: string): string {
  if (!c.after) return c.path === path ? "" : `as ${c.path}`;
  return `lines ${span(c.after, path)} ${c.before ? `(were ${span(c.before, c.after.path)})` : "(added)"}`;
}

/**
 * A history page: a header naming the file or range, one line per commit, then the next page's
 * `--cursor`, whether older history is beyond the kept depth, and the ref and commit read.
 */
export function formatHistory(h: FileHistory): string {
  const what = h.range ? `${h.path} lines ${h.range.start}-${h.range.end}` : h.path;
  const out = [h.commits.length ? `${what}: ${h.commits.length} commit${h.commits.length === 1 ? "" : "s"}, newest first` : `${what}: no commits`];
  out.push(...columns(h.commits.map((c) => [...commitCells(c), changed(c, h.path)])).map((l) => l.trimEnd()));
  if (h.next_cursor) out.push(`more: --cursor ${h.next_cursor}`);
  if (h.truncated) out.push(`older history is beyond the kept depth (${h.depth})`);
  const at = readAt([h]);
  if (at) out.push(at);
  return out.join("\n");
}

/**
 * Blame: one line per range of consecutive lines last changed by the same commit
 * (`3-4  ^0123456789ab  2024-01-04  Alice  subject  (was src/a.ts:2-3)`); `^` marks a boundary
 * commit (the line is at least that old), as `git blame` does.
 */
export function formatBlame(b: Blame): string {
  const rows = b.ranges.map((r) => {
    const moved = r.origin.path !== b.path || r.origin.start !== r.start;
    return [
      `${r.start}-${r.end}`,
      ...commitCells(r, r.boundary ? "^" : ""),
      moved ? `(was ${r.origin.path === b.path ? "lines " : ""}${span(r.origin, b.path)})` : "",
    ];
  });
  const out = [`${b.path} lines ${b.start}-${b.end}`, ...columns(rows).map((l) => l.trimEnd())];
  if (b.ranges.some((r) => r.boundary)) out.push("^: a boundary commit: the lines are at least this old (the oldest commit kept)");
  const at = readAt([b]);
  if (at) out.push(at);
  return out.join("\n");
}

/** Commit search: `repo sha date author subject` per commit, best first, then what was searched. */
export function formatCommitSearch(s: CommitSearch): string {
  const scope = s.ref
    ? `${s.repos.join(", ")}, commits reachable from ${shortRef(s.ref)}@${(s.commit ?? "").slice(0, SHORT_SHA)}`
    : `${s.repos.length ? s.repos.join(", ") : "no repo with history"} (every tracked ref)`;
  if (s.commits.length === 0) return `No commits found. Searched: ${scope}`;
  return [...columns(s.commits.map((c) => [c.repo, ...commitCells(c)])), "", `searched: ${scope}`].join("\n");
}

/** `refs/heads/main` -> `main`, `refs/tags/v2` -> `v2`. */
function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, "");
}
