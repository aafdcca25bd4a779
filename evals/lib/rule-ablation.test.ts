import { describe, expect, it } from "vitest";
import { combinedRuleMarkdown, DEFAULTS_LABEL, rankedByLabel, ruleMoves, ruleMovesMarkdown, ruleVariants, RULE_OFF_PREFIX } from "./rule-ablation.ts";

describe("ruleVariants", () => {
  it("all: the defaults, then one variant per rule with that rule off", () => {
    const vs = ruleVariants("all");
    expect(vs[0]).toEqual({ label: DEFAULTS_LABEL });
    expect(vs.length).toBeGreaterThan(10);
    expect(vs[1].disableRules).toHaveLength(1);
    expect(vs[1].label).toBe(`${RULE_OFF_PREFIX}${vs[1].disableRules![0]}`);
  });

  it("a list: the defaults and one variant with all of them off; an unknown id is refused with the known ones", () => {
    expect(ruleVariants("clean.banner,clean.listing")[1].disableRules).toEqual(["clean.banner", "clean.listing"]);
    expect(() => ruleVariants("clean.nope")).toThrow(/unknown rule clean\.nope; use all or some of: template\.strip/);
  });
});

describe("ruleMoves", () => {
  it("counts instances a rule brings into (up) or drops out of (down) the top 5 and top 10", () => {
    const moves = ruleMoves({
      [DEFAULTS_LABEL]: [
        { id: "a", rank: 1 },
        { id: "b", rank: 7 },
        { id: "c", rank: null },
        { id: "d", rank: 2 },
      ],
      [`${RULE_OFF_PREFIX}x`]: [
        { id: "a", rank: 8 },
        { id: "b", rank: null },
        { id: "c", rank: 4 },
        { id: "d", rank: 3 },
      ],
    });
    expect(moves).toEqual([{ rule: "x", up5: ["a"], down5: ["c"], up10: ["b"], down10: ["c"], changed: 4 }]);
    expect(ruleMovesMarkdown("reports", moves)).toContain("| x | reports | 1 (a) | 1 (c) | 1 (b) | 1 (c) | 4 |");
  });

  it("reads retrieval runs (unanswerable left out, ids scoped by set) and SWE-bench outcomes", () => {
    const retrieval = rankedByLabel({
      runs: [
        {
          set: "flask",
          variant: { label: DEFAULTS_LABEL },
          details: [
            { id: "q1", rank: 2, category: "report" },
            { id: "u1", rank: null, category: "unanswerable" },
          ],
        },
      ],
    });
    expect(retrieval).toEqual({ [DEFAULTS_LABEL]: [{ id: "flask/q1", rank: 2 }] });
    expect(rankedByLabel({ outcomes: { [DEFAULTS_LABEL]: [{ id: "i1", allFoundAt: 3 }] } })).toEqual({ [DEFAULTS_LABEL]: [{ id: "i1", rank: 3 }] });
  });
});

describe("combinedRuleMarkdown", () => {
  it("one row per rule over the sets, instances named set:id, and the sets where it changes a rank", () => {
    const m = (rule: string, up5: string[], changed: number) => ({ rule, up5, down5: [], up10: [], down10: [], changed });
    const md = combinedRuleMarkdown([
      { set: "reports", commit: "abc1234", command: "npm run eval -- --set reports --disable-rule all", ruleMoves: [m("x", ["q1"], 2), m("y", [], 0)] },
      { set: "polyglot", ruleMoves: [m("x", ["g2"], 1), m("y", [], 0)] },
      { set: "polyglot", ruleMoves: [m("x", [], 2), m("y", [], 0)] },
    ]);
    expect(md).toContain("| x | 2: reports:q1, polyglot:g2 | 0 | 0 | 0 | reports (2), polyglot (3) |");
    expect(md).toContain("| y | 0 | 0 | 0 | 0 | none |");
    expect(md).toContain("reports: `npm run eval -- --set reports --disable-rule all` at `abc1234`");
  });
});
