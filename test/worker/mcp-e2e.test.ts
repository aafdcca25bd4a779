/**
 * MCP end to end over the real pipeline: a fixture repo served by the loopback git server
 * (test/git-server.ts) is registered over REST, indexed by the queue consumer, then used through
 * the official MCP client; refresh_index starts a real re-index and respects the index scope.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { fixtureUrl, registerAndWait, waitForJob } from "./ingest-helpers";
import { call, connect, text } from "./mcp-client";

describe("MCP over an indexed git repo", () => {
  let admin: Client;
  beforeAll(async () => {
    const s = await registerAndWait({ url: fixtureUrl(), name: "fx-mcp" });
    expect(s.status, s.lastError ?? "").toBe("ready");
    admin = await connect();
  });

  it("searches, reads, finds symbols and references in what the pipeline indexed", async () => {
    const hits = await call(admin, "search_code", { query: "compute the invoice total with tax", repo: "fx-mcp", k: 3 });
    expect(hits.isError, text(hits)).toBeFalsy();
    expect(hits.structuredContent?.results[0]).toMatchObject({ path: "lib/invoice.py", startLine: 1 });

    const def = await call(admin, "find_symbol", { name: "getUserById", repo: "fx-mcp" });
    const found = def.structuredContent?.symbols[0];
    expect(found).toMatchObject({ path: "src/users.ts", match: "exact" });

    const read = await call(admin, "read_file", { repo: "fx-mcp", path: "src/users.ts", start_line: found.startLine, end_line: found.endLine });
    expect(text(read)).toContain("export function getUserById(id: string) {");

    const refs = await call(admin, "find_references", { symbol: "db", repo: "fx-mcp" });
    expect(refs.structuredContent?.references.map((r: { path: string }) => r.path)).toEqual(expect.arrayContaining(["src/db.ts", "src/users.ts"]));

    const outline = await call(admin, "get_file_outline", { repo: "fx-mcp", path: "src/users.ts" });
    expect(outline.structuredContent?.symbols.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(["getUserById", "deleteUser"]));

    const skipped = await call(admin, "read_file", { repo: "fx-mcp", path: "config/deploy-key.txt" });
    expect(skipped._meta?.["codebase-copilot/error"]?.code).toBe("file_not_found");
  });

  it("refresh_index re-indexes with the index scope and is refused without it", async () => {
    const r = await call(admin, "refresh_index", { repo: "fx-mcp" });
    expect(r.isError, text(r)).toBeFalsy();
    expect(text(r)).toContain("Re-index started. fx-mcp:");
    const done = await waitForJob("fx-mcp", r.structuredContent?.job?.id);
    expect(done.status).toBe("ready");
    expect(done.progress.filesDone).toBe(0); // unchanged commit: nothing re-processed

    const created = await api("/api/tokens", { method: "POST", json: { name: "mcp reader", scopes: ["search"] } });
    expect(created.status).toBe(201);
    const reader = await connect(((await created.json()) as { token: string }).token);
    const status = await call(reader, "get_index_status", { repo: "fx-mcp" });
    expect(status.structuredContent?.status).toBe("ready");
    // Without the index scope the tool is not listed (issue 51), and a call by name is refused.
    expect((await reader.listTools()).tools.map((t) => t.name)).not.toContain("refresh_index");
    const refused = await call(reader, "refresh_index", { repo: "fx-mcp" }).then(
      (r) => text(r),
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/Tool refresh_index not found/);
  });
});
