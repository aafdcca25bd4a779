/** @module worker/mcp/tools/find-symbol — MCP tool `find_symbol` over `findSymbol` (worker/services/symbols.ts). */
import { findSymbol, findSymbolInput, findSymbolOutput } from "../../services/symbols";
import { cite } from "../budget";
import { snapshotsLine, withLine } from "../snapshot-label";
import { defineTool } from "../tool";

/** Characters of a doc comment shown per definition in the text rendering. */
const DOC_MAX_CHARS = 300;

export const findSymbolTool = defineTool({
  name: "find_symbol",
  title: "Find symbol definitions",
  description:
    "Find where a function, class, method, type or constant is defined: exact name matches first, then case-insensitive, then prefix. " +
    "Returns signature, doc comment, container and, for classes, members. Suggests near names when nothing matches.",
  inputSchema: findSymbolInput,
  outputSchema: findSymbolOutput,
  readOnly: true,
  async handler(input, tc) {
    const r = await findSymbol(tc.service, input);
    if (r.symbols.length === 0) {
      const hint = r.suggestions.length ? ` Did you mean: ${r.suggestions.join(", ")}?` : " Try search_code with a description instead.";
      return { structured: r, text: `No definition named "${input.name}"${input.kind ? ` of kind ${input.kind}` : ""}.${hint}` };
    }
    const out: string[] = [];
    for (const s of r.symbols) {
      const owner = s.container ? `${s.container}.` : "";
      out.push(
        `${s.repo}:${cite(s.path, s.startLine, s.endLine)} ${s.kind} ${owner}${s.name}${s.match === "exact" ? "" : ` (${s.match.replace("_", "-")} match)`}`,
      );
      if (s.signature) out.push(`  ${s.signature}`);
      if (s.doc) out.push(`  doc: ${s.doc.length > DOC_MAX_CHARS ? `${s.doc.slice(0, DOC_MAX_CHARS)}…` : s.doc}`.replace(/\n/g, "\n  "));
      if (s.members?.length) out.push(`  members: ${s.members.map((m) => `${m.name} (${m.kind}, ${m.startLine})`).join(", ")}`);
    }
    if (r.has_more) out.push(`[more definitions match: narrow with kind or repo, or raise limit]`);
    if (r.withoutRef?.length) out.push(`without that ref (not searched): ${r.withoutRef.join(", ")}`);
    return { structured: r, text: out.join("\n") + withLine(snapshotsLine(r.symbols)) };
  },
});
