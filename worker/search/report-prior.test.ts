import { describe, expect, it } from "vitest";
import { applySupportPrior, isSupportPath, SUPPORT_PRIOR } from "./report-prior";

describe("isSupportPath", () => {
  it.each([
    ["examples/pairgrid_dotplot.py", true], ["doc/usage/extensions/example_numpy.py", true], ["docs/index.rst", true],
    ["asv_bench/benchmarks/dataset_io.py", true], ["src/flask/app.py", false], ["sympy/printing/latex.py", false],
    ["CHANGES", true], ["CHANGELOG.rst", true], ["docs/../HISTORY.md", true], ["CHANGES.old", true], ["pkg/NEWS", true],
    [".github/ISSUE_TEMPLATE/bug-report.yml", true], ["src/changes.py", false], ["lib/history.py", false], ["src/history/store.ts", false],
    ["bench/skip.py", true], ["benches/parse.rs", true], ["src/benchmark.ts", false],
    ["sphinx/ext/napoleon/docstring.py", false], ["lib/documentation.ts", false],
  ])("%s -> %s", (p, want) => expect(isSupportPath(p)).toBe(want));
});

describe("applySupportPrior", () => {
  it("moves supporting files below source files of similar score", () => {
    const out = applySupportPrior([
      { path: "examples/demo.py", score: 1 },
      { path: "src/lib.py", score: 0.8 },
    ]);
    expect(out.map((c) => c.path)).toEqual(["src/lib.py", "examples/demo.py"]);
    expect(out[1].score).toBe(SUPPORT_PRIOR);
  });
});
