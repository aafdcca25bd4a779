/**
 * Issue 50, suggest_tests: on the navigation fixture (TypeScript, Python, Go, Java) indexed with
 * the real chunker, through REST (`POST /api/suggest-tests`) and MCP (`suggest_tests`): facts at
 * the right path:line, one test per thrown error, the test path in the repo's layout, skeletons
 * that parse with tree-sitter without ERROR/MISSING nodes, and the 400/404 answers. The compile
 * checks (tsc, py_compile) run in worker/services/suggest-tests/build.test.ts (workerd cannot spawn).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { getParser } from "../../indexer/chunk/parser";
import type { GrammarLanguage } from "../../indexer/chunk/languages";
import type { SuggestTestsOutput } from "../../worker/services/suggest-tests-schema";
import { api } from "../helpers";
import { call, connect, text } from "./mcp-client";
import { navLine, seedNavigation } from "./navigation-fixture";

async function rest(body: Record<string, unknown>): Promise<Response> {
  return api("/api/suggest-tests", { method: "POST", json: { repo: "nav", ...body } });
}

async function ok(body: Record<string, unknown>): Promise<SuggestTestsOutput> {
  const res = await rest(body);
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json as SuggestTestsOutput;
}

async function parsesCleanly(language: GrammarLanguage, skeleton: string): Promise<string[]> {
  const tree = (await getParser(language)).parse(skeleton);
  const bad: string[] = [];
  const visit = (n: NonNullable<typeof tree>["rootNode"]) => {
    if (n.type === "ERROR" || n.isMissing) bad.push(`${n.type}@${n.startPosition.row + 1}`);
    for (const c of n.children) if (c) visit(c);
  };
  visit(tree!.rootNode);
  return bad;
}

const throwsAt = (r: SuggestTestsOutput) => r.facts.filter((f) => f.kind === "throws").map((f) => `${f.path}:${f.line} ${f.text}`);

describe("suggest_tests", () => {
  let client: Client;
  beforeAll(async () => {
    await seedNavigation();
    client = await connect();
  });

  it("TypeScript: vitest from package.json, test/ layout, one test per behaviour, facts with path:line", async () => {
    const src = "typescript/src/pricing/discount.ts";
    const r = await ok({ path: src, symbol: "applyDiscount" });
    expect(r).toMatchObject({ framework: "vitest", test_path: "typescript/test/pricing/discount.test.ts", test_path_exists: false });
    expect(r.facts[0]).toEqual({ kind: "signature", text: "function applyDiscount(price: number, percent: number): number", path: src, line: 2 });
    expect(throwsAt(r)).toEqual([`${src}:${navLine(src, "throw new RangeError")} RangeError`]);
    expect(r.facts.filter((f) => f.kind === "early_return").map((f) => f.line)).toEqual([navLine(src, "percent === 0")]);
    expect(r.facts).toContainEqual({
      kind: "framework",
      text: "vitest in package.json",
      path: "typescript/package.json",
      line: navLine("typescript/package.json", '"vitest"'),
    });
    expect(r.tests.map((t) => t.behaviour)).toEqual(["returns", "throws", "early_return"]);
    expect(r.skeleton).toContain('import { applyDiscount } from "../../src/pricing/discount";');
    expect(r.skeleton.match(/expect\.fail\("TODO/g)?.length).toBe(r.tests.length);
    expect(await parsesCleanly("typescript", r.skeleton)).toEqual([]);

    const cart = await ok({ path: "typescript/src/cart.ts", symbol: "Cart.total" });
    expect(cart.facts).toContainEqual({
      kind: "collaborator",
      text: "constructor percent: number",
      path: "typescript/src/cart.ts",
      line: navLine("typescript/src/cart.ts", "constructor("),
    });
    expect(cart.skeleton).toContain('vi.mock("../src/pricing/discount");');
    expect(await parsesCleanly("typescript", cart.skeleton)).toEqual([]);
  });

  it("Python over MCP: pytest from pyproject, tests/ layout, pytest.raises per raised error", async () => {
    const src = "python/billing/parser.py";
    const res = await call(client, "suggest_tests", { repo: "nav", path: src, symbol: "parse" });
    expect(res.isError, text(res)).toBeFalsy();
    const r = res.structuredContent as unknown as SuggestTestsOutput;
    expect(r).toMatchObject({ framework: "pytest", test_path: "python/tests/test_parser.py", test_path_exists: true });
    expect(throwsAt(r)).toEqual([`${src}:${navLine(src, "raise ParseError")} ParseError`]);
    expect(r.skeleton).toContain("with pytest.raises(ParseError):");
    expect(text(res)).toContain(`${src}:${navLine(src, "raise ParseError")} throws: ParseError`);
    expect(await parsesCleanly("python", r.skeleton)).toEqual([]);
    const method = await ok({ path: src, symbol: "ReportParser.parse", framework: "unittest" });
    expect(throwsAt(method)).toEqual([`${src}:${navLine(src, 'raise ValueError("empty report")')} ValueError`]);
    expect(method.skeleton).toContain("class TestReportParserParse(unittest.TestCase):");
    expect(method.skeleton).toContain("    def test_report_parser_parse_throws_ValueError(self):");
    expect(await parsesCleanly("python", method.skeleton)).toEqual([]);
  });

  it("Go and Java: error returns and thrown exceptions, each a test", async () => {
    const go = await ok({ path: "go/tax/calculator.go", symbol: "Calculator.Compute" });
    expect(go).toMatchObject({ framework: "go-testing", test_path: "go/tax/calculator_test.go", test_path_exists: true });
    expect(throwsAt(go)).toEqual([`go/tax/calculator.go:${navLine("go/tax/calculator.go", "return 0, ErrNegative")} ErrNegative`]);
    expect(go.tests.map((t) => t.behaviour)).toEqual(["returns", "throws"]);
    expect(await parsesCleanly("go", go.skeleton)).toEqual([]);

    const src = "java/src/main/java/com/acme/billing/InvoiceFormatter.java";
    const java = await ok({ path: src, symbol: "InvoiceFormatter#format(Invoice, Locale)" });
    expect(java).toMatchObject({
      framework: "junit5",
      test_path: "java/src/test/java/com/acme/billing/InvoiceFormatterTest.java",
      signature: "public String format(Invoice invoice, Locale locale)",
    });
    expect(throwsAt(java)).toEqual([`${src}:${navLine(src, "throw new IllegalArgumentException")} IllegalArgumentException`]);
    expect(java.skeleton).toContain("assertThrows(IllegalArgumentException.class");
    expect(await parsesCleanly("java", java.skeleton)).toEqual([]);
    const first = await ok({ path: src, symbol: "InvoiceFormatter.format" });
    expect(first.signature).toBe("public String format(Invoice invoice)");
    expect(first.notes).toContain(
      "3 overloads match; used the first, format(Invoice). Name another with its parameter list: format(Invoice, Locale), format(Invoice, Locale, boolean).",
    );
  });

  it("answers 400 for a class, 404 for a ref the repo does not track, 503 for fill without a provider, and 404 with suggestions for an unknown symbol", async () => {
    const cls = await rest({ path: "java/src/main/java/com/acme/billing/InvoiceFormatter.java", symbol: "InvoiceFormatter" });
    expect(cls.status).toBe(400);
    expect(((await cls.json()) as { error: { message: string } }).error.message).toContain("InvoiceFormatter is a class; name one of its methods: format");

    const fill = await rest({ path: "typescript/src/cart.ts", symbol: "Cart.total", fill: true });
    expect(fill.status).toBe(503);
    expect(JSON.stringify(await fill.json())).toContain("generation_unavailable");
    const ref = await rest({ path: "typescript/src/cart.ts", symbol: "Cart.total", ref: "release-2" });
    expect(ref.status).toBe(404);
    expect(JSON.stringify(await ref.json())).toContain('"ref_not_found"');
    expect((await rest({ path: "typescript/src/cart.ts", symbol: "Cart.total", ref: "main" })).status).toBe(200);

    const csharp = await rest({ path: "csharp/src/Acme.Tax/TaxCalculator.cs", symbol: "TaxCalculator.Compute" });
    expect(csharp.status).toBe(400);
    expect(JSON.stringify(await csharp.json())).toContain("TypeScript/JavaScript, Python, Go and Java");
    const wrongFramework = await rest({ path: "python/billing/parser.py", symbol: "parse", framework: "jest" });
    expect(wrongFramework.status).toBe(400);
    expect(JSON.stringify(await wrongFramework.json())).toContain("use one of pytest, unittest");

    const unknown = await rest({ path: "typescript/src/cart.ts", symbol: "applyDiscont" });
    expect(unknown.status).toBe(404);
    const body = (await unknown.json()) as { error: { code: string; message: string; details: { suggestions: string[] } } };
    expect(body.error.code).toBe("not_found");
    expect(body.error.details.suggestions).toContain("applyDiscount");

    const mcpClass = await call(client, "suggest_tests", { repo: "nav", path: "python/billing/parser.py", symbol: "ReportParser" });
    expect(mcpClass.isError).toBe(true);
    expect(text(mcpClass)).toContain("ReportParser is a class; name one of its methods: parse");
  });
});
