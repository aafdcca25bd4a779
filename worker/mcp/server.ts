/**
 * @module worker/mcp/server
 *
 * Builds the MCP server for one request: registers every tool (worker/mcp/tools/*) and the
 * resources (worker/mcp/resources.ts), bound to the caller's service context. Registration
 * only; tools hold the logic.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { hasScope } from "../services/context";
import { registerResources } from "./resources";
import { askCodebaseTool } from "./tools/ask-codebase";
import { blameTool } from "./tools/blame";
import { fileHistoryTool } from "./tools/file-history";
import { findReferencesTool } from "./tools/find-references";
import { findSymbolTool } from "./tools/find-symbol";
import { fetchTool } from "./tools/fetch";
import { getCodeContextTool } from "./tools/get-code-context";
import { getFileOutlineTool } from "./tools/get-file-outline";
import { getIndexStatusTool } from "./tools/get-index-status";
import { grepTool } from "./tools/grep";
import { listFilesTool } from "./tools/list-files";
import { listReposTool } from "./tools/list-repos";
import { readFileTool } from "./tools/read-file";
import { refreshIndexTool } from "./tools/refresh-index";
import { reviewDiffTool } from "./tools/review-diff";
import { suggestTestsTool } from "./tools/suggest-tests";
import { searchConnectorTool } from "./tools/search";
import { searchCodeTool } from "./tools/search-code";
import { searchCommitsTool } from "./tools/search-commits";
import { registerTool, type ToolContext, type ToolDefinition } from "./tool";

/** Name and version announced in `initialize`. */
export const MCP_SERVER_INFO = { name: "codebase-copilot", version: "0.1.0" } as const;

/** Every tool, in the order `tools/list` shows them. */
export const TOOLS: ToolDefinition[] = [
  searchCodeTool,
  grepTool,
  getCodeContextTool,
  readFileTool,
  findSymbolTool,
  findReferencesTool,
  suggestTestsTool,
  getFileOutlineTool,
  listFilesTool,
  fileHistoryTool,
  blameTool,
  searchCommitsTool,
  listReposTool,
  getIndexStatusTool,
  refreshIndexTool,
  searchConnectorTool,
  fetchTool,
  askCodebaseTool,
  reviewDiffTool,
] as unknown as ToolDefinition[];

const INSTRUCTIONS = [
  "Code search over the git repositories indexed by this server (current snapshot of each).",
  "Start with search_code (natural language or identifiers) or find_symbol (a name you know);",
  "then read_file / get_code_context for more lines, get_file_outline for a file's structure,",
  "find_references for call sites; suggest_tests for a test skeleton of one function; grep for exact text or a regex, complete and in order (every match, not a ranking);",
  "list_files for paths (glob **/*.proto). Results cite path:start-end (1-based, inclusive lines).",
  "list_repos names the repos; get_index_status says whether one is still indexing.",
  "ask_codebase answers a question with verified citations but spends model tokens.",
  "review_diff reviews a unified diff with findings pinned to real lines; it spends model tokens too.",
].join(" ");

/**
 * A fresh server with the tools the caller may call registered for `tc` (one per request: the
 * handler is stateless). A tool whose scope the caller lacks is neither listed nor callable
 * (calling it answers "unknown tool"); its service would refuse it anyway.
 */
export function createMcpServer(tc: ToolContext): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { instructions: INSTRUCTIONS });
  for (const tool of TOOLS) if (hasScope(tc.service.caller, tool.scope ?? "search")) registerTool(server, tool, tc);
  registerResources(server, tc);
  return server;
}
