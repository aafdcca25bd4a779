import { describe, expect, it } from "vitest";
import { declaredType, fileImports, moduleIs } from "./references-scope";

describe("what a file declares", () => {
  it("reads imports per language", () => {
    const ts = fileImports(
      "typescript",
      'import * as loyalty from "./pricing/loyalty";\nimport { applyDiscount as ad, type Cart } from "./pricing/discount";\n',
    );
    expect([...ts.aliases]).toEqual([["loyalty", "./pricing/loyalty"]]);
    expect(ts.names.get("ad")).toBe("./pricing/discount#applyDiscount");
    expect(ts.names.get("Cart")).toBe("./pricing/discount#Cart");
    const py = fileImports("python", "import json\nfrom billing import parser\nfrom billing.parser import ReportParser, parse as p\n");
    expect(py.aliases.get("json")).toBe("json");
    expect(py.aliases.get("parser")).toBe("billing.parser");
    expect(py.names.get("p")).toBe("billing.parser#parse");
    const go = fileImports("go", 'import (\n\t"fmt"\n\tt "example.com/shop/tax"\n)\n');
    expect([...go.aliases]).toEqual([
      ["fmt", "fmt"],
      ["t", "example.com/shop/tax"],
    ]);
    expect(fileImports("java", "import static org.junit.Assert.assertEquals;").names.get("assertEquals")).toBe("org.junit.Assert#assertEquals");
  });

  it("finds the declared type of a variable or field", () => {
    expect(declaredType("java", "private final InvoiceFormatter formatter;", "formatter")).toBe("InvoiceFormatter");
    expect(declaredType("java", "List<String> lines = new ArrayList<>();", "lines")).toBe("ArrayList");
    expect(declaredType("csharp", "var calc = new TaxCalculator(0.1m);", "calc")).toBe("TaxCalculator");
    expect(declaredType("typescript", "constructor(private readonly cart: Cart) {}", "cart")).toBe("Cart");
    expect(declaredType("python", "self.reports = ReportParser(strict=True)", "reports")).toBe("ReportParser");
    expect(declaredType("go", "calc := &tax.Calculator{Rate: 0.1}", "calc")).toBe("Calculator");
    expect(declaredType("go", "func (c *Calculator) Compute()", "c")).toBe("Calculator");
    expect(declaredType("java", "int count = 0;", "count")).toBeNull();
  });

  it("tells whether a definition's file is an imported module", () => {
    expect(moduleIs("./pricing/loyalty", "ts/src/cart.ts", "ts/src/pricing/loyalty.ts")).toBe(true);
    expect(moduleIs("../src/pricing", "ts/test/a.test.ts", "ts/src/pricing/index.ts")).toBe(true);
    expect(moduleIs("./pricing/loyalty", "ts/src/cart.ts", "ts/src/pricing/discount.ts")).toBe(false);
    expect(moduleIs("billing.parser", "py/billing/reports.py", "py/billing/parser.py")).toBe(true);
    expect(moduleIs("example.com/shop/tax", "go/cmd/main.go", "go/tax/calculator.go")).toBe(true);
    expect(moduleIs("example.com/shop/tax", "go/cmd/main.go", "go/shipping/rates.go")).toBe(false);
  });
});
