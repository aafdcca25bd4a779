/**
 * The MCP endpoint with the official client (`@modelcontextprotocol/sdk` Client over
 * StreamableHTTPClientTransport), routed to the Worker through `SELF.fetch`.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { call, connect, text } from "./mcp-client";
import { seedFixture } from "./mcp-fixture";

/** Text of the first content of a resources/read result. */
function resourceText(r: { contents: ({ text: string } | { blob: string })[] }): string {
  const c = r.contents[0];
  return "text" in c ? c.text : "";
}

describe("MCP endpoint", () => {
  let client: Client;
  beforeAll(async () => {
    await seedFixture();
    client = await connect();
  });

  it("initializes and lists every tool with input and output schemas and annotations", async () => {
    expect(client.getServerVersion()?.name).toBe("codebase-copilot");
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "search_code",
        "read_file",
        "get_code_context",
        "find_symbol",
        "find_references",
        "get_file_outline",
        "search",
        "fetch",
        "suggest_tests",
      ]),
    );
    for (const t of tools) {
      expect(t.description?.length, t.name).toBeGreaterThan(40);
      expect(t.inputSchema.type, t.name).toBe("object");
      expect(t.outputSchema?.type, t.name).toBe("object");
      expect(t.annotations?.readOnlyHint, t.name).toBe(t.name !== "refresh_index");
    }
    const read = tools.find((t) => t.name === "read_file")!;
    expect(read.inputSchema.required).toEqual(["repo", "path"]);
    expect(Object.keys(read.inputSchema.properties ?? {})).toEqual(["repo", "ref", "path", "start_line", "end_line"]);
  });

  it("read_file returns numbered lines, and the next range for long files", async () => {
    const r = await call(client, "read_file", { repo: "demo", path: "src/users.ts", start_line: 7, end_line: 9 });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent?.lines).toEqual([
      { n: 7, text: "  getUserById(id: string) {" },
      { n: 8, text: "    return db.users.find(this.prefix + id);" },
      { n: 9, text: "  }" },
    ]);
    expect(r.structuredContent?.next).toBeNull();
    expect(text(r)).toContain("7    getUserById(id: string) {");

    const big = await call(client, "read_file", { repo: "demo", path: "src/big.ts" });
    expect(big.structuredContent?.lines).toHaveLength(400);
    expect(big.structuredContent?.next).toEqual({ start_line: 401, end_line: 800 });
    expect(text(big)).toContain("call read_file with start_line 401, end_line 800");
  });

  it("read_file errors say what to do next", async () => {
    const unknownRepo = await call(client, "read_file", { repo: "nope", path: "x.ts" });
    expect(unknownRepo.isError).toBe(true);
    expect(text(unknownRepo)).toContain('Unknown repo "nope". Available: demo, other, pending.');
    expect(unknownRepo._meta?.["codebase-copilot/error"]).toEqual({ code: "repo_not_found", retryable: false });

    const missing = await call(client, "read_file", { repo: "demo", path: "users.ts" });
    expect(text(missing)).toContain("Did you mean: src/users.ts?");

    const pending = await call(client, "read_file", { repo: "pending", path: "a.ts" });
    expect(pending._meta?.["codebase-copilot/error"]?.code).toBe("index_not_ready");

    const badArgs = await call(client, "read_file", { repo: "demo", path: "src/users.ts", start_line: 0 });
    expect(badArgs.isError).toBe(true);
    expect(text(badArgs)).toMatch(/start_line/);

    const pastEnd = await call(client, "read_file", { repo: "demo", path: "src/users.ts", start_line: 500 });
    expect(text(pastEnd)).toContain("past the end");
  });

  it("never serves files of an older snapshot", async () => {
    const sym = await call(client, "find_symbol", { name: "retiredHelper" });
    expect(sym.structuredContent?.symbols).toEqual([]);
    const refs = await call(client, "find_references", { symbol: "retiredHelper" });
    expect(refs.structuredContent?.total_count).toBe(0);
  });

  it("get_code_context by chunk id and by line", async () => {
    const sym = await call(client, "find_symbol", { name: "listUsers", repo: "demo" });
    const chunkId = sym.structuredContent?.symbols[0].chunkId;
    expect(chunkId).toBeTruthy();
    const byId = await call(client, "get_code_context", { chunk_id: chunkId, before: 1, after: 1 });
    expect(byId.isError).toBeFalsy();
    expect(byId.structuredContent).toMatchObject({
      repo: "demo",
      path: "src/users.ts",
      startLine: 10,
      endLine: 14,
      chunk: { symbol: "listUsers", container: "UserService" },
    });
    expect(byId.structuredContent?.previousChunk?.symbol).toBe("getUserById");
    expect(byId.structuredContent?.nextChunk?.startLine).toBe(16);

    const byLine = await call(client, "get_code_context", { repo: "demo", path: "src/app.ts", line: 4 });
    expect(byLine.structuredContent).toMatchObject({ window: "chunk", chunk: { symbol: "handler" }, startLine: 1, endLine: 7 });

    // Issue 50: line + before/after is exactly that window, not the chunk widened (was 1-103 here).
    const window = await call(client, "get_code_context", { repo: "demo", path: "src/big.ts", line: 34, before: 3, after: 3 });
    expect(window.structuredContent?.lines.map((l: { n: number }) => l.n)).toEqual([31, 32, 33, 34, 35, 36, 37]);
    expect(window.structuredContent).toMatchObject({ window: "lines", startLine: 31, endLine: 37, chunk: { startLine: 1, endLine: 100 } });
    expect(text(window)).toContain("in chunk: window (no symbol) lines 1-100");
    const oneSided = await call(client, "get_code_context", { repo: "demo", path: "src/app.ts", line: 6, after: 9 });
    expect(oneSided.structuredContent).toMatchObject({ window: "lines", startLine: 6, endLine: 7, chunk: { symbol: "handler" } });

    const neither = await call(client, "get_code_context", { repo: "demo" });
    expect(text(neither)).toContain("Pass either chunk_id");
    const stale = await call(client, "get_code_context", { chunk_id: "ffff-0" });
    expect(stale._meta?.["codebase-copilot/error"]?.code).toBe("file_not_found");
  });

  it("find_symbol ranks exact before case-insensitive and prefix, lists members, suggests near names", async () => {
    const r = await call(client, "find_symbol", { name: "UserService", repo: "demo" });
    const [cls] = r.structuredContent?.symbols ?? [];
    expect(cls).toMatchObject({ path: "src/users.ts", kind: "class", doc: "Loads users.", startLine: 3, endLine: 14, match: "exact" });
    expect(cls.members.map((m: { name: string }) => m.name)).toEqual(["constructor", "getUserById", "listUsers"]);

    const lower = await call(client, "find_symbol", { name: "getuserbyid", repo: "demo" });
    expect(lower.structuredContent?.symbols.map((s: { match: string }) => s.match)).toEqual(["case_insensitive", "case_insensitive"]);

    const prefix = await call(client, "find_symbol", { name: "getUser", kind: "function", repo: "demo" });
    expect(prefix.structuredContent?.symbols).toHaveLength(1);
    expect(prefix.structuredContent?.symbols[0]).toMatchObject({ name: "getUserById", kind: "function", match: "prefix" });

    const none = await call(client, "find_symbol", { name: "listUser2" });
    expect(none.structuredContent?.symbols).toEqual([]);
    expect(none.structuredContent?.suggestions).toContain("listUsers");
    expect(text(none)).toContain("Did you mean: listUsers");

    const badKind = await call(client, "find_symbol", { name: "x", kind: "banana" });
    expect(badKind.isError).toBe(true);
  });

  it("find_references finds whole-word occurrences with enclosing symbols and paginates", async () => {
    const r = await call(client, "find_references", { symbol: "getUserById", repo: "demo", limit: 3 });
    const s = r.structuredContent!;
    // users.ts: method name (7), function name (16), call (17); app.ts: import (1), call (4). Not getUserByIdentity / my_getUserById.
    expect(s.total_count).toBe(5);
    expect(s.references.map((x: { path: string; line: number }) => `${x.path}:${x.line}`)).toEqual(["src/app.ts:1", "src/app.ts:4", "src/users.ts:7"]);
    expect(s.references[1]).toMatchObject({ column: 16, definition: false, enclosing: { name: "handler", kind: "function" } });
    expect(s.references[2]).toMatchObject({ definition: true, enclosing: { name: "UserService", kind: "class" } });
    expect(s).toMatchObject({ has_more: true, next_offset: 3 });
    const page2 = await call(client, "find_references", { symbol: "getUserById", repo: "demo", limit: 3, offset: 3 });
    expect(page2.structuredContent?.references.map((x: { line: number }) => x.line)).toEqual([16, 17]);
    expect(page2.structuredContent?.references[1]).toMatchObject({ definition: false, enclosing: { name: "getUserById", kind: "function" } });
    expect(page2.structuredContent).toMatchObject({ has_more: false, next_offset: null });

    const bad = await call(client, "find_references", { symbol: "a b" });
    expect(text(bad)).toContain("not an identifier or a qualified name");
    const qualified = await call(client, "find_references", { symbol: "a.b" });
    expect(qualified._meta?.["codebase-copilot/error"]?.code).toBe("not_found");
  });

  it("get_file_outline lists imports and symbols, paginating large files", async () => {
    const r = await call(client, "get_file_outline", { repo: "demo", path: "src/users.ts" });
    expect(r.structuredContent?.imports).toEqual(['import { db } from "./db";']);
    expect(r.structuredContent?.symbols.map((s: { name: string }) => s.name)).toEqual([
      "UserService",
      "constructor",
      "getUserById",
      "listUsers",
      "getUserById",
    ]);
    const big = await call(client, "get_file_outline", { repo: "demo", path: "src/big.ts" });
    expect(big.structuredContent).toMatchObject({ total_count: 1000, has_more: true, next_offset: 300 });
    expect(big.structuredContent?.symbols).toHaveLength(300);
    const last = await call(client, "get_file_outline", { repo: "demo", path: "src/big.ts", offset: 900 });
    expect(last.structuredContent).toMatchObject({ has_more: false, next_offset: null });
    expect(last.structuredContent?.symbols[99].name).toBe("v1000");
  });

  it("search_code returns ranked chunks with citations, ranks and confidence", async () => {
    const r = await call(client, "search_code", { query: "listUsers", repo: "demo", k: 3 });
    expect(r.isError).toBeFalsy();
    const top = r.structuredContent?.results[0];
    expect(top).toMatchObject({ repo: "demo", path: "src/users.ts", startLine: 11, endLine: 13, symbol: "listUsers" });
    expect(Object.keys(top.ranks).length).toBeGreaterThan(0);
    expect(r.structuredContent?.confidence.level).toMatch(/high|low/);
    expect(text(r)).toContain("1. demo:src/users.ts:11-13 method listUsers");
    expect(text(r)).toContain("11    listUsers() {");

    const tooMany = await call(client, "search_code", { query: "x", k: 26 });
    expect(tooMany.isError).toBe(true);
    const unknown = await call(client, "search_code", { query: "x", repo: "nope" });
    expect(text(unknown)).toContain('Unknown repo "nope"');
  });

  it("search_code with explain: true gives each result's channel ranks, fused score and stage factors", async () => {
    const r = await call(client, "search_code", { query: "listUsers", repo: "demo", k: 3, explain: true });
    expect(r.isError).toBeFalsy();
    const top = r.structuredContent?.results[0];
    expect(top.explain.ranks).toEqual(top.ranks);
    expect(top.explain.fused).toBeGreaterThan(0);
    expect(top.explain.stages.map((s: { stage: string }) => s.stage)).toEqual(["coverage", "support", "option", "message", "qualified", "imports"]);
    const product = top.explain.stages.reduce((p: number, s: { factor: number }) => p * s.factor, top.explain.fused);
    expect(product).toBeCloseTo(top.score, 4);
    const plain = await call(client, "search_code", { query: "listUsers", repo: "demo", k: 3 });
    expect(plain.structuredContent?.results[0].explain).toBeUndefined();
  });

  it("search and fetch work together in the connector shape", async () => {
    const r = await call(client, "search", { query: "listUsers" });
    const body = JSON.parse(text(r));
    expect(body).toEqual(r.structuredContent);
    const hit = body.results.find((x: { id: string }) => x.id === "demo:src/users.ts:11-13");
    expect(hit).toBeTruthy();
    expect(hit.url).toMatch(/^http:\/\/localhost\/source\/demo\/src\/users\.ts\?exp=\d+&cred=[\w%.-]+&sig=[\w-]+#L11-L13$/);
    const page = await SELF.fetch(hit.url.replace(/#.*/, ""));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("listUsers");
    const doc = await call(client, "fetch", { id: hit.id });
    expect(doc.structuredContent?.text).toContain("11    listUsers() {");
  });

  it("list_repos, get_index_status and the resources describe the repos", async () => {
    const list = await call(client, "list_repos", {});
    expect(list.structuredContent?.repos.map((r: { id: string }) => r.id)).toEqual(["demo", "other", "pending"]);
    expect(text(list)).toContain("demo: ready; snapshot c2 indexed");
    expect(text(list)).toContain("pending: indexing, 0/0 files; no snapshot yet");

    const status = await call(client, "get_index_status", { repo: "pending" });
    expect(status.structuredContent).toMatchObject({ id: "pending", status: "indexing", snapshot: null });
    const unknown = await call(client, "get_index_status", { repo: "nope" });
    expect(text(unknown)).toContain('Unknown repo "nope". Available: demo, other, pending.');

    const repos = await client.readResource({ uri: "codebase://repos" });
    expect(JSON.parse(resourceText(repos)).repos.map((r: { id: string }) => r.id)).toEqual(["demo", "other", "pending"]);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(["codebase://{repo}/files", "codebase://{repo}/files{?offset}"]);
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toEqual(["codebase://repos", "codebase://demo/files", "codebase://other/files"]);
    const files = await client.readResource({ uri: "codebase://demo/files" });
    expect(resourceText(files)).toBe("src/app.ts\nsrc/big.ts\nsrc/users.ts");
    const page2 = await client.readResource({ uri: "codebase://demo/files?offset=2" });
    expect(resourceText(page2)).toBe("src/users.ts");
    await expect(client.readResource({ uri: "codebase://nope/files" })).rejects.toThrow(/Unknown repo "nope"/);
  });

  it("fetch returns the ChatGPT connector document shape", async () => {
    const r = await call(client, "fetch", { id: "demo:src/users.ts:16-18" });
    const doc = JSON.parse(text(r));
    expect(doc).toEqual(r.structuredContent);
    expect(doc).toMatchObject({ id: "demo:src/users.ts:16-18", title: "src/users.ts:16-18 (demo)" });
    expect(doc.url).toMatch(/^http:\/\/localhost\/source\/demo\/src\/users\.ts\?exp=\d+&cred=[\w%.-]+&sig=[\w-]+#L16-L18$/);
    expect(doc.text).toBe('16  export function getUserById(id: string) {\n17    return new UserService("u:").getUserById(id);\n18  }');
    expect(doc.metadata).toMatchObject({ repo: "demo", language: "typescript", commit: "c2", nextId: null });
    const bad = await call(client, "fetch", { id: "nocolon" });
    expect(text(bad)).toContain("is not a document id");
  });
});

describe("MCP transport guards", () => {
  it("refuses requests without credentials", async () => {
    await expect(connect(null)).rejects.toThrow();
    const res = await SELF.fetch("http://localhost/mcp", { method: "POST", headers: { host: "localhost", "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
  });

  it("refuses a foreign Host header (DNS rebinding)", async () => {
    const res = await SELF.fetch("http://localhost/mcp", {
      method: "POST",
      headers: {
        host: "evil.example",
        authorization: `Bearer ${env.ADMIN_TOKEN}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(res.status).toBe(403);
  });
});
