/** @module worker/mcp/tools/find-references — MCP tool `find_references` over `findReferences` (worker/services/symbols-references.ts). */
import { findReferences, findReferencesInput, findReferencesOutput } from "../../services/symbols-references";
import { defineTool } from "../tool";

export const findReferencesTool = defineTool({
  name: "find_references",
  title: "Find references",
  description:
    "Find every whole-word, case-sensitive occurrence of an identifier in the indexed code, with line, column and the enclosing function or class. " +
    "Paginated: total_count, has_more and next_offset.",
  inputSchema: findReferencesInput,
  outputSchema: findReferencesOutput,
  readOnly: true,
  async handler(input, tc) {
    const r = await findReferences(tc.service, input);
    const first = (input.offset ?? 0) + 1;
    const out = [
      r.total_count === 0
        ? `No occurrences of "${r.symbol}" in ${r.filesScanned} scanned files.`
        : `${r.total_count} occurrences of "${r.symbol}"; showing ${first}-${first + r.references.length - 1}:`,
    ];
    for (const ref of r.references) {
      const where = ref.enclosing ? ` in ${ref.enclosing.container ? `${ref.enclosing.container}.` : ""}${ref.enclosing.name}` : "";
      out.push(`${ref.repo}:${ref.path}:${ref.line}:${ref.column}${ref.definition ? " [definition]" : ""}${where}: ${ref.text}`);
    }
    if (r.next_offset !== null) out.push(`[more: call find_references with offset ${r.next_offset}]`);
    if (r.scanCapped) out.push(`[only the first ${r.filesScanned} matching files were scanned: pass repo to narrow]`);
    return { structured: r, text: out.join("\n") };
  },
});
