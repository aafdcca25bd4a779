import { describe, expect, it } from "vitest";
import { applySupportPrior, askedSupportKinds, supportKind } from "./support-prior";
import { SUPPORT_PRIOR } from "./ranking/weights";

describe("supportKind: whether a path is a supporting file", () => {
  it.each([
    ["examples/pairgrid_dotplot.py", true],
    ["doc/usage/extensions/example_numpy.py", true],
    ["docs/index.rst", true],
    ["asv_bench/benchmarks/dataset_io.py", true],
    ["src/flask/app.py", false],
    ["sympy/printing/latex.py", false],
    ["CHANGES", true],
    ["CHANGELOG.rst", true],
    ["docs/../HISTORY.md", true],
    ["CHANGES.old", true],
    ["pkg/NEWS", true],
    [".github/ISSUE_TEMPLATE/bug-report.yml", true],
    ["src/changes.py", false],
    ["lib/history.py", false],
    ["src/history/store.ts", false],
    ["bench/skip.py", true],
    ["benches/parse.rs", true],
    ["src/benchmark.ts", false],
    ["sphinx/ext/napoleon/docstring.py", false],
    ["lib/documentation.ts", false],
    ["docs", false],
    ["src/docs.ts", false],
    ["src/middleware/cache/index.ts", false],
    ["vendor_utils/jq.py", false],
  ])("%s -> %s", (p, want) => expect(supportKind(p) !== null).toBe(want));
});

describe("supportKind", () => {
  it.each([
    ["docs/api.md", "docs"],
    ["examples/chat.rb", "examples"],
    ["demo/app.ts", "examples"],
    ["benchmarks/routers/src/hono.mts", "benchmarks"],
    [".github/workflows/ci.yml", "ci"],
    ["CHANGELOG.md", "changelog"],
    ["sphinx/themes/basic/static/jquery-3.5.1.js", "vendored"],
    ["sphinx/themes/basic/static/jquery.js", "vendored"],
    ["assets/bootstrap.min.css", "vendored"],
    ["support/Vagrantfile", "vendored"],
    ["docs/CHANGES.rst", "changelog"],
    ["src/context.ts", null],
  ])("%s -> %s", (p, want) => expect(supportKind(p)).toBe(want));
});

describe("askedSupportKinds", () => {
  it.each([
    ["Which example shows a chat server?", ["examples"]],
    ["Where is the request body reused if it was read in one format (for example JSON)?", []],
    ["push events to the browser over a long lived streaming response", []],
    ["what does the CI workflow run before a release", ["ci"]],
    ["which benchmark compares the routers", ["benchmarks"]],
    ["where is the migration guide for v4 documented", ["docs"]],
    ["what changed in the changelog for 1.2", ["changelog"]],
    ["where does the GitHub API client retry", []],
    ["which GitHub Actions workflow publishes the package", ["ci"]],
    ["where is the doc comment of a symbol parsed", []],
    ["where is the audio sample rate converted", []],
  ])("%s -> %j", (q, want) => expect([...askedSupportKinds(q)].sort()).toEqual(want));
});

describe("applySupportPrior", () => {
  const candidates = [
    { path: "examples/demo.py", score: 1 },
    { path: "CHANGELOG.md", score: 0.9 },
    { path: "src/lib.py", score: 0.8 },
  ];

  it("moves supporting files below source files of similar score", () => {
    const out = applySupportPrior(candidates);
    expect(out.map((c) => c.path)).toEqual(["src/lib.py", "examples/demo.py", "CHANGELOG.md"]);
    expect(out[1].score).toBe(SUPPORT_PRIOR);
  });

  it("keeps source code in a docs directory when asked to, demoting only its prose", () => {
    const docs = [
      { path: "doc/man_docs.go", language: "go", score: 1 },
      { path: "doc/README.md", language: "markdown", score: 0.9 },
      { path: "cobra.go", language: "go", score: 0.8 },
    ];
    expect(applySupportPrior(docs, new Set(), true).map((c) => c.path)).toEqual(["doc/man_docs.go", "cobra.go", "doc/README.md"]);
    expect(applySupportPrior(docs).map((c) => c.path)).toEqual(["cobra.go", "doc/man_docs.go", "doc/README.md"]);
  });

  it("spares the kinds a question asks for", () => {
    const out = applySupportPrior(candidates, askedSupportKinds("Which example shows the demo?"));
    expect(out.map((c) => [c.path, c.score])).toEqual([
      ["examples/demo.py", 1],
      ["src/lib.py", 0.8],
      ["CHANGELOG.md", 0.9 * SUPPORT_PRIOR],
    ]);
  });
});
