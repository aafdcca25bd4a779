/**
 * @module worker/review/tools
 *
 * The reviewer's tools: five read-only tools of the one MCP tool registry (search_code,
 * read_file, find_symbol, find_references, get_file_outline; worker/mcp/tools/*), with their
 * own zod input schemas turned into JSON Schema by `z.toJSONSchema` and their own text
 * renderings as results. The review is scoped to one repo (and ref): `repo`/`repos`/`ref` are
 * dropped from the schemas shown to the model and set by the loop; a call naming another repo, a path that
 * climbs out of the repo, or input the schema rejects comes back as an `is_error` result the
 * model can correct. Results are capped at REVIEW_TOOL_RESULT_MAX_CHARS.
 */
import { z } from "zod";
import { CodeSearchError } from "../../kernel/errors";
import type { ToolSpec } from "../../kernel/generation";
import { blameTool } from "../mcp/tools/blame";
import { fileHistoryTool } from "../mcp/tools/file-history";
import { findReferencesTool } from "../mcp/tools/find-references";
import { findSymbolTool } from "../mcp/tools/find-symbol";
import { getFileOutlineTool } from "../mcp/tools/get-file-outline";
import { readFileTool } from "../mcp/tools/read-file";
import { searchCodeTool } from "../mcp/tools/search-code";
import { searchCommitsTool } from "../mcp/tools/search-commits";
import type { ToolContext, ToolDefinition } from "../mcp/tool";
import { applyInputAliases } from "../mcp/input-aliases";

/**
 * Most characters of one tool result sent to the model: about 4,000 tokens of code, so eight
 * turns of parallel calls stay well inside a 200k-token context.
 */
export const REVIEW_TOOL_RESULT_MAX_CHARS = 16_000;

/** The registry's tools the reviewer may call, in the order the model sees them. */
export const REVIEW_TOOLS: ToolDefinition[] = [
  searchCodeTool,
  readFileTool,
  findSymbolTool,
  findReferencesTool,
  getFileOutlineTool,
  // History (issue 49): why the code under review is as it is. A repo without history answers
  // history_unavailable as an error result the model reads and moves on from.
  fileHistoryTool,
  blameTool,
  searchCommitsTool,
] as unknown as ToolDefinition[];

/** Keys the loop sets (the review's repo and ref), hidden from the model. */
const SCOPE_KEYS = ["repo", "repos", "ref"] as const;

/** JSON Schema of a zod object for a model API: input side, no `$schema` key. */
export function toToolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return json;
}

/** The schema a review tool shows the model: the registry's, without the repo scope keys. */
function scopedSchema(tool: ToolDefinition): z.ZodObject {
  const present = SCOPE_KEYS.filter((k) => k in tool.inputSchema.shape);
  const mask = Object.fromEntries(present.map((k) => [k, true])) as Record<string, true> & Record<number, never>;
  return present.length ? tool.inputSchema.omit(mask) : tool.inputSchema;
}

/** Tool specs for the model API (stable order and text: part of the cached prompt prefix). */
export function reviewToolSpecs(): ToolSpec[] {
  return REVIEW_TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: toToolJsonSchema(scopedSchema(t)) }));
}

/** The outcome of one tool call: text for the model and whether it is an error. */
export interface ToolCallResult {
  text: string;
  isError: boolean;
}

function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
}

/** Cuts `text` to REVIEW_TOOL_RESULT_MAX_CHARS with a notice saying how to read the rest. */
export function capToolResult(text: string): string {
  if (text.length <= REVIEW_TOOL_RESULT_MAX_CHARS) return text;
  const notice = `\n[result cut at ${REVIEW_TOOL_RESULT_MAX_CHARS} characters: ask for a narrower range or fewer results]`;
  return text.slice(0, REVIEW_TOOL_RESULT_MAX_CHARS - notice.length) + notice;
}

/**
 * Runs one review tool call for the repo `repo` (at `ref`, when the review names one: tools that
 * take a ref read that snapshot). Never throws: unknown tools, bad input, a
 * foreign repo, a climbing path and service errors (file_not_found, ...) become error results
 * with a message the model can act on; an unexpected error is logged and answered generically.
 */
export async function runReviewTool(name: string, input: unknown, repo: string, tc: ToolContext, ref?: string): Promise<ToolCallResult> {
  const tool = REVIEW_TOOLS.find((t) => t.name === name);
  if (!tool) return { isError: true, text: `Unknown tool "${name}". Available: ${REVIEW_TOOLS.map((t) => t.name).join(", ")}, submit_review.` };
  if (!input || typeof input !== "object" || Array.isArray(input)) return { isError: true, text: "Tool input must be a JSON object." };
  const raw = input as Record<string, unknown>;
  const foreign =
    (raw.repo !== undefined && raw.repo !== repo) || (raw.repos !== undefined && !(Array.isArray(raw.repos) && raw.repos.every((r) => r === repo)));
  if (foreign) return { isError: true, text: `Blocked: this review may read only repo "${repo}"; leave repo out.` };
  if (typeof raw.path === "string" && (raw.path.startsWith("/") || raw.path.split("/").includes(".."))) {
    return { isError: true, text: `Blocked path "${raw.path}": paths are relative to the repo root and may not contain "..".` };
  }
  const { repo: _r, repos: _rs, ref: _ref, ...given } = raw;
  const { value: rest, error } = tool.inputAliases ? applyInputAliases(given, tool.inputAliases) : { value: given, error: null };
  if (error) return { isError: true, text: `Invalid input for ${name}: ${error}` };
  const parsed = scopedSchema(tool).safeParse(rest);
  if (!parsed.success) return { isError: true, text: `Invalid input for ${name}: ${issuesText(parsed.error)}` };
  const scoped = "repo" in tool.inputSchema.shape ? { ...parsed.data, repo } : parsed.data;
  const full = ref !== undefined && "ref" in tool.inputSchema.shape ? { ...scoped, ref } : scoped;
  try {
    const out = await tool.handler(tool.inputSchema.parse(full), tc);
    return { isError: false, text: capToolResult(out.text) };
  } catch (err) {
    if (err instanceof CodeSearchError) return { isError: true, text: `${name} failed (${err.code}): ${err.message}` };
    console.error("review tool failed", name, err);
    return { isError: true, text: `${name} failed with an internal error; try another tool or argument.` };
  }
}
