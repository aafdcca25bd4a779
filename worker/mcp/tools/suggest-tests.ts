/** @module worker/mcp/tools/suggest-tests — MCP tool `suggest_tests` over `suggestTests` (worker/services/suggest-tests). */
import { suggestTests } from "../../services/suggest-tests";
import { suggestTestsInput, suggestTestsOutput } from "../../services/suggest-tests-schema";
import { defineTool } from "../tool";

export const suggestTestsTool = defineTool({
  name: "suggest_tests",
  title: "Suggest a test skeleton",
  description:
    "Test skeleton for one function or method from the index: real signature, collaborators, thrown errors and early returns, in the repo's framework " +
    "and layout. One test per behaviour, each ending in a failing TODO; the test path and facts with path:line.",
  inputSchema: suggestTestsInput,
  outputSchema: suggestTestsOutput,
  readOnly: true,
  async handler(input, tc) {
    const r = await suggestTests(tc.service, input);
    const lines = [
      `${r.repo}:${r.path} ${r.symbol} — ${r.framework}, test file ${r.test_path}${r.test_path_exists ? " (exists: merge into it)" : ""}`,
      "facts:",
      ...r.facts.map((f) => `  ${f.path}:${f.line} ${f.kind}: ${f.text}`),
      ...r.notes.map((n) => `note: ${n}`),
      ...(r.fill
        ? [`fill: ${r.fill.filled ? "filled" : "not filled"}: ${r.fill.reason}`, ...r.fill.unresolved.map((u) => `  unresolved ${u.name} at line ${u.line}`)]
        : []),
      "",
      // The filled test only when it passed its checks (fill-verify.ts); else the skeleton.
      r.fill?.filled && r.fill.test !== null ? r.fill.test : r.skeleton,
    ];
    return { structured: r, text: lines.join("\n") };
  },
});
