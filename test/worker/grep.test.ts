/**
 * grep over REST (/api/grep) and MCP (`grep`, `list_files`), in workerd against D1 with the
 * trigram index written by the indexer's `writeFiles`: literal, regex, case, whole word, path
 * prefix and glob, multi-repo, per-repo visibility (counts included), bad patterns, a
 * pathological regex, paging by offset and cursor, and the scan fallback. The tree route's glob.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { indexDb } from "./ingest-helpers";
import { call, connect, text } from "./mcp-client";
import { chunk, indexFixture } from "./search-fixture";

async function grep(params: Record<string, unknown>, token?: string): Promise<{ status: number; body: any }> {
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  const res = await api("/api/grep", { method: "POST", json: params, headers });
  return { status: res.status, body: await res.json() };
}

/** (repo:path:line) of each match, the form the assertions compare. */
const where = (body: any) => body.matches.map((m: any) => `${m.repo}:${m.path}:${m.line}`);

const PARSER = [
  "export function parseSigned(input: string): number {",
  "  // TODO(security): reject overlong input",
  "  return Number.parseInt(input, 10);",
  "}",
  "",
  "export function parseSignedOrZero(input: string) {",
  "  return parseSigned(input) || 0;",
  "}",
].join("\n");

const ROUTES = ["import { parseSigned } from './parser';", "const PARSESIGNED_FLAG = true;", "export const route = (q: string) => parseSigned(q);"].join("\n");

/** A line of 40,000 a's then "b": exponential for a backtracking engine on (a+)+$, linear for RE2. */
const PATHOLOGICAL = `${"a".repeat(40_000)}b`;

describe("grep", () => {
  let tokenA: string;

  beforeAll(async () => {
    await indexFixture("grep-a", "a".repeat(40), [
      {
        path: "src/parser.ts",
        chunks: [
          chunk("function", 1, PARSER.split("\n").slice(0, 4).join("\n"), "parseSigned"),
          chunk("function", 5, PARSER.split("\n").slice(4).join("\n"), "parseSignedOrZero"),
        ],
      },
      { path: "src/routes/index.ts", chunks: [chunk("module", 1, ROUTES)] },
      { path: "proto/api/v1/user.proto", language: "text", chunks: [chunk("window", 1, 'syntax = "proto3";\nmessage User { string name = 1; }')] },
      { path: "proto/order.proto", language: "text", chunks: [chunk("window", 1, 'syntax = "proto3";\nmessage Order {}')] },
      { path: "test/parser.test.ts", chunks: [chunk("module", 1, "expect(parseSigned('-1')).toBe(-1);")] },
      { path: "data/long.txt", language: "text", chunks: [chunk("window", 1, PATHOLOGICAL)] },
    ]);
    await indexFixture("grep-b", "b".repeat(40), [
      {
        path: "lib/secret.py",
        language: "python",
        chunks: [chunk("function", 1, "def parse_signed(x):\n    # parseSigned port, TODO(security) too\n    return int(x)", "parse_signed")],
      },
    ]);
    const res = await api("/api/tokens", { method: "POST", json: { name: "grep-a only", scopes: ["search"], repos: ["grep-a"] } });
    tokenA = ((await res.json()) as { token: string }).token;
  });

  it("finds a literal across every visible repo, in (repo, path, line) order, with column, marked range and enclosing symbol", async () => {
    const r = await grep({ pattern: "parseSigned(" });
    expect(r.status).toBe(200);
    expect(where(r.body)).toEqual(["grep-a:src/parser.ts:1", "grep-a:src/parser.ts:7", "grep-a:src/routes/index.ts:3", "grep-a:test/parser.test.ts:1"]);
    expect(r.body).toMatchObject({
      total_count: 4,
      total_exact: true,
      has_more: false,
      next_offset: null,
      index: "trigram",
      truncated: false,
      scan_capped: false,
    });
    const first = r.body.matches[0];
    expect(first).toMatchObject({
      column: 17,
      text: PARSER.split("\n")[0],
      ranges: [[16, 28]],
      symbol: { name: "parseSigned", kind: "function", startLine: 1, endLine: 4 },
    });
    expect(r.body.matches[1].symbol.name).toBe("parseSignedOrZero");
    // The index narrowed the files: the proto, long and python files were never read.
    expect(r.body.filesScanned).toBeLessThan(5);
  });

  it("matches case-insensitively and whole words only when asked", async () => {
    const exact = await grep({ pattern: "parsesigned", repo: "grep-a" });
    expect(exact.body.total_count).toBe(0);
    const folded = await grep({ pattern: "parsesigned", repo: "grep-a", case_sensitive: false });
    expect(where(folded.body)).toEqual([
      "grep-a:src/parser.ts:1",
      "grep-a:src/parser.ts:6",
      "grep-a:src/parser.ts:7",
      "grep-a:src/routes/index.ts:1",
      "grep-a:src/routes/index.ts:2",
      "grep-a:src/routes/index.ts:3",
      "grep-a:test/parser.test.ts:1",
    ]);
    const word = await grep({ pattern: "parseSigned", repo: "grep-a", whole_word: true });
    // parseSignedOrZero (line 6) is no whole-word match; line 7's call is.
    expect(where(word.body)).toEqual([
      "grep-a:src/parser.ts:1",
      "grep-a:src/parser.ts:7",
      "grep-a:src/routes/index.ts:1",
      "grep-a:src/routes/index.ts:3",
      "grep-a:test/parser.test.ts:1",
    ]);
  });

  it("runs RE2 regexes with classes and alternation, marking every match of a line", async () => {
    const r = await grep({ pattern: "TODO\\((security|perf)\\)", regex: true });
    expect(where(r.body)).toEqual(["grep-a:src/parser.ts:2", "grep-b:lib/secret.py:2"]);
    const alt = await grep({ pattern: "parse(Signed|Int)\\b", regex: true, repo: "grep-a", path: "src/parser.ts" });
    expect(where(alt.body)).toEqual(["grep-a:src/parser.ts:1", "grep-a:src/parser.ts:3", "grep-a:src/parser.ts:7"]);
    // An inline (?i) folds case even though case_sensitive is true (the literal prefilter must not drop the line).
    const inline = await grep({ pattern: "(?i)todo\\(SECURITY\\)", regex: true, repo: "grep-a" });
    expect(where(inline.body)).toEqual(["grep-a:src/parser.ts:2"]);
    const cls = await grep({ pattern: "[A-Z_]{6,}_FLAG", regex: true });
    expect(cls.body.matches).toMatchObject([{ path: "src/routes/index.ts", line: 2, column: 7, ranges: [[6, 22]] }]);
    // "export function parseSigned(input: string): number {": both words marked.
    const twice = await grep({ pattern: "\\binput\\b|\\bstring\\b", regex: true, repo: "grep-a", path: "src/parser.ts" });
    expect(twice.body.matches[0]).toMatchObject({
      line: 1,
      column: 29,
      ranges: [
        [28, 33],
        [35, 41],
      ],
    });
  });

  it("filters by path prefix, glob (any depth without a slash), language and tests", async () => {
    const prefix = await grep({ pattern: "parseSigned", path: "src/routes/" });
    expect(where(prefix.body)).toEqual(["grep-a:src/routes/index.ts:1", "grep-a:src/routes/index.ts:3"]);
    const glob = await grep({ pattern: "proto3", path: "**/*.proto" });
    expect(where(glob.body)).toEqual(["grep-a:proto/api/v1/user.proto:1", "grep-a:proto/order.proto:1"]);
    const base = await grep({ pattern: "proto3", path: "*.proto" });
    expect(where(base.body)).toEqual(where(glob.body));
    const deep = await grep({ pattern: "proto3", path: "proto/*/*/*.proto" });
    expect(where(deep.body)).toEqual(["grep-a:proto/api/v1/user.proto:1"]);
    const py = await grep({ pattern: "parse", language: "python" });
    expect(where(py.body)).toEqual(["grep-b:lib/secret.py:1", "grep-b:lib/secret.py:2"]);
    const noTests = await grep({ pattern: "parseSigned(", include_tests: false });
    expect(where(noTests.body)).not.toContain("grep-a:test/parser.test.ts:1");
    expect(noTests.body.total_count).toBe(3);
  });

  it("greps the named repos only, and a token limited to one repo sees nothing of another (counts included)", async () => {
    const both = await grep({ pattern: "TODO(security)", repos: ["grep-b", "grep-a"] });
    expect(both.body.repos).toEqual(["grep-a", "grep-b"]);
    expect(both.body.total_count).toBe(2);

    const limited = await grep({ pattern: "TODO(security)" }, tokenA);
    expect(limited.status).toBe(200);
    expect(limited.body.repos).toEqual(["grep-a"]);
    expect(where(limited.body)).toEqual(["grep-a:src/parser.ts:2"]);
    expect(limited.body.total_count).toBe(1);
    expect(JSON.stringify(limited.body)).not.toContain("secret.py");

    for (const params of [
      { pattern: "parse", repo: "grep-b" },
      { pattern: "parse", repos: ["grep-a", "grep-b"] },
    ]) {
      const refused = await grep(params, tokenA);
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe("repo_not_found");
      expect(JSON.stringify(refused.body)).not.toMatch(/secret|parse_signed/);
    }
    // GET works the same way and with the same visibility.
    const get = await api(`/api/grep?pattern=${encodeURIComponent("TODO(security)")}`, { headers: { authorization: `Bearer ${tokenA}` } });
    expect(((await get.json()) as any).total_count).toBe(1);
  });

  it("refuses bad patterns and fields with 400 naming the position or the field", async () => {
    const open = await grep({ pattern: "a[b", regex: true });
    expect(open.status).toBe(400);
    expect(open.body.error).toMatchObject({ code: "invalid_input", details: { position: 1 } });
    expect(open.body.error.message).toMatch(/^pattern: missing closing \] at position 1/);
    const backref = await grep({ pattern: "(a)\\1", regex: true });
    expect(backref.body.error.message).toMatch(/^pattern: invalid escape sequence at position 3/);
    const lookahead = await grep({ pattern: "x(?=y)", regex: true });
    expect(lookahead.status).toBe(400);
    // The same text is a fine literal.
    expect((await grep({ pattern: "a[b" })).status).toBe(200);
    expect((await grep({ pattern: "" })).body.error.message).toMatch(/^pattern: /);
    expect((await grep({ pattern: "x", limit: 0 })).body.error.message).toMatch(/^limit: /);
    expect((await grep({ pattern: "x", cursor: "not-a-cursor" })).body.error.message).toMatch(/^cursor: /);
    expect((await grep({ pattern: "x", repo: "grep-a", repos: ["grep-b"] })).status).toBe(400);
    const get = await api("/api/grep?pattern=x&regex=maybe");
    expect(get.status).toBe(400);
  });

  it("runs a pathological regex in linear time and finds the no-literal scan, saying so", async () => {
    const r = await grep({ pattern: "(a+)+$", regex: true, path: "data/" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ index: "scan", total_count: 0, scan_capped: false, total_exact: true });
    const hit = await grep({ pattern: "(a|aa)+b", regex: true, path: "data/" });
    expect(hit.body.matches).toHaveLength(1);
    // The 40,001-character line comes back cut around the match, the range inside the cut.
    const m = hit.body.matches[0];
    expect(m).toMatchObject({ line: 1, column: 1, ranges: [[0, 300]] });
    expect(m.text).toBe(`${"a".repeat(300)}…`);
  });

  it("pages by offset and by cursor without losing or repeating a match", async () => {
    const all = await grep({ pattern: "parse", case_sensitive: false });
    expect(all.body.total_exact).toBe(true);
    const want = where(all.body);
    expect(want.length).toBeGreaterThan(5);
    const byOffset: string[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page: any = await grep({ pattern: "parse", case_sensitive: false, limit: 2, offset });
      byOffset.push(...where(page.body));
      expect(page.body.total_count).toBe(want.length);
      offset = page.body.next_offset;
    }
    expect(byOffset).toEqual(want);
    const byCursor: string[] = [];
    let cursor: string | undefined;
    do {
      const page: any = await grep({ pattern: "parse", case_sensitive: false, limit: 3, ...(cursor ? { cursor } : {}) });
      byCursor.push(...where(page.body));
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor);
    expect(byCursor).toEqual(want);
  });

  it("refuses a cursor passed with another query (pattern, flag, scope or ref) instead of resuming elsewhere", async () => {
    const first: any = await grep({ pattern: "parse", case_sensitive: false, limit: 2 });
    const cursor = first.body.next_cursor as string;
    expect(cursor).toBeTruthy();
    expect((await grep({ pattern: "parse", case_sensitive: false, limit: 5, cursor })).status).toBe(200);
    for (const changed of [{ pattern: "Parse" }, { case_sensitive: true }, { repos: ["grep-a"] }, { ref: "main" }]) {
      const r: any = await grep({ pattern: "parse", case_sensitive: false, limit: 2, cursor, ...changed });
      expect(r.status, JSON.stringify(changed)).toBe(400);
      expect(r.body.error.message, JSON.stringify(changed)).toMatch(/^cursor: this cursor belongs to another query; repeat the same query/);
    }
  });

  it("answers a ref over archives only with 404 ref_not_found saying archives have no refs", async () => {
    const r: any = await grep({ pattern: "parse", repos: ["grep-a"], ref: "main" });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("ref_not_found");
    expect(r.body.error.message).toContain('Repo "grep-a" was uploaded as an archive, which has no refs.');
  });

  it("scans files indexed without trigram rows instead of missing them", async () => {
    await (await indexDb("grep-b")).prepare("DELETE FROM grep_trigrams WHERE rowid IN (SELECT rowid FROM grep_docs WHERE repo = 'grep-b')").run();
    await (await indexDb("grep-b")).prepare("UPDATE grep_docs SET format = 0 WHERE repo = 'grep-b'").run();
    const r = await grep({ pattern: "parse_signed", repo: "grep-b" });
    expect(where(r.body)).toEqual(["grep-b:lib/secret.py:1"]);
  });

  it("takes a candidate's language and size from grep_docs, and from files for rows written before migration 0013", async () => {
    const before = await grep({ pattern: "parseSigned(", repo: "grep-a", language: "typescript" });
    expect(where(before.body)).toEqual(["grep-a:src/parser.ts:1", "grep-a:src/parser.ts:7", "grep-a:src/routes/index.ts:3", "grep-a:test/parser.test.ts:1"]);
    const meta = await (
      await indexDb("grep-a")
    )
      .prepare("SELECT count(*) AS n FROM grep_docs WHERE repo = 'grep-a' AND language = 'typescript' AND byte_size > 0")
      .first<{
        n: number;
      }>();
    expect(meta?.n).toBe(3);
    await (await indexDb("grep-a")).prepare("UPDATE grep_docs SET language = NULL, byte_size = NULL WHERE repo = 'grep-a'").run();
    const after = await grep({ pattern: "parseSigned(", repo: "grep-a", language: "typescript" });
    expect(where(after.body)).toEqual(where(before.body));
    expect(after.body.bytesScanned).toBe(before.body.bytesScanned);
    expect((await grep({ pattern: "parseSigned(", repo: "grep-a", language: "python" })).body.total_count).toBe(0);
  });

  it("serves the same grep over MCP, and list_files and the tree route take a glob", async () => {
    const client = await connect();
    const tools = await client.listTools();
    const tool = tools.tools.find((t) => t.name === "grep");
    expect(tool?.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining([
        "pattern",
        "regex",
        "case_sensitive",
        "whole_word",
        "repo",
        "repos",
        "path",
        "language",
        "include_tests",
        "limit",
        "offset",
        "cursor",
      ]),
    );
    const r = await call(client, "grep", { pattern: "TODO(security)", repo: "grep-a" });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent?.total_count).toBe(1);
    expect(text(r)).toContain("grep-a:src/parser.ts\n  2:6:   // «TODO(security)»: reject overlong input  [in function parseSigned]");
    const bad = await call(client, "grep", { pattern: "(", regex: true });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/missing closing \)/);
    const tooMany = await call(client, "grep", { pattern: "x", limit: 101 });
    expect(tooMany.isError).toBe(true);

    const files = await call(client, "list_files", { repo: "grep-a", glob: "**/*.proto" });
    expect(files.structuredContent?.files.map((f: any) => f.path)).toEqual(["proto/api/v1/user.proto", "proto/order.proto"]);
    const paged = await call(client, "list_files", { repo: "grep-a", glob: "*.ts", limit: 2 });
    expect(paged.structuredContent).toMatchObject({ total_count: 3, has_more: true, next_offset: 2 });
    expect(text(paged)).toContain("[more: call list_files with offset 2]");
    await client.close();

    const tree = await api("/api/repos/grep-a/tree?glob=src/**/*.ts");
    expect(((await tree.json()) as any).files.map((f: any) => f.path)).toEqual(["src/parser.ts", "src/routes/index.ts"]);
  });
  describe("narrowing and bounded work (a repo of its own, indexed here)", () => {
    beforeAll(async () => {
      await indexFixture("grep-c", "c".repeat(40), [
        // "def" occurs in "undefined" and "default": a class after it must narrow the candidates.
        { path: "src/a.ts", chunks: [chunk("module", 1, "export default undefined;\n// TODO later\nconst todo = 1;")] },
        { path: "src/b.py", language: "python", chunks: [chunk("module", 1, "x = 1\ndef\tgo(y):\n    return y")] },
        { path: "src/c.txt", language: "text", chunks: [chunk("window", 1, "\u212Aelvin scale\nno match here")] },
        { path: "src/d.txt", language: "text", chunks: [chunk("window", 1, `${"ab ".repeat(400)}\n${"ab\n".repeat(600)}`)] },
      ]);
    });

    it("takes a small character class after a literal as part of it: \\s after def rules out undefined and default", async () => {
      const r = await grep({ pattern: "\\bdef\\s+[a-z_]+\\(", regex: true, repo: "grep-c" });
      expect(where(r.body)).toEqual(["grep-c:src/b.py:2"]);
      expect(r.body.candidateFiles).toBe(1);
      const digits = await grep({ pattern: "[Tt]odo", regex: true, repo: "grep-c" });
      expect(where(digits.body)).toEqual(["grep-c:src/a.ts:3"]);
    });

    it("keeps case-sensitive literals exact and lets case folding reach non-ASCII case pairs", async () => {
      // The trigram index folds case, so src/a.ts is a candidate for TODO and todo alike; D1 keeps out the text without the exact literal.
      expect(where((await grep({ pattern: "TODO", repo: "grep-c" })).body)).toEqual(["grep-c:src/a.ts:2"]);
      expect(where((await grep({ pattern: "todo", case_sensitive: false, repo: "grep-c" })).body)).toEqual(["grep-c:src/a.ts:2", "grep-c:src/a.ts:3"]);
      // U+212A (Kelvin sign) folds to k: SQLite's lower() does not know it, so non-ASCII texts always reach the engine.
      expect(where((await grep({ pattern: "kelvin", case_sensitive: false, regex: true, repo: "grep-c", path: "src/c.txt" })).body)).toEqual([
        "grep-c:src/c.txt:1",
      ]);
    });

    it("counts lines past the page by their first match and marks a page line's matches within its excerpt", async () => {
      const r = await grep({ pattern: "ab", repo: "grep-c", path: "src/d.txt", limit: 1 });
      expect(r.body).toMatchObject({ total_count: 601, total_exact: true, has_more: true });
      const m = r.body.matches[0];
      expect(m.text).toBe(`${"ab ".repeat(100)}…`);
      expect(m.ranges).toHaveLength(100);
      expect(m.ranges[99]).toEqual([297, 299]);
      const deep = await grep({ pattern: "\\w+", regex: true, repo: "grep-c", path: "src/d.txt", offset: 600, limit: 5 });
      expect(deep.body).toMatchObject({ total_count: 601, has_more: false, matches: [{ line: 601, ranges: [[0, 2]] }] });
    });
  });
  it("greps every visible repo when there are more than D1's 100 bound parameters of them", async () => {
    const now = Date.now();
    const ids = Array.from({ length: 120 }, (_, i) => `grep-many-${String(i).padStart(3, "0")}`);
    await env.DB.batch(
      ids.map((id) =>
        env.DB.prepare("INSERT INTO repos (id, name, source_kind, status, created_at, updated_at) VALUES (?, ?, 'archive', 'indexing', ?, ?)").bind(
          id,
          id,
          now,
          now,
        ),
      ),
    );
    const r = await grep({ pattern: "parse_signed" });
    expect(r.status).toBe(200);
    expect(where(r.body)).toEqual(["grep-b:lib/secret.py:1"]);
    expect(r.body.notReady).toEqual(ids);
  });
});
