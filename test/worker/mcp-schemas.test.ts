/**
 * What `tools/list` tells a client, as the official MCP client reads it from the Worker: every
 * tool's input and output schema passes the MCP Inspector's strict portability check
 * (test/schema-portability.ts), the listing stays small, and a caller sees only the tools its
 * scopes let it call.
 */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { lintToolSchemas } from "../schema-portability";
import { connect } from "./mcp-client";
import { seedFixture } from "./mcp-fixture";

/**
 * Most bytes of the `tools/list` result and of its output schemas (compact JSON). Before issue
 * 51 they were 63,858 and 45,888 (field descriptions, zod's ±2^53-1 integer bounds and
 * `additionalProperties: false` in every output object); after, 42,988 and 25,180. Issue 50 then
 * added find_references' `definition` argument and the classified occurrences (45,168 bytes) and
 * the suggest_tests tool (47,521 and 27,251 bytes). Issue 49 added file_history, blame and
 * search_commits (54,619 and 30,293 bytes), then each repo status's tracked refs (`refs`,
 * `refPatterns`, `refsNote`, docs/refs.md) in the three tools that return one (57,360 and 33,034 bytes).
 */
const TOOLS_LIST_MAX_BYTES = 58_500;
const OUTPUT_SCHEMAS_MAX_BYTES = 34_000;

async function mintToken(scopes: string[]): Promise<string> {
  const res = await SELF.fetch("http://localhost/api/tokens", {
    method: "POST",
    headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
    body: JSON.stringify({ name: `mcp-schemas ${scopes.join("+")}`, scopes }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/**
 * Room for issue 49's read side on top of the caps above: the `ref` argument of 14 tools and the
 * `ref` and `commit` of their results, 3,161 and 1,645 bytes (57,780 and 31,938 bytes measured
 * before the tracked refs in the status; 59,847 and 34,005 with them, on branch refs-query).
 */
const REF_ARGUMENT_BYTES = 3_500;
const REF_RESULT_BYTES = 2_000;

describe("MCP tools/list", () => {
  beforeAll(async () => {
    await seedFixture();
  });

  it("passes the Inspector's strict schema check for every tool, input and output", async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.length).toBeGreaterThan(10);
    const findings = tools.flatMap((t) => lintToolSchemas(t).map((f) => `${t.name} ${f.severity} ${f.rule} at ${f.where}`));
    expect(findings).toEqual([]);
  });

  it("keeps the listing small", async () => {
    const { tools } = await (await connect()).listTools();
    const bytes = new TextEncoder().encode(JSON.stringify({ tools })).length;
    const outputBytes = new TextEncoder().encode(JSON.stringify(tools.map((t) => t.outputSchema))).length;
    console.log(`tools/list: ${bytes} bytes, output schemas ${outputBytes} bytes`);
    expect(bytes).toBeLessThan(TOOLS_LIST_MAX_BYTES + REF_ARGUMENT_BYTES);
    expect(outputBytes).toBeLessThan(OUTPUT_SCHEMAS_MAX_BYTES + REF_RESULT_BYTES);
  });

  it("lists only the tools the caller's scopes allow", async () => {
    const admin = (await (await connect()).listTools()).tools.map((t) => t.name);
    expect(admin).toEqual(expect.arrayContaining(["refresh_index", "review_diff", "search_code"]));

    const searchOnly = await connect(await mintToken(["search"]));
    const names = (await searchOnly.listTools()).tools.map((t) => t.name);
    expect(names).toContain("search_code");
    expect(names).not.toContain("refresh_index");
    expect(names).not.toContain("review_diff");
    expect(names).toEqual(admin.filter((n) => n !== "refresh_index" && n !== "review_diff"));

    const indexer = await connect(await mintToken(["search", "index"]));
    expect((await indexer.listTools()).tools.map((t) => t.name)).toEqual(admin);
  });
});
