/**
 * The official MCP client (`@modelcontextprotocol/sdk` Client over
 * StreamableHTTPClientTransport) wired to the Worker under test through `SELF.fetch`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { env, SELF } from "cloudflare:test";

/** A tool result as the tests read it. */
export type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

/** Fetch that sends every client request to the Worker, with the Host header and a bearer token. */
export function workerFetch(token: string | null): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const headers = new Headers(req.headers);
    headers.set("host", new URL(req.url).host);
    if (token) headers.set("authorization", `Bearer ${token}`);
    return SELF.fetch(req.url, { method: req.method, headers, body: req.body ? await req.text() : undefined });
  }) as typeof fetch;
}

/** A connected client; the default token is the local admin's. The cfworker validator avoids ajv's code generation, which workerd forbids. */
export async function connect(token: string | null = env.ADMIN_TOKEN ?? null): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch: workerFetch(token) }));
  return client;
}

/** Calls a tool. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** The text content of a result. */
export const text = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
