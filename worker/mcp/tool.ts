/**
 * @module worker/mcp/tool
 *
 * The shape of one MCP tool (`defineTool`) and its registration on an `McpServer`
 * (`registerTool`). A tool is a thin adapter: its zod input schema is usually the service's
 * own, its handler calls the service and returns the structured result plus a concise text
 * rendering. Registration adds what every tool shares: errors become error tool results
 * (worker/mcp/errors.ts) and the text stays within the response budget (worker/mcp/budget.ts).
 */
import type { McpServer, ToolAnnotations } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { Scope, ServiceContext } from "../services/context";
import { capText } from "./budget";
import { toolErrorResult } from "./errors";
import { aliasesNote, withInputAliases, type InputAliases } from "./input-aliases";
import { portableSchema } from "./schema";

/** What a tool handler receives besides its input. */
export interface ToolContext {
  service: ServiceContext;
  /** Origin of the MCP endpoint, e.g. `https://copilot.example.com`, for links in results. */
  origin: string;
}

/** A tool's result: `structured` must satisfy the output schema; `text` is what a model reads. */
export interface ToolOutput<O> {
  structured: O;
  text: string;
}

/** One MCP tool: name, description, schemas, annotations and handler. */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: I;
  outputSchema: O;
  /** Whether the tool only reads. Everything except refresh_index does. */
  readOnly: boolean;
  /** The scope a caller needs to call it (default `search`); `tools/list` shows a caller only the tools it may call. */
  scope?: Scope;
  /** Other spellings of its parameters it accepts (worker/mcp/input-aliases.ts); listed with the canonical names only. */
  inputAliases?: InputAliases;
  handler(input: z.infer<I>, tc: ToolContext): Promise<ToolOutput<z.infer<O>>>;
}

/** Identity function that types a tool definition. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return tool;
}

/** Registers `tool` on `server`, bound to `tc`. */
export function registerTool(server: McpServer, tool: ToolDefinition, tc: ToolContext): void {
  const annotations: ToolAnnotations = {
    title: tool.title,
    readOnlyHint: tool.readOnly,
    // refresh_index only starts a re-index of the same source: repeatable, nothing destroyed.
    destructiveHint: false,
    idempotentHint: true,
    // Results come from this server's index only, not from the open web.
    openWorldHint: false,
  };
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.inputAliases ? `${tool.description} ${aliasesNote(tool.inputAliases)}` : tool.description,
      // Listed in the portable form (worker/mcp/schema.ts); validated by the zod schemas.
      inputSchema: portableSchema(tool.inputAliases ? withInputAliases(tool.inputSchema, tool.inputAliases) : tool.inputSchema, false),
      outputSchema: portableSchema(tool.outputSchema, true),
      annotations,
    },
    async (input: Record<string, unknown>) => {
      try {
        const out = await tool.handler(input, tc);
        return { structuredContent: out.structured as Record<string, unknown>, content: [{ type: "text", text: capText(tool.name, out.text) }] };
      } catch (err) {
        return toolErrorResult(tool.name, err);
      }
    },
  );
}
