/**
 * @module worker/mcp/tools/ask-codebase
 *
 * MCP tool `ask_codebase` over `ask` (worker/services/ask.ts), with the service's schemas
 * (worker/services/ask-schema.ts; `stream` is REST-only). Its description says that it spends
 * model tokens, so an agent prefers search_code when it can read the code itself.
 */
import { ask } from "../../services/ask";
import { askInput, askOutput, type AskOutput } from "../../services/ask-schema";
import { snapshotsLine, withLine } from "../snapshot-label";
import { defineTool } from "../tool";

/** Input of ask_codebase: the service's, without `stream`. */
export const askCodebaseInput = askInput.omit({ stream: true });

/** Text rendering: status, the verified answer, its citations, rejected ones and the evidence. */
export function renderAsk(r: AskOutput): string {
  const head = r.status === "answered" ? "Answer (every citation verified against the evidence):" : `Status: ${r.status}. ${r.reason ?? ""}`.trim();
  const parts = [head];
  if (r.answer) parts.push(r.answer);
  if (r.citations.length) parts.push(`Citations:\n${r.citations.map((c) => `- [${c.evidence}] ${c.repo}:${c.path}:${c.startLine}-${c.endLine}`).join("\n")}`);
  if (r.rejectedCitations.length)
    parts.push(
      `Rejected citations (removed from the answer):\n${r.rejectedCitations.map((c) => `- [${c.evidence}] ${c.path}:${c.startLine}-${c.endLine}: ${c.reason} (${c.detail})`).join("\n")}`,
    );
  if (r.evidence.length)
    parts.push(`Evidence the model saw: ${r.evidence.map((e) => `${e.label} ${e.repo}:${e.lines}`).join(", ")}${withLine(snapshotsLine(r.evidence))}`);
  const cost = r.usage.costUsd === null ? "" : `, about $${r.usage.costUsd.toFixed(4)}`;
  parts.push(
    `(${r.modelCalls} model call(s), ${r.usage.inputTokens + r.usage.cacheReadTokens + r.usage.cacheWriteTokens} input + ${r.usage.outputTokens} output tokens${cost}; ${r.model}, prompt ${r.prompt.id} v${r.prompt.version})`,
  );
  return parts.join("\n\n");
}

export const askCodebaseTool = defineTool({
  name: "ask_codebase",
  title: "Ask the codebase (grounded answer)",
  description:
    "Answers a question about the indexed code with a language model, from search results as evidence: every citation (path:start-end) in the answer is verified " +
    "against the lines the model was shown, or removed. Says refused when the index holds too little evidence (then no model is called) and ungrounded when no citation holds. " +
    "This spends model tokens (counted against your daily budget); prefer search_code and read_file when you can read the code yourself.",
  inputSchema: askCodebaseInput,
  outputSchema: askOutput,
  readOnly: true,
  async handler(input, tc) {
    const r = await ask(tc.service, { ...input, stream: false });
    return { structured: r, text: renderAsk(r) };
  },
});
