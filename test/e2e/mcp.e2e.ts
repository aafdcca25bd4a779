/**
 * End-to-end test of the remote MCP endpoint over real HTTP (`npm run test:e2e`): starts the
 * service as `npm start` does, indexes a small fixture, and drives `/mcp` with the official
 * MCP client (`@modelcontextprotocol/sdk` Client + StreamableHTTPClientTransport), with the
 * admin bearer token as a headless agent would send it: initialize, list tools with their
 * schemas, call tools with good and bad input; and checks that a client without a token gets
 * the OAuth challenge; and runs the MCP Inspector CLI's strict schema lint on the live tool list.
 * Port from E2E_MCP_PORT (default 8796).
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { formatFindings, inspectorStrictToolsList } from "./inspector-strict.ts";
import { withIndexedServer } from "./server.ts";

const PORT = Number(process.env.E2E_MCP_PORT ?? 8796);
const REPO = "e2e-ledger";

type ToolResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, any> };

function writeFixture(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(
    join(dir, "src", "ledger.py"),
    [
      '"""Double-entry ledger."""',
      "",
      "",
      "class Ledger:",
      '    """Keeps balanced journal entries."""',
      "",
      "    def __init__(self):",
      "        self.entries = []",
      "",
      "    def post_entry(self, debit, credit, amount):",
      '        """Posts one balanced entry; rejects non-positive amounts."""',
      "        if amount <= 0:",
      '            raise ValueError("amount must be positive")',
      "        self.entries.append((debit, credit, amount))",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "src", "report.py"),
    "from src.ledger import Ledger\n\n\ndef trial_balance(ledger: Ledger):\n    return sum(a for _, _, a in ledger.entries)\n",
  );
}

async function connect(base: string, token: string): Promise<Client> {
  const client = new Client({ name: "mcp-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

async function main(): Promise<void> {
  await withIndexedServer(PORT, REPO, writeFixture, async ({ base, token }) => {
    const unauthenticated = await fetch(`${base}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(unauthenticated.status, 401);
    assert.match(unauthenticated.headers.get("www-authenticate") ?? "", /resource_metadata=/);

    const client = await connect(base, token);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name).sort();
      for (const expected of [
        "search_code",
        "read_file",
        "find_symbol",
        "find_references",
        "get_file_outline",
        "get_code_context",
        "list_repos",
        "get_index_status",
        "refresh_index",
        "search",
        "fetch",
      ]) {
        assert.ok(names.includes(expected), `tool ${expected} is listed (got ${names.join(", ")})`);
      }
      for (const t of tools) {
        assert.ok(t.inputSchema && t.outputSchema, `${t.name} declares input and output schemas`);
        assert.equal(t.annotations?.readOnlyHint, t.name !== "refresh_index", `${t.name} readOnlyHint`);
      }

      // The real MCP Inspector CLI's schema-portability lint (issue #51): no error, no warning.
      const started = Date.now();
      const inspected = await inspectorStrictToolsList(`${base}/mcp`, token);
      assert.deepEqual(inspected.toolNames.sort(), names, "the Inspector lists the same tools");
      const findings = inspected.findings.flatMap((t) => t.findings).length;
      assert.equal(findings, 0, `MCP Inspector --strict: ${findings} findings:\n${formatFindings(inspected.findings)}`);
      console.log(`mcp e2e: MCP Inspector --strict clean for ${names.length} tools (${Date.now() - started} ms)`);

      const search = (await client.callTool({ name: "search_code", arguments: { query: "post a balanced journal entry", repo: REPO, k: 3 } })) as ToolResult;
      assert.ok(!search.isError, JSON.stringify(search.content));
      const top = search.structuredContent!.results[0];
      assert.equal(top.path, "src/ledger.py");
      assert.ok(top.startLine <= 10 && top.endLine >= 14, `top hit ${top.startLine}-${top.endLine} covers post_entry (10-14)`);

      const read = (await client.callTool({ name: "read_file", arguments: { repo: REPO, path: "src/ledger.py", start_line: 10, end_line: 11 } })) as ToolResult;
      assert.ok(!read.isError);
      assert.match(read.content.map((c) => c.text).join("\n"), /10.*def post_entry/);

      const symbol = (await client.callTool({ name: "find_symbol", arguments: { name: "Ledger", repo: REPO } })) as ToolResult;
      assert.ok(!symbol.isError);
      assert.match(JSON.stringify(symbol.structuredContent), /"kind":"class"/);

      const unknownRepo = (await client.callTool({ name: "read_file", arguments: { repo: "nope", path: "x" } })) as ToolResult;
      assert.equal(unknownRepo.isError, true);
      assert.match(unknownRepo.content.map((c) => c.text).join("\n"), new RegExp(`Unknown repo "nope".*${REPO}`));

      const bad = (await client.callTool({ name: "search_code", arguments: { query: "ledger", k: 99 } })) as ToolResult;
      assert.equal(bad.isError, true, "k above 25 is refused by the input schema");
      assert.match(bad.content.map((c) => c.text).join("\n"), /\bk\b/);
      console.log(`mcp e2e: ok (${tools.length} tools over ${base}/mcp)`);
    } finally {
      await client.close();
    }
  });
}

main().catch((err: unknown) => {
  console.error("mcp e2e: FAILED\n", err);
  process.exitCode = 1;
});
