/**
 * `verifyFilledTest` on small TypeScript/JavaScript tests with a stand-in index (a set of names):
 * what counts as defined locally, a builtin, an outside import or an in-repo reference.
 */
import { describe, expect, it } from "vitest";
import { verifyFilledTest } from "./fill-verify";

const index = (names: string[]) => async (asked: string[]) => new Set(asked.filter((n) => names.includes(n)));

describe("verifyFilledTest", () => {
  it("accepts locals, destructuring, builtins, framework globals and outside imports", async () => {
    const test = [
      'import { describe, expect, it } from "vitest";',
      'import { z } from "zod";',
      'import { Cart } from "../src/cart";',
      'describe("Cart", () => {',
      '  it("totals", async () => {',
      "    const cart = new Cart(10);",
      "    const { total, items: [first] } = { total: cart.total(2), items: [1] };",
      "    const doubled = [first].map((x) => x * 2).join(',');",
      "    expect(JSON.stringify({ total, doubled })).toContain('2');",
      "    expect(z.string().min(1).parse('a')).toBe('a');",
      "    await expect(Promise.resolve(total.toFixed(2))).resolves.toBe('1.00');",
      "  });",
      "});",
    ].join("\n");
    expect(await verifyFilledTest("typescript", test, index(["Cart", "total"]))).toEqual({ ok: true });
  });

  it("reports a method called on an in-repo value, an unknown helper and an import the repo lacks", async () => {
    const test = [
      'import { expect, it } from "vitest";',
      'import { Cart, nope } from "../src/cart";',
      'it("x", () => {',
      "  const cart = new Cart(1);",
      "  cart.checkout();",
      "  expect(makeCart()).toBe(nope);",
      "});",
    ].join("\n");
    expect(await verifyFilledTest("typescript", test, index(["Cart"]))).toEqual({
      ok: false,
      syntaxErrors: [],
      unresolved: [
        { name: "nope", line: 2 },
        { name: "makeCart", line: 6 },
        { name: "checkout", line: 5 },
      ],
    });
  });

  it("binds JavaScript parameters and reports syntax errors with their lines", async () => {
    const js = ['import assert from "node:assert/strict";', "function add(a, b) { return a + b; }", "assert.equal(add(1, 2), 3);"].join("\n");
    expect(await verifyFilledTest("javascript", js, index([]))).toEqual({ ok: true });
    const broken = await verifyFilledTest("typescript", 'it("x", () => {\n  expect(f(1).toBe(1);\n', index(["f"]));
    expect(broken.ok).toBe(false);
    expect(broken.ok === false && broken.syntaxErrors.length).toBeGreaterThan(0);
  });
});
