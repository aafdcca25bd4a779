/**
 * The auth matrix for a person (issue #48 finding 1): a reader signed in through the code host
 * who may read repo A (`open-repo`) but not repo B (`secret-repo`), both on admin access lists
 * (PATCH /api/repos/{id}). Every REST route (enumerated from the Hono app) and every MCP tool
 * (enumerated from tools/list) and resource aimed at B answers without B's data, while the same
 * person reads A (so the matrix would notice a rule that hides everything).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { createExecutionContext, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../kernel/env";
import { createSession } from "../../worker/auth/sessions";
import { handleMcpRequest } from "../../worker/mcp/handler";
import { withReadable } from "../../worker/permissions/readable";
import type { Caller } from "../../worker/services/context";
import { api } from "../helpers";
import { call, expectNoData, routes, SECRET_MARKER, SECRET_PATH } from "./auth-matrix-routes";
import { chunk, indexFixture } from "./search-fixture";

const PAT: Caller = { id: "github:pat", kind: "session", scopes: ["search"], repos: "*", person: { principal: "github:pat", role: "reader" } };
const OPEN_MARKER = "zebraquokka hello";

/**
 * An MCP client speaking for `caller` through the two steps the /mcp gate takes after
 * authentication (worker/auth/provider.ts `mcpGate`): load its readable repos, then serve.
 */
async function personMcp(caller: Caller): Promise<Client> {
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const headers = new Headers(req.headers);
    headers.set("host", "localhost");
    const request = new Request(req.url, { method: req.method, headers, body: req.body ? await req.text() : undefined });
    return handleMcpRequest(request, env as unknown as Env, createExecutionContext(), await withReadable(env.DB, caller, Date.now()));
  }) as typeof fetch;
  const client = new Client({ name: "matrix-person", version: "1.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch: fetchFn }));
  return client;
}

/** Arguments aimed at `repo` for any tool: only the properties its input schema names. */
function argsFor(properties: Record<string, unknown>, repo: string): Record<string, unknown> {
  const all: Record<string, unknown> = {
    repo,
    repos: [repo],
    query: "zebraquokka",
    q: "zebraquokka",
    pattern: "zebraquokka",
    path: repo === "secret-repo" ? SECRET_PATH : "src/hello.ts",
    name: "vaultKey",
    symbol: "vaultKey",
    line: 2,
    id: `${repo}:${repo === "secret-repo" ? SECRET_PATH : "src/hello.ts"}`,
    question: "where is zebraquokka?",
    diff: `--- a/${SECRET_PATH}\n+++ b/${SECRET_PATH}\n@@ -1,1 +1,1 @@\n-x\n+y\n`,
  };
  return Object.fromEntries(Object.keys(properties).flatMap((k) => (k in all ? [[k, all[k]]] : [])));
}

describe("auth matrix: a person who may read repo A but not repo B", () => {
  let cookie = "";
  let csrf = "";

  beforeAll(async () => {
    await indexFixture("secret-repo", "c".repeat(40), [
      { path: SECRET_PATH, chunks: [chunk("function", 1, `export function vaultKey() {\n  return "${SECRET_MARKER}"; // zebraquokka\n}`, "vaultKey")] },
    ]);
    await indexFixture("open-repo", "d".repeat(40), [
      { path: "src/hello.ts", chunks: [chunk("function", 1, `export function hello() {\n  return '${OPEN_MARKER}';\n}`, "hello")] },
    ]);
    expect((await api("/api/repos/secret-repo", { method: "PATCH", json: { access: { users: ["quinn"], teams: ["acme/vault"] } } })).status).toBe(200);
    expect((await api("/api/repos/open-repo", { method: "PATCH", json: { access: { users: ["pat"] } } })).status).toBe(200);
    const { session, setCookie } = await createSession(env.DB, PAT, "pat", 3600, Date.now());
    cookie = setCookie.split(";")[0];
    csrf = session.csrfToken;
  });

  it("reads repo A through REST and MCP (the control)", async () => {
    const res = await call("GET", "/api/search?q=zebraquokka", undefined, { cookie });
    const body = await res.text();
    expect(res.status, body).toBe(200);
    expect(body).toContain(OPEN_MARKER);
    expectNoData(body);
    const client = await personMcp(PAT);
    const r = await client.callTool({ name: "search_code", arguments: { query: "zebraquokka" } });
    expect(JSON.stringify(r)).toContain("open-repo");
    expect(JSON.stringify(r)).not.toContain(SECRET_MARKER);
  });

  it("gets no data of repo B from any REST route", async () => {
    const checked = [];
    for (const r of routes()) {
      const res = await call(r.method, r.url, undefined, { cookie, "x-csrf-token": csrf });
      const text = await res.text();
      expectNoData(text);
      if (r.path.includes(":id") || r.path.includes(":repo")) expect([403, 404], `${r.method} ${r.path} -> ${text}`).toContain(res.status);
      checked.push(`${r.method} ${r.path}`);
    }
    expect(checked.length).toBeGreaterThan(20);
  });

  it("gets no data of repo B from any MCP tool or resource", async () => {
    const client = await personMcp(PAT);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    for (const t of tools) {
      const args = argsFor(t.inputSchema.properties ?? {}, "secret-repo");
      const r = await client.callTool({ name: t.name, arguments: args }).catch((err: Error) => ({ error: err.message }));
      const text = JSON.stringify(r);
      expect(text, t.name).not.toContain(SECRET_MARKER);
      expect(text, t.name).not.toContain("vault/keys");
    }
    const { resources } = await client.listResources().catch(() => ({ resources: [] as { uri: string }[] }));
    expect(JSON.stringify(resources)).not.toContain("secret-repo");
    const repos = JSON.stringify(await client.readResource({ uri: "codebase://repos" }));
    expect(repos).toContain("open-repo");
    expect(repos).not.toContain("secret-repo");
    const files = await client.readResource({ uri: "codebase://secret-repo/files" }).catch((err: Error) => ({ error: err.message }));
    expect(JSON.stringify(files)).not.toContain("vault/keys");
    expect(JSON.stringify(await client.readResource({ uri: "codebase://open-repo/files" }))).toContain("src/hello.ts");
  });

  it("lets a member of a listed team read repo B (team principals), and the local admin always", async () => {
    const member: Caller = { ...PAT, id: "github:vic", person: { principal: "github:vic", role: "reader", teams: ["acme/vault"] } };
    const client = await personMcp(member);
    const r = await client.callTool({ name: "read_file", arguments: { repo: "secret-repo", path: SECRET_PATH } });
    expect(JSON.stringify(r)).toContain(SECRET_MARKER);
    expect(await (await api("/api/search?q=zebraquokka&repo=secret-repo")).text()).toContain(SECRET_MARKER);
  });
});
