/** @module worker/mcp/tools/find-references — MCP tool `find_references` over `findReferences` (worker/services/symbols-references.ts). */
import { findReferences, findReferencesInput, findReferencesOutput } from "../../services/symbols-references";
import { snapshotsLine, withLine } from "../snapshot-label";
import { defineTool } from "../tool";

export const findReferencesTool = defineTool({
  name: "find_references",
  title: "Find references",
  description:
    "Find occurrences of an identifier (whole word, case-sensitive) with line, column, the enclosing function or class, and what the syntax tree says " +
    "each one is (definition, call, import, type, reference; comment/string/docs text are marked lexical) and, where the receiver or import makes it clear, " +
    "which definition it refers to. definition (e.g. InvoiceFormatter.format, format(Invoice, Locale), or path:line) keeps only that definition's references. " +
    "Source first, then tests, then docs. Paginated: total_count, has_more and next_offset.",
  inputSchema: findReferencesInput,
  outputSchema: findReferencesOutput,
  readOnly: true,
  async handler(input, tc) {
    const r = await findReferences(tc.service, input);
    const first = (input.offset ?? 0) + 1;
    const of = r.definitions.length
      ? ` of ${r.definitions.map((d) => `${d.container ? `${d.container}.` : ""}${r.symbol} (${d.path}:${d.line})`).join(", ")}`
      : ` of "${r.symbol}"`;
    const out = [
      r.total_count === 0
        ? `No references${of} in ${r.filesScanned} scanned files.`
        : `${r.total_count} ${r.definitions.length ? "references" : "occurrences"}${of}; showing ${first}-${first + r.references.length - 1}:`,
    ];
    for (const ref of r.references) {
      const where = ref.enclosing ? ` in ${ref.enclosing.container ? `${ref.enclosing.container}.` : ""}${ref.enclosing.name}` : "";
      const tag = ref.lexical ? `[${ref.kind}, lexical match only]` : `[${ref.kind}${ref.via ? `, ${ref.via}` : ""}]`;
      out.push(`${ref.repo}:${ref.path}:${ref.line}:${ref.column} ${tag}${where}: ${ref.text}`);
    }
    if (r.unattributed)
      out.push(`[${r.unattributed} occurrences left out: the code does not say which definition they use; call without definition to see them]`);
    if (r.next_offset !== null) out.push(`[more: call find_references with offset ${r.next_offset}]`);
    if (r.scanCapped) out.push(`[only the first ${r.filesScanned} matching files were scanned: pass repo to narrow]`);
    if (r.withoutRef?.length) out.push(`without that ref (not searched): ${r.withoutRef.join(", ")}`);
    return { structured: r, text: out.join("\n") + withLine(snapshotsLine(r.references)) };
  },
});
