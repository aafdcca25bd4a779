/** @module worker/mcp/tools/read-file — MCP tool `read_file` over `readFile` (worker/services/files.ts). */
import { READ_MAX_LINES, readFile, readFileInput, readFileOutput, type ReadFileOutput } from "../../services/files";
import { renderLines } from "../budget";
import { atRef } from "../snapshot-label";
import { READ_FILE_LINE_ALIASES } from "../input-aliases";
import { defineTool } from "../tool";

/** Header line plus numbered lines, then how to continue. */
export function renderFileLines(r: ReadFileOutput): string {
  if (r.totalLines === 0) return `${r.path} (${r.language}) is empty.`;
  const head = `${r.repo}:${r.path} lines ${r.startLine}-${r.endLine} of ${r.totalLines} (${r.language}, ${atRef(r.ref, r.commit)})`;
  const more = r.next ? `\n[more: call read_file with start_line ${r.next.start_line}, end_line ${r.next.end_line}]` : "";
  return `${head}\n${renderLines(r.lines)}${more}`;
}

export const readFileTool = defineTool({
  name: "read_file",
  title: "Read file lines",
  description:
    `Read numbered lines of an indexed file (current snapshot). At most ${READ_MAX_LINES} lines per call; ` +
    "when more remain, the result names the next range to ask for. Use after search_code or find_symbol to see more than the snippet.",
  inputSchema: readFileInput,
  outputSchema: readFileOutput,
  readOnly: true,
  inputAliases: READ_FILE_LINE_ALIASES,
  async handler(input, tc) {
    const r = await readFile(tc.service, input);
    return { structured: r, text: renderFileLines(r) };
  },
});
