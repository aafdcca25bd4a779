import { describe, expect, it } from "vitest";
import { reporterLocals } from "./query";
import { readQuery } from "./readers";
import { RULE_IDS, RULES, ruleOn, switchPlan, withRulesOff } from "./rules";
import { stripListings, stripMarkup } from "./readers/clean";

const REPORT = [
  "Matrix hstack returns the wrong shape",
  "```",
  "import sympy as sy",
  "M1 = sy.Matrix.zeros(0, 0)",
  "sy.Matrix.hstack(M1).shape",
  "```",
  "Traceback (most recent call last):",
  '  File "sympy/matrices/common.py", line 42, in hstack',
  "    return reduce(kls.row_join, args)",
  "TypeError: row_join() missing 1 required positional argument: 'other'",
  "Running with --strict-markers and obj.attribute lookups in the report text",
].join("\n");

describe("rules registry", () => {
  it("has unique ids, each with a description and a place", () => {
    expect(new Set(RULE_IDS).size).toBe(RULES.length);
    for (const r of RULES) {
      expect(r.description.length).toBeGreaterThan(10);
      expect(r.where).toMatch(/^worker\/search\//);
    }
  });

  it("switches a reading rule off only inside withRulesOff, and back on after a throw", () => {
    expect([...reporterLocals(REPORT)].sort()).toEqual(["m1", "sy"]);
    expect([...withRulesOff(new Set(["report.import-aliases"]), () => reporterLocals(REPORT))]).toEqual(["m1"]);
    expect([...withRulesOff(new Set(["report.numbered-locals"]), () => reporterLocals(REPORT))]).toEqual(["sy"]);
    expect(() =>
      withRulesOff(new Set(["clean.markup"]), () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(ruleOn("clean.markup")).toBe(true);
    expect(stripMarkup("a <!-- hidden --> b")).toBe("a   b");
    expect(withRulesOff(new Set(["clean.markup"]), () => stripMarkup("a <!-- hidden --> b"))).toBe("a <!-- hidden --> b");
    const listing = "numpy 1.2.3\npandas 2.0.1\nscipy 1.10.0\nthe bug";
    expect(stripListings(listing)).toBe("the bug");
    expect(withRulesOff(new Set(["clean.listing"]), () => stripListings(listing))).toBe(listing);
  });

  it("changes the read terms of a report when a reading rule is off", () => {
    const on = readQuery(REPORT);
    const off = withRulesOff(new Set(["report.import-aliases"]), () => readQuery(REPORT));
    expect(on.reader).toBe("report");
    expect(on.query.terms).not.toContain("sy");
    expect(off.query.terms).toContain("sy");
  });

  it("clears a plan element of a rule that is off, leaving the plan itself unchanged", () => {
    const plan = readQuery(REPORT);
    expect(plan.stages.trace).toBe(true);
    expect(plan.evidence.frames.length).toBeGreaterThan(0);
    const off = switchPlan(plan, new Set(["frame.trace", "frame.callee"]));
    expect(off.stages.trace).toBe(false);
    expect(off.evidence.frames).toEqual([]);
    expect(off.evidence.callee).toBeNull();
    expect(plan.stages.trace).toBe(true);
    expect(switchPlan(plan, undefined)).toBe(plan);
  });
});
