/** @module worker/mcp/tools/get-file-outline — MCP tool `get_file_outline` over `getFileOutline` (worker/services/files-outline.ts). */
import { fileOutlineInput, fileOutlineOutput, getFileOutline } from "../../services/files-outline";
import { atRef } from "../snapshot-label";
import { defineTool } from "../tool";

export const getFileOutlineTool = defineTool({
  name: "get_file_outline",
  title: "File outline",
  description:
    "List a file's imports and its symbols (functions, classes, methods, ...) with kinds, signatures and line ranges, without reading the whole file.",
  inputSchema: fileOutlineInput,
  outputSchema: fileOutlineOutput,
  readOnly: true,
  async handler(input, tc) {
    const r = await getFileOutline(tc.service, input);
    const lines = [`${r.repo}:${r.path} (${r.language}, ${r.totalLines} lines, ${r.total_count} symbols, ${atRef(r.ref, r.commit)})`];
    if (r.imports.length) lines.push("imports:", ...r.imports.map((i) => `  ${i}`));
    if (r.symbols.length) {
      lines.push("symbols:");
      for (const s of r.symbols) {
        const indent = s.container ? "    " : "  ";
        lines.push(`${indent}${s.startLine}-${s.endLine} [${s.kind}] ${s.signature ?? s.name}`);
      }
    }
    if (r.next_offset !== null) lines.push(`[more: call get_file_outline with offset ${r.next_offset}]`);
    return { structured: r, text: lines.join("\n") };
  },
});
