/**
 * The line-range tools accept each other's spelling (worker/mcp/input-aliases.ts): read_file's
 * canonical start_line/end_line, blame's and file_history's canonical start/end. Before, zod
 * dropped the unknown spelling and the tool answered for the whole file.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { HISTORY_FILE } from "../history-fixture";
import { fixtureUrl, registerAndWait } from "./ingest-helpers";
import { call, connect, text } from "./mcp-client";

const REPO = "hist-alias";

describe("line ranges in either spelling", () => {
  let client: Client;
  beforeAll(async () => {
    const done = await registerAndWait({ url: fixtureUrl("history"), name: REPO });
    expect(done.status, JSON.stringify(done.lastError)).toBe("ready");
    client = await connect();
  });

  const args = { repo: REPO, path: HISTORY_FILE };

  it("blame and file_history take start_line/end_line as start/end", async () => {
    const canonical = await call(client, "blame", { ...args, start: 4, end: 4 });
    const alias = await call(client, "blame", { ...args, start_line: 4, end_line: 4 });
    expect(alias.isError, text(alias)).toBeFalsy();
    expect(alias.structuredContent).toMatchObject({ start: 4, end: 4 });
    expect(alias.structuredContent).toEqual(canonical.structuredContent);
    const history = await call(client, "file_history", { ...args, start_line: 6, end_line: 6 });
    expect(history.isError, text(history)).toBeFalsy();
    expect(history.structuredContent).toEqual((await call(client, "file_history", { ...args, start: 6, end: 6 })).structuredContent);
    expect(history.structuredContent?.range).toEqual({ start: 6, end: 6 });
  });

  it("read_file takes start/end as start_line/end_line", async () => {
    const alias = await call(client, "read_file", { ...args, start: 2, end: 3 });
    expect(alias.isError, text(alias)).toBeFalsy();
    expect(alias.structuredContent).toMatchObject({ startLine: 2, endLine: 3 });
    expect(alias.structuredContent).toEqual((await call(client, "read_file", { ...args, start_line: 2, end_line: 3 })).structuredContent);
  });

  it("refuses both spellings with different values, naming the canonical one; lists only the canonical names", async () => {
    const both = await call(client, "blame", { ...args, start: 2, start_line: 4 });
    expect(both.isError).toBe(true);
    expect(text(both)).toContain("start_line: the same parameter as start; give start only");
    const { tools } = await client.listTools();
    const read = tools.find((t) => t.name === "read_file")!;
    expect(Object.keys(read.inputSchema.properties ?? {})).toEqual(["repo", "ref", "path", "start_line", "end_line"]);
    expect(read.description).toContain("Also accepted: start for start_line, end for end_line.");
    expect(tools.find((t) => t.name === "blame")!.description).toContain("Also accepted: start_line for start, end_line for end.");
  });
});
