/**
 * Scripted fill turns for the Messages API server (test/messages-api-server.ts): scenarios named
 * `fill-*` play a model completing a suggest_tests skeleton. They read the fenced SKELETON block
 * and the "Function under test" line of the user message (worker/services/suggest-tests/fill.ts)
 * and reply with the structured output `{"test": "..."}`.
 *
 * Scenarios: fill-real (only the skeleton's imports, the function and builtins) | fill-unknown
 * (also calls a method and a helper the repo does not define) | fill-syntax (an unclosed block).
 */

/** A scripted reply's text, or null when the scenario is not a fill one. */
export function fillScript(scenario: string, user: string): string | null {
  if (!scenario.startsWith("fill-")) return null;
  const nonce = /nonce is ([0-9a-f]{32})/.exec(user)?.[1] ?? "";
  const skeleton = new RegExp(`^<<<SKELETON ${nonce}[^\\n]*>>>\\n([\\s\\S]*?)\\n<<<END ${nonce}>>>$`, "m").exec(user)?.[1] ?? "";
  const fn = /^Function under test: (?:\w+\.)?(\w+) in /m.exec(user)?.[1] ?? "f";
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
