/**
 * The official MCP client (`@modelcontextprotocol/sdk` Client over
 * StreamableHTTPClientTransport) wired to the Worker under test: through `SELF.fetch`, or
 * through the Worker's own `fetch` with a changed env (e.g. a scripted model's key).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { createExecutionContext, env, SELF } from "cloudflare:test";
import type { Env } from "../../kernel/env";
import worker from "../../worker/index";

/** A tool result as the tests read it. */
export type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

/**
 * Fetch that sends every client request to the Worker, with the Host header and a bearer token:
 * through `SELF.fetch`, or with `withEnv` straight into the Worker's handler with that env.
 */
export function workerFetch(token: string | null, withEnv?: Env): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const headers = new Headers(req.headers);
    headers.set("host", new URL(req.url).host);
    if (token) headers.set("authorization", `Bearer ${token}`);
    const body = req.body ? await req.text() : undefined;
    if (!withEnv) return SELF.fetch(req.url, { method: req.method, headers, body });
    const request = new Request(req.url, { method: req.method, headers, body }) as Request<unknown, IncomingRequestCfProperties>;
    return worker.fetch(request, withEnv, createExecutionContext());
  }) as typeof fetch;
}

/**
 * A connected client; the default token is the local admin's, `withEnv` replaces the Worker's env.
 * The cfworker validator avoids ajv's code generation, which workerd forbids.
 */
export async function connect(token: string | null = env.ADMIN_TOKEN ?? null, withEnv?: Env): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch: workerFetch(token, withEnv) }));
  return client;
}

/** Calls a tool. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** The text content of a result. */
export const text = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
