import { describe, expect, it } from "vitest";
import { paramsMatch, parseQualifiedName, qualifierMatch, signatureParams } from "./symbols-qualified";

describe("qualified names", () => {
  it("parses the forms the languages write", () => {
    expect(parseQualifiedName("InvoiceFormatter.format")).toEqual({ qualifier: ["InvoiceFormatter"], member: "format", params: undefined });
    expect(parseQualifiedName("Class#method")).toMatchObject({ qualifier: ["Class"], member: "method" });
    expect(parseQualifiedName("crate::module::item")).toMatchObject({ qualifier: ["crate", "module"], member: "item" });
    expect(parseQualifiedName("Acme.Tax.TaxCalculator.Compute")).toMatchObject({ qualifier: ["Acme", "Tax", "TaxCalculator"], member: "Compute" });
    expect(parseQualifiedName("put(Map<String, Integer>, int)")).toEqual({ qualifier: [], member: "put", params: ["Map<String, Integer>", "int"] });
    expect(parseQualifiedName("format()")).toEqual({ qualifier: [], member: "format", params: [] });
    expect(parseQualifiedName("plainName")).toBeNull();
    expect(parseQualifiedName("a..b")).toBeNull();
  });

  it("matches parameter types by position, ignoring spacing, Python's self and parameter names", () => {
    expect(signatureParams("def parse(self, text: str) -> list[str]")).toEqual([" text: str"]);
    expect(signatureParams("class X")).toBeNull();
    expect(paramsMatch(["Invoice", "Locale"], "public String format(Invoice invoice, Locale locale)")).toBe(true);
    expect(paramsMatch(["Invoice"], "public String format(Invoice invoice, Locale locale)")).toBe(false);
    expect(paramsMatch(["Locale", "Invoice"], "public String format(Invoice invoice, Locale locale)")).toBe(false);
    expect(paramsMatch(["Map<String,Integer>"], "void put(final Map<String, Integer> m)")).toBe(true);
    expect(paramsMatch(["str"], "def parse(self, text: str)")).toBe(true);
    expect(paramsMatch([], "format()")).toBe(true);
    // A type is a whole word of the parameter: Invoice is not InvoiceLine.
    expect(paramsMatch(["Invoice"], "format(InvoiceLine line)")).toBe(false);
  });

  it("prefers how a definition matches: by container, by module, or not", () => {
    const q = parseQualifiedName("Calculator.Compute")!;
    expect(qualifierMatch(q, { path: "go/tax/calc.go", container: "Calculator" }, null, true)).toBe("container");
    expect(qualifierMatch(q, { path: "go/tax/calculator.go", container: null }, null, true)).toBe("module");
    expect(qualifierMatch(q, { path: "go/tax/rates.go", container: null }, null, true)).toBeNull();
    expect(qualifierMatch(q, { path: "x.go", container: "calculator" }, null, true)).toBeNull();
    expect(qualifierMatch(q, { path: "x.go", container: "calculator" }, null, false)).toBe("container");
    const ns = parseQualifiedName("Acme.Tax.TaxCalculator.Compute")!;
    expect(qualifierMatch(ns, { path: "src/TaxCalculator.cs", container: "TaxCalculator" }, "Acme.Tax", true)).toBe("container");
    expect(qualifierMatch(ns, { path: "src/TaxCalculator.cs", container: "TaxCalculator" }, "Other.Tax", true)).toBeNull();
    const pkg = parseQualifiedName("com.acme.billing.InvoiceFormatter.format")!;
    expect(qualifierMatch(pkg, { path: "src/main/java/com/acme/billing/InvoiceFormatter.java", container: "InvoiceFormatter" }, null, true)).toBe("container");
  });
});
