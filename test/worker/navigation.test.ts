/**
 * Issue 50, symbols by the names the tools print: find_symbol with qualified names and
 * overload signatures, find_references classified from the syntax tree and filtered to one
 * definition, on the Java, C#, TypeScript, Python and Go fixture (navigation-fixture.ts)
 * indexed with the real chunker, through the MCP endpoint.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { call, connect, text } from "./mcp-client";
import { navLine, navText, seedNavigation } from "./navigation-fixture";

const FORMATTER = "java/src/main/java/com/acme/billing/InvoiceFormatter.java";
const BILLING = "java/src/main/java/com/acme/billing/BillingService.java";
const AUDIT = "java/src/main/java/com/acme/billing/AuditLog.java";
const FORMATTER_TEST = "java/src/test/java/com/acme/billing/InvoiceFormatterTest.java";

interface Sym {
  path: string;
  name: string;
  container: string | null;
  signature: string | null;
  startLine: number;
}
interface Ref {
  path: string;
  line: number;
  kind: string;
  lexical: boolean;
  role: string;
  via: string | null;
  refersTo: { path: string; line: number; container: string | null }[] | null;
}

describe("symbols by the names the tools print", () => {
  let client: Client;
  beforeAll(async () => {
    await seedNavigation();
    client = await connect();
  });

  async function symbols(name: string): Promise<Sym[]> {
    const r = await call(client, "find_symbol", { name, repo: "nav" });
    expect(r.isError, text(r)).toBeFalsy();
    return r.structuredContent?.symbols as Sym[];
  }

  async function refs(args: Record<string, unknown>): Promise<Ref[]> {
    const r = await call(client, "find_references", { repo: "nav", limit: 100, ...args });
    expect(r.isError, text(r)).toBeFalsy();
    return r.structuredContent?.references as Ref[];
  }

  const at = (list: { path: string; line?: number; startLine?: number }[]) => list.map((x) => `${x.path.split("/").pop()}:${x.line ?? x.startLine}`);

  it("find_symbol takes Class.method, Class#method, Namespace.Class.Method, pkg.func and module::item", async () => {
    const overloads = [
      navLine(FORMATTER, "String format(Invoice invoice)"),
      navLine(FORMATTER, "format(Invoice invoice, Locale locale)"),
      navLine(FORMATTER, "boolean upper"),
    ];
    for (const name of ["InvoiceFormatter.format", "InvoiceFormatter#format", "com.acme.billing.InvoiceFormatter.format"]) {
      const found = await symbols(name);
      expect(
        found.map((s) => `${s.container}.${s.name}:${s.startLine}`),
        name,
      ).toEqual(overloads.map((l) => `InvoiceFormatter.format:${l}`));
    }
    const tax = await symbols("TaxCalculator.Compute");
    expect(tax.map((s) => s.path)).toEqual(["csharp/src/Acme.Tax/TaxCalculator.cs", "csharp/src/Acme.Tax/TaxCalculator.cs"]);
    expect((await symbols("Acme.Tax.TaxCalculator.Compute")).length).toBe(2);
    expect((await symbols("ShippingCalculator.Compute")).map((s) => s.container)).toEqual(["ShippingCalculator"]);

    const goTax = await symbols("tax.Compute");
    expect(goTax.map((s) => `${s.path}:${s.container}`)).toEqual(["go/tax/calculator.go:null"]);
    expect((await symbols("Calculator.Compute")).map((s) => s.container)).toEqual(["Calculator"]);
    expect((await symbols("shipping.Compute")).map((s) => s.path)).toEqual(["go/shipping/rates.go"]);
    for (const name of ["billing.parser.parse", "parser::parse"]) {
      expect(
        (await symbols(name)).map((s) => `${s.path}:${s.container}`),
        name,
      ).toEqual(["python/billing/parser.py:null"]);
    }
    expect((await symbols("ReportParser.parse")).map((s) => s.container)).toEqual(["ReportParser"]);
    expect((await symbols("loyalty.applyDiscount")).map((s) => s.path)).toEqual(["typescript/src/pricing/loyalty.ts"]);
  });

  it("find_symbol picks an overload by its parameter types, and suggests the overloads when none fits", async () => {
    const one = await symbols("InvoiceFormatter.format(Invoice, Locale)");
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({ startLine: navLine(FORMATTER, "format(Invoice invoice, Locale locale)") });
    expect(await symbols("format(Invoice)")).toHaveLength(1);
    expect((await symbols("TaxCalculator.Compute(decimal, string)")).map((s) => s.signature)).toEqual([expect.stringContaining("string region")]);

    const none = await call(client, "find_symbol", { name: "InvoiceFormatter.format(Invoice, String)", repo: "nav" });
    expect(none.structuredContent?.symbols).toEqual([]);
    expect(none.structuredContent?.suggestions).toEqual(expect.arrayContaining([expect.stringMatching(/^InvoiceFormatter\.format — .*Locale locale\)/)]));
    expect(text(none)).toContain("Did you mean: ");
  });

  it("find_references says what each occurrence is and which definition it uses; source, then tests, then docs", async () => {
    const all = await refs({ symbol: "format" });
    const roles = all.map((r) => r.role);
    expect(roles).toEqual([...roles].sort((a, b) => ["source", "test", "docs"].indexOf(a) - ["source", "test", "docs"].indexOf(b)));
    expect(all[all.length - 1]).toMatchObject({ path: "java/docs/MIGRATION.md", kind: "text", lexical: true, role: "docs", refersTo: null });
    const line = (needle: string) =>
      all.find((r) => r.path === BILLING && r.line === navLine(BILLING, needle) && (needle !== "String.format" || r.via?.startsWith("String")));
    expect(line("// format the invoice")).toMatchObject({ kind: "comment", lexical: true });
    expect(line("formatter.format(invoice, Locale.US)")).toMatchObject({
      kind: "call",
      via: "formatter: InvoiceFormatter",
      refersTo: [{ path: FORMATTER, line: navLine(FORMATTER, "format(Invoice invoice, Locale locale)") }],
    });
    expect(line("audit.format(")).toMatchObject({ kind: "call", refersTo: [{ path: AUDIT, container: "AuditLog" }] });
    expect(line("String.format")).toMatchObject({ kind: "call", lexical: false, refersTo: [], via: "String: String (not in the index)" });
    // A bare call inside the class is its own member; the arguments pick the overload.
    const inner = all.find((r) => r.path === FORMATTER && r.line === navLine(FORMATTER, "return format(invoice, Locale.ROOT)"));
    expect(inner).toMatchObject({
      kind: "call",
      via: "member of InvoiceFormatter",
      refersTo: [{ line: navLine(FORMATTER, "format(Invoice invoice, Locale locale)") }],
    });
    expect(all.filter((r) => r.path === FORMATTER && r.kind === "definition")).toHaveLength(3);
  });

  it("find_references with definition keeps that definition's references, by qualified name, overload or path:line", async () => {
    const expected = [
      `${BILLING}:${navLine(BILLING, "formatter.format(invoice, Locale.US)")}`,
      `${BILLING}:${navLine(BILLING, "this.formatter.format(invoice)")}`,
      `${FORMATTER}:${navLine(FORMATTER, "String format(Invoice invoice)")}`,
      `${FORMATTER}:${navLine(FORMATTER, "return format(invoice, Locale.ROOT)")}`,
      `${FORMATTER}:${navLine(FORMATTER, "format(Invoice invoice, Locale locale)")}`,
      `${FORMATTER}:${navLine(FORMATTER, "boolean upper")}`,
      `${FORMATTER}:${navLine(FORMATTER, "String text = format(invoice, locale)")}`,
      `${FORMATTER_TEST}:${navLine(FORMATTER_TEST, "formatter.format(")}`,
    ];
    const byName = await refs({ definition: "InvoiceFormatter.format" });
    expect(byName.map((r) => `${r.path}:${r.line}`)).toEqual(expected);
    expect(byName.every((r) => !r.lexical)).toBe(true);

    const overload = await refs({ definition: "InvoiceFormatter.format(Invoice, Locale)" });
    expect(at(overload)).toEqual(at(byName.filter((r) => !/this\.formatter|String format\(Invoice invoice\)|boolean upper/.test(navTextAt(r)))));
    const byLine = await refs({ symbol: "format", definition: `${AUDIT}:${navLine(AUDIT, "String format(String event)")}` });
    expect(at(byLine)).toEqual([
      `AuditLog.java:${navLine(AUDIT, "String format(")}`,
      `AuditLog.java:${navLine(AUDIT, "lines.add(format(event))")}`,
      `BillingService.java:${navLine(BILLING, "audit.format(")}`,
    ]);

    const qualifiedSymbol = await call(client, "find_references", { repo: "nav", symbol: "TaxCalculator.Compute", limit: 100 });
    expect(text(qualifiedSymbol)).toContain("references of TaxCalculator.Compute");
    const taxRefs = qualifiedSymbol.structuredContent?.references as Ref[];
    expect(taxRefs.map((r) => r.path.split("/").pop())).toEqual([
      "Checkout.cs",
      "TaxCalculator.cs",
      "TaxCalculator.cs",
      "TaxCalculator.cs",
      "TaxCalculator.cs",
      "TaxCalculatorTests.cs",
    ]);

    const rest = await api(`/api/repos/nav/references?definition=${encodeURIComponent("AuditLog.format")}&limit=100`);
    expect(rest.status).toBe(200);
    const restBody = (await rest.json()) as { definitions: { container: string }[]; references: Ref[] };
    expect(restBody.definitions.map((d) => d.container)).toEqual(["AuditLog"]);
    expect(at(restBody.references)).toEqual(at(byLine));
    const restSymbols = await api(`/api/repos/nav/symbols?name=${encodeURIComponent("InvoiceFormatter#format")}`);
    expect(((await restSymbols.json()) as { symbols: unknown[] }).symbols).toHaveLength(3);
    const restUnknown = await api(`/api/repos/nav/references?definition=Invoice.format`);
    expect(restUnknown.status).toBe(404);

    const unknown = await call(client, "find_references", { repo: "nav", definition: "Invoice.format" });
    expect(unknown._meta?.["codebase-copilot/error"]?.code).toBe("not_found");
    expect(text(unknown)).toContain("InvoiceFormatter.format");
  });

  it("lists a re-export `x as x` once: the alias is the same place as the name before it (Python, TypeScript, Rust)", async () => {
    await seedNavigation("nav-alias", [
      { path: "pkg/__init__.py", text: "from .termui import secho as secho\nfrom .termui import style as styled\n" },
      { path: "pkg/termui.py", text: "def secho(message):\n    print(message)\n\n\ndef style(text):\n    return text\n" },
      { path: "src/index.ts", text: 'export { render as render } from "./view";\nimport { render as draw } from "./view";\n' },
      { path: "src/view.ts", text: "export function render(): string {\n  return draw();\n}\n" },
      { path: "crate/lib.rs", text: "pub use crate::termui::secho as secho;\n" },
    ]);
    const places = async (symbol: string) => {
      const r = await call(client, "find_references", { repo: "nav-alias", symbol, limit: 100 });
      expect(r.isError, text(r)).toBeFalsy();
      return (r.structuredContent?.references as Ref[]).map((x) => `${x.path}:${x.line}:${x.kind}`);
    };
    expect(await places("secho")).toEqual(["crate/lib.rs:1:import", "pkg/__init__.py:1:import", "pkg/termui.py:1:definition"]);
    expect(await places("render")).toEqual(["src/index.ts:1:reference", "src/index.ts:2:import", "src/view.ts:1:definition"]);
    // A rename keeps both names: each is its own word.
    expect(await places("styled")).toEqual(["pkg/__init__.py:2:import"]);
  });
});

/** The fixture line a reference points at (for filtering expectations by their code). */
function navTextAt(r: { path: string; line: number }): string {
  return navText(r.path).split("\n")[r.line - 1] ?? "";
}
