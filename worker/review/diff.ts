/**
 * @module worker/review/diff
 *
 * A unified diff (git diff output) parsed with `parse-diff` into what review needs: per file its
 * new path, status and hunks, each line with its new-side line number (null for a removed line),
 * and the set of new-side lines a finding may point at (added and context lines of a hunk). Pure.
 */
import parseDiff from "parse-diff";
import { CodeSearchError } from "../../kernel/errors";

/** One line of a hunk. `newLine` is null for a removed line, `oldLine` null for an added one. */
export interface DiffLine {
  kind: "add" | "del" | "context";
  newLine: number | null;
  oldLine: number | null;
  /** The line without its +, - or space marker. */
  text: string;
}

/** One hunk: its `@@` header and its lines. */
export interface DiffHunk {
  header: string;
  lines: DiffLine[];
}

/** One file of the diff. `path` is the new path (the old one for a deleted file). */
export interface DiffFile {
  path: string;
  oldPath: string | null;
  status: "added" | "deleted" | "modified" | "renamed";
  hunks: DiffHunk[];
  /** New-side lines that appear in a hunk (added or context); empty for a deleted file. */
  newSideLines: Set<number>;
}

/** Strips git's a/ b/ prefixes (parse-diff keeps them on `---`/`+++`-only diffs). */
function cleanPath(p: string | undefined): string | null {
  if (!p || p === "/dev/null") return null;
  return p.replace(/^[ab]\//, "");
}

/**
 * Parses `text`. Throws `invalid_input` when it holds no file with a hunk (not a unified diff),
 * naming the command that makes one.
 */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  for (const f of parseDiff(text)) {
    const to = cleanPath(f.to);
    const from = cleanPath(f.from);
    const path = to ?? from;
    if (!path || !f.chunks.length) continue;
    const status = f.deleted || !to ? "deleted" : f.new || !from ? "added" : from !== to ? "renamed" : "modified";
    const newSideLines = new Set<number>();
    const hunks = f.chunks.map((c) => ({
      header: c.content,
      lines: c.changes.map((ch): DiffLine => {
        if (ch.type === "add") {
          newSideLines.add(ch.ln);
          return { kind: "add", newLine: ch.ln, oldLine: null, text: ch.content.slice(1) };
        }
        if (ch.type === "del") return { kind: "del", newLine: null, oldLine: ch.ln, text: ch.content.slice(1) };
        newSideLines.add(ch.ln2);
        return { kind: "context", newLine: ch.ln2, oldLine: ch.ln1, text: ch.content.slice(1) };
      }),
    }));
    if (status === "deleted") newSideLines.clear();
    files.push({ path, oldPath: status === "added" ? null : from, status, hunks, newSideLines });
  }
  if (!files.length) {
    throw new CodeSearchError(
      "invalid_input",
      "diff: no file with a hunk found; pass a unified diff such as the output of `git diff main...HEAD` (with ---/+++ and @@ lines).",
    );
  }
  return files;
}
