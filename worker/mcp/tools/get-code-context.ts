/** @module worker/mcp/tools/get-code-context — MCP tool `get_code_context` over `getCodeContext` (worker/services/files-context.ts). */
import { codeContextInput, codeContextOutput, getCodeContext, type ChunkRef } from "../../services/files-context";
import { cite, renderLines } from "../budget";
import { atRef } from "../snapshot-label";
import { defineTool } from "../tool";

function describeChunk(c: ChunkRef): string {
  const name = c.symbol ? `${c.container ? `${c.container}.` : ""}${c.symbol}` : "(no symbol)";
  return `${c.kind} ${name} lines ${c.startLine}-${c.endLine} [chunk ${c.id}]`;
}

export const getCodeContextTool = defineTool({
  name: "get_code_context",
  title: "Code around a chunk or line",
  description:
    "Show a chunk (from search_code's chunkId, or the smallest chunk covering repo + path + line) with neighbouring lines " +
    "(before/after, default 5) and the ids of the previous and next chunks, to widen the view step by step. " +
    "With repo + path + line and before/after: exactly lines line-before .. line+after, and the chunk that contains the line.",
  inputSchema: codeContextInput,
  outputSchema: codeContextOutput,
  readOnly: true,
  async handler(input, tc) {
    const r = await getCodeContext(tc.service, input);
    const parts = [`${r.repo}:${cite(r.path, r.startLine, r.endLine)} (${r.language}, ${r.totalLines} lines, ${atRef(r.ref, r.commit)})`];
    const label = r.window === "lines" ? "in chunk" : "chunk";
    parts.push(r.chunk ? `${label}: ${describeChunk(r.chunk)}` : "no chunk covers this line");
    parts.push(renderLines(r.lines));
    if (r.next) parts.push(`[more: call read_file with start_line ${r.next.start_line}, end_line ${r.next.end_line}]`);
    if (r.previousChunk) parts.push(`previous: ${describeChunk(r.previousChunk)}`);
    if (r.nextChunk) parts.push(`next: ${describeChunk(r.nextChunk)}`);
    return { structured: r, text: parts.join("\n") };
  },
});
