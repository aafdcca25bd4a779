/**
 * Scripted fill turns for the Messages API server (test/messages-api-server.ts): scenarios named
 * `fill-*` play a model completing a suggest_tests skeleton. They read the fenced SKELETON block
 * and the "Function under test" line of the user message (worker/services/suggest-tests/fill.ts)
 * and reply with the structured output `{"test": "..."}`.
 *
 * Scenarios: fill-real (only the skeleton's imports, the function and builtins) | fill-unknown
 * (also calls a method and a helper the repo does not define) | fill-syntax (an unclosed block).
 * The test is TypeScript, Python when the framework line says pytest (pythonFill), Go for
 * go-testing (goFill), Java for junit5 (javaFill).
 */

/** A scripted reply's text, or null when the scenario is not a fill one. */
export function fillScript(scenario: string, user: string): string | null {
  if (!scenario.startsWith("fill-")) return null;
  const nonce = /nonce is ([0-9a-f]{32})/.exec(user)?.[1] ?? "";
  const skeleton = new RegExp(`^<<<SKELETON ${nonce}[^\\n]*>>>\\n([\\s\\S]*?)\\n<<<END ${nonce}>>>$`, "m").exec(user)?.[1] ?? "";
  const fn = /^Function under test: (?:\w+\.)?(\w+) in /m.exec(user)?.[1] ?? "f";
  if (/; framework pytest;/.test(user)) return JSON.stringify({ test: pythonFill(scenario, skeleton, fn) });
  if (/; framework go-testing;/.test(user)) return JSON.stringify({ test: goFill(scenario, skeleton, fn) });
  if (/; framework junit5;/.test(user)) return JSON.stringify({ test: javaFill(scenario, skeleton) });
  const imports = skeleton.split("\n").filter((l) => l.startsWith("import "));
  const body = [
    `  it("applies the percentage", () => {`,
    `    const result = ${fn}(200, 10);`,
    `    expect(result).toBe(180);`,
    `    expect(Math.round(result)).toBe(180);`,
    ...(scenario === "fill-unknown" ? [`    const coupon = ${fn}.withCoupon(100, "SPRING");`, `    expect(computeLoyaltyBonus(coupon)).toBe(0);`] : []),
    `  });`,
    `  it("rejects a percent outside 0..100", () => {`,
    `    expect(() => ${fn}(100, 101)).toThrow(RangeError);`,
    `  });`,
  ];
  const test =
    scenario === "fill-syntax"
      ? [...imports, "", `describe(${JSON.stringify(fn)}, () => {`, `  it("x", () => {`, `    expect(${fn}(1, 2).toBe(1);`, ""].join("\n")
      : [...imports, "", `describe(${JSON.stringify(fn)}, () => {`, ...body, "});", ""].join("\n");
  return JSON.stringify({ test });
}

/** A pytest file for `fn` (a parser of `name=value` lines, as python/billing/parser.py's parse). */
function pythonFill(scenario: string, skeleton: string, fn: string): string {
  const imports = skeleton.split("\n").filter((l) => /^(import|from) /.test(l));
  if (scenario === "fill-syntax") return [...imports, "", "", "def test_x():", `    assert ${fn}("a=1" == 1`, ""].join("\n");
  return [
    ...imports,
    "",
    "",
    "def test_reads_pairs(tmp_path):",
    `    result = ${fn}("a=1\\n\\nb = 2")`,
    '    assert result == {"a": "1", "b": "2"}',
    '    assert sorted(result.keys()) == ["a", "b"]',
    ...(scenario === "fill-unknown" ? [`    strict = ${fn}.with_strict("a=1")`, "    assert compute_checksum(strict) == 0"] : []),
    "",
    "",
    "def test_rejects_a_line_without_equals():",
    "    with pytest.raises(ValueError):",
    `        ${fn}("oops")`,
    "",
  ].join("\n");
}

/** A Go test in the skeleton's package for `fn` (a tax computation, as go/tax/calculator.go's Compute; ErrNegative below 0). */
function goFill(scenario: string, skeleton: string, fn: string): string {
  const head = [skeleton.split("\n")[0], "", "import (", '\t"errors"', '\t"testing"', ")", ""];
  if (scenario === "fill-syntax") return [...head, "func TestX(t *testing.T) {", `\t_, _ = ${fn}(1`, ""].join("\n");
  return [
    ...head,
    "func TestTaxes(t *testing.T) {",
    `\tgot, err := ${fn}(100)`,
    "\tif err != nil || got != 20 {",
    '\t\tt.Fatalf("got %v, %v", got, err)',
    "\t}",
    "\tc := &Calculator{Rate: 0.5}",
    ...(scenario === "fill-unknown" ? [`\t_, _ = c.${fn}WithRebate(1)`, "\t_ = applyRebate(got)"] : ["\t_, _ = c.Compute(1)"]),
    "}",
    "",
    "func TestRejectsNegative(t *testing.T) {",
    `\tif _, err := ${fn}(-1); !errors.Is(err, ErrNegative) {`,
    '\t\tt.Fatalf("want ErrNegative, got %v", err)',
    "\t}",
    "}",
    "",
  ].join("\n");
}

/** A JUnit 5 test of java/.../InvoiceFormatter.java's format(Invoice, Locale), in the skeleton's package. */
function javaFill(scenario: string, skeleton: string): string {
  const head = [
    ...skeleton.split("\n").filter((l) => l.startsWith("package ")),
    "",
    "import static org.junit.jupiter.api.Assertions.assertEquals;",
    "import static org.junit.jupiter.api.Assertions.assertThrows;",
    "",
    "import java.math.BigDecimal;",
    "import java.util.Locale;",
    "import org.junit.jupiter.api.Test;",
    "",
    "class InvoiceFormatterTest {",
  ];
  if (scenario === "fill-syntax") return [...head, "    @Test", "    void x() {", "        assertEquals(1, 2;", ""].join("\n");
  return [
    ...head,
    "    @Test",
    "    void formatsNumberTotalAndCurrency() {",
    '        InvoiceFormatter subject = new InvoiceFormatter("EUR");',
    '        Invoice invoice = new Invoice("N-1", "Ada", new BigDecimal("12.50"));',
    "        String result = subject.format(invoice, Locale.ROOT);",
    '        assertEquals("N-1 12.50 EUR", result.trim());',
    ...(scenario === "fill-unknown" ? ['        assertEquals("", subject.formatAll(invoice));', "        assertEquals(0, InvoiceTotals.sum(invoice));"] : []),
    "    }",
    "",
    "    @Test",
    "    void rejectsAnInvoiceWithoutNumber() {",
    '        InvoiceFormatter subject = new InvoiceFormatter("EUR");',
    '        Invoice invoice = new Invoice(null, "Ada", BigDecimal.ONE);',
    "        assertThrows(IllegalArgumentException.class, () -> subject.format(invoice, Locale.ROOT));",
    "    }",
    "}",
    "",
  ].join("\n");
}
