/**
 * `verifyFilledTest` on small Go `testing` files with a stand-in index (a set of names) and a
 * stand-in repo (import paths under example.com/shop): what counts as defined locally, predeclared,
 * a testing method, a standard or outside import, or a same-package / in-repo reference.
 */
import { describe, expect, it } from "vitest";
import { verifyFilledTest } from "./fill-verify";

const index = (names: string[]) => async (asked: string[]) => new Set(asked.filter((n) => names.includes(n)));
const inRepo = (m: string) => m.startsWith("example.com/shop/");

describe("verifyFilledTest (Go)", () => {
  it("accepts locals, predeclared names, testing, standard and outside imports and same-package symbols", async () => {
    const test = [
      "package tax",
      "",
      "import (",
      '\t"errors"',
      '\t"testing"',
      '\tassert "github.com/stretchr/testify/require"',
      '\t"example.com/shop/shipping"',
      ")",
      "",
      "type row struct{ in, want float64 }",
      "",
      "func TestCompute(t *testing.T) {",
      "\tc := &Calculator{Rate: 0.5}",
      "\tfor i, r := range []row{{in: 2, want: 1}} {",
      "\t\tgot, err := c.Compute(r.in)",
      '\t\tif err != nil || got != r.want || i > len("x") {',
      '\t\t\tt.Fatalf("got %v", got)',
      "\t\t}",
      "\t}",
      "\t_, err := Compute(-1)",
      "\tassert.ErrorIs(t, err, ErrNegative)",
      "\tif !errors.Is(err, ErrNegative) || shipping.Rate(1) == 0 {",
      '\t\tt.Run("x", func(t *testing.T) { t.Helper() })',
      "\t}",
      "}",
    ].join("\n");
    expect(await verifyFilledTest("go", test, index(["Calculator", "Compute", "ErrNegative", "Rate"]), inRepo)).toEqual({ ok: true });
  });

  it("reports an unknown same-package helper, an in-repo package's missing name and an unknown method", async () => {
    const test = [
      "package tax",
      'import "testing"',
      'import "example.com/shop/shipping"',
      "func TestX(t *testing.T) {",
      "\tc := &Calculator{}",
      "\tc.Checkout()",
      "\t_ = shipping.Nope(newCart())",
      "}",
    ].join("\n");
    expect(await verifyFilledTest("go", test, index(["Calculator"]), inRepo)).toEqual({
      ok: false,
      syntaxErrors: [],
      unresolved: [
        { name: "newCart", line: 7 },
        { name: "Nope", line: 7 },
        { name: "Checkout", line: 6 },
      ],
    });
  });

  it("reports syntax errors with their lines", async () => {
    const broken = await verifyFilledTest("go", 'package tax\nfunc TestX(t *testing.T) {\n\tt.Fatal("x"\n', index([]), inRepo);
    expect(broken.ok).toBe(false);
    expect(broken.ok === false && broken.syntaxErrors.length).toBeGreaterThan(0);
  });
});
