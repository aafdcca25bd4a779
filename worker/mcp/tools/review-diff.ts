/**
 * @module worker/mcp/tools/review-diff
 *
 * MCP tool `review_diff` over `review` (worker/services/review.ts), with the service's schemas.
 * Its description says that it spends model tokens, so an agent reviews with its own reading
 * when it can.
 */
import { review } from "../../services/review";
import { reviewInput, reviewOutput, type ReviewOutput } from "../../services/review-schema";
import { defineTool } from "../tool";

/** Text rendering: status, summary, grounded findings, rejected ones, tools and cost. */
export function renderReview(r: ReviewOutput): string {
  const head =
    r.status === "reviewed"
      ? `Review of ${r.scope.files.join(", ")} (every finding checked against a real line):`
      : `Status: ${r.status}. ${r.reason ?? ""}`.trim();
  const parts = [head];
  if (r.summary) parts.push(r.summary);
  if (r.findings.length)
    parts.push(
      `Findings:\n${r.findings.map((f) => `- [${f.severity}/${f.category}] ${f.file}:${f.line}: ${f.issue}\n  Suggestion: ${f.suggestion}`).join("\n")}`,
    );
  else if (r.status === "reviewed") parts.push("No findings.");
  if (r.rejectedFindings.length)
    parts.push(
      `Rejected findings (not grounded, not presented as results):\n${r.rejectedFindings.map((f) => `- ${f.file}:${f.line}: ${f.reason} (${f.detail})`).join("\n")}`,
    );
  if (r.toolCalls.length) parts.push(`Tools used: ${r.toolCalls.map((t) => `${t.tool}${t.isError ? " (error)" : ""}`).join(", ")}`);
  const cost = r.usage.costUsd === null ? "" : `, about $${r.usage.costUsd.toFixed(4)}`;
  parts.push(
    `(${r.modelCalls} model call(s), ${r.usage.inputTokens + r.usage.cacheReadTokens + r.usage.cacheWriteTokens} input + ${r.usage.outputTokens} output tokens${cost}; ${r.model}, prompts ${r.prompts.system.id} v${r.prompts.system.version} + ${r.prompts.task.id} v${r.prompts.task.version})`,
  );
  return parts.join("\n\n");
}

export const reviewDiffTool = defineTool({
  name: "review_diff",
  title: "Review a diff (grounded findings)",
  description:
    "Reviews a unified diff (or whole files, with paths) of an indexed repo with a language model that reads the repo through search_code, read_file, find_symbol, " +
    "find_references and get_file_outline, and returns findings each pinned to a file and line that are checked to exist (new side of a hunk for a diff); findings that " +
    "fail the check are listed apart. This spends model tokens (several model calls, counted against your daily budget) and needs the index scope.",
  inputSchema: reviewInput,
  outputSchema: reviewOutput,
  readOnly: true,
  scope: "index",
  async handler(input, tc) {
    const r = await review(tc.service, input, { origin: tc.origin });
    return { structured: r, text: renderReview(r) };
  },
});
