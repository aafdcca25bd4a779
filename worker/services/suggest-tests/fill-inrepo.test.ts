/**
 * The in-repo module tests fill.ts hands to fill-verify for Python, Go and Java, on the
 * navigation fixture's layout: which imports are looked up in the index and which are trusted.
 */
import { describe, expect, it } from "vitest";
import { goInRepo, javaInRepo, pythonInRepo } from "./fill";

const paths = new Set([
  "python/billing/parser.py",
  "python/tests/test_parser.py",
  "go/tax/calculator.go",
  "go/cmd/shop/main.go",
  "java/src/main/java/com/acme/billing/Invoice.java",
  "typescript/src/cart.ts",
]);

describe("in-repo imports of a fill", () => {
  it("Python: relative modules and top-level names of .py directories or files", () => {
    const inRepo = pythonInRepo(paths);
    expect(["billing.parser", "billing", ".helpers", "python.billing.parser"].map(inRepo)).toEqual([true, true, true, true]);
    expect(["pytest", "unittest.mock", "json", "src"].map(inRepo)).toEqual([false, false, false, false]);
  });

  it("Go: a domain-qualified path whose last element is a directory of .go files", () => {
    const inRepo = goInRepo(paths);
    expect(["example.com/shop/tax", "example.com/shop/cmd/shop"].map(inRepo)).toEqual([true, true]);
    expect(["testing", "errors", "github.com/stretchr/testify/require", "tax"].map(inRepo)).toEqual([false, false, false, false]);
  });

  it("Java: a class, a static member or a wildcard package ending a .java path", () => {
    const inRepo = javaInRepo(paths);
    expect(["com.acme.billing.Invoice", "com.acme.billing.Invoice.of", "com.acme.billing"].map(inRepo)).toEqual([true, true, true]);
    expect(["java.util.Locale", "org.junit.jupiter.api.Assertions.assertEquals", "java.math.BigDecimal"].map(inRepo)).toEqual([false, false, false]);
  });
});
