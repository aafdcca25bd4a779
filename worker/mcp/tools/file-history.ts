/** @module worker/mcp/tools/file-history — MCP tool `file_history` over `fileHistory` (worker/services/history.ts). */
import { fileHistory } from "../../services/history";
import { fileHistoryInput, fileHistoryOutput, type FileHistoryOutput } from "../../services/history-schema";
import { shortRefName } from "../../services/refs";
import { HISTORY_LINE_ALIASES } from "../input-aliases";
import { defineTool } from "../tool";

/** One line per commit: date, short SHA, author, subject, and the lines' ranges. */
export function renderHistory(r: FileHistoryOutput): string {
  const what = r.range ? `${r.path}:${r.range.start}-${r.range.end}` : r.path;
  if (r.commits.length === 0) return `No commits changed ${what} within the kept history (depth ${r.depth}).`;
  const lines = r.commits.map((c) => {
    const ranges = c.after
      ? ` [${c.before ? `${c.before.path}:${c.before.start}-${c.before.end}` : "added"} -> ${c.after.path}:${c.after.start}-${c.after.end}]`
      : c.path !== r.path
        ? ` [as ${c.path}]`
        : "";
    return `${c.date.slice(0, 10)} ${c.sha.slice(0, 12)} ${c.author.name}: ${c.subject}${ranges}`;
  });
  const more = r.next_cursor
    ? `\n[more: call file_history with cursor "${r.next_cursor}"]`
    : r.truncated
      ? `\n[older history is beyond the kept depth (${r.depth})]`
      : "";
  return `History of ${r.repo}:${what} at ${shortRefName(r.ref)} (${r.commit.slice(0, 12)}), newest first:\n${lines.join("\n")}${more}`;
}

export const fileHistoryTool = defineTool({
  name: "file_history",
  title: "History of a file or lines",
  description:
    "The commits that changed a file, or lines start-end of it, newest first (follows renames and merges): SHA, author, date, subject, and where the lines were before and after. " +
    "Use to answer who changed this and why; then search_commits or blame for more.",
  inputSchema: fileHistoryInput,
  outputSchema: fileHistoryOutput,
  readOnly: true,
  inputAliases: HISTORY_LINE_ALIASES,
  async handler(input, tc) {
    const r = await fileHistory(tc.service, input);
    return { structured: r, text: renderHistory(r) };
  },
});
