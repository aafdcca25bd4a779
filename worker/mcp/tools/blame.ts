/** @module worker/mcp/tools/blame — MCP tool `blame` over `blame` (worker/services/history.ts). */
import { blame } from "../../services/history";
import { BLAME_MAX_LINES, blameInput, blameOutput, type BlameOutput } from "../../services/history-schema";
import { shortRefName } from "../../services/refs";
import { HISTORY_LINE_ALIASES } from "../input-aliases";
import { defineTool } from "../tool";

/** One line per range: lines, short SHA, date, author, subject. */
export function renderBlame(r: BlameOutput): string {
  const rows = r.ranges.map(
    (x) =>
      `${x.start === x.end ? x.start : `${x.start}-${x.end}`}: ${x.boundary ? "^" : ""}${x.sha.slice(0, 12)} ${x.date.slice(0, 10)} ${x.author.name}: ${x.subject}`,
  );
  return `Blame of ${r.repo}:${r.path}:${r.start}-${r.end} at ${shortRefName(r.ref)} (${r.commit.slice(0, 12)}; ^ = at least this old):\n${rows.join("\n")}`;
}

export const blameTool = defineTool({
  name: "blame",
  title: "Blame lines",
  description: `For each line of a file range (at most ${BLAME_MAX_LINES} lines), the commit that last changed it, following renames and merges. Pair with file_history for the whole story.`,
  inputSchema: blameInput,
  outputSchema: blameOutput,
  readOnly: true,
  inputAliases: HISTORY_LINE_ALIASES,
  async handler(input, tc) {
    const r = await blame(tc.service, input);
    return { structured: r, text: renderBlame(r) };
  },
});
