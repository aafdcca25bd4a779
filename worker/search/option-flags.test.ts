import { describe, expect, it } from "vitest";
import { applyOptionPrior, declaresOption, optionFlags } from "./option-flags";
import { OPTION_PRIOR } from "./ranking/weights";

describe("optionFlags", () => {
  it("takes long options as written, deduplicated, not dashes of other tokens", () => {
    expect(optionFlags("pytest --collect-only needs a shortcut; run `--collect-only` or --outputFile")).toEqual(["--collect-only", "--outputFile"]);
    expect(optionFlags("a--b ---- |---|---| --x x-->y")).toEqual([]);
  });
  it("leaves out the options of commands pasted in fenced code blocks", () => {
    const report =
      "Headings vanish with rst_prolog\n```bash\n$ sphinx-quickstart --no-sep --project p\n```\nWith `--keep-going` too.\n~~~\nsphinx-build --jobs 2\n~~~\n```\n--unclosed";
    expect(optionFlags(report)).toEqual(["--keep-going"]);
    expect(optionFlags("```python -m worker.main --replay-dead```\nWhat does `--replay-dead` do?")).toEqual(["--replay-dead"]);
  });
});

describe("declaresOption", () => {
  it.each([
    ['    group.addoption(\n        "--collectonly",\n        "--collect-only",\n        "--co",\n        action="store_true",\n    )', "--collect-only", true],
    ['    group.addoption(\n        "--fixtures",\n        "--funcargs",\n        action="store_true",', "--fixtures", true],
    ["parser.add_argument('-v', '--verbose', action='count')", "--verbose", true],
    ["program.option('-c, --collect-only <n>', 'only collect')", "--collect-only", true],
    ['@click.option("--dry-run", is_flag=True)', "--dry-run", true],
    ['    group._addoption(\n        "--pdb",\n        dest="usepdb",', "--pdb", true],
    ['        rec = self.inline_run("--collect-only", *args)', "--collect-only", false],
    ['    args = ["--msg-template", template]', "--msg-template", false],
    ['group.addoption("--collect-only-x")', "--collect-only", false],
  ])("%s declares %s: %s", (content, flag, want) => expect(declaresOption(content, flag)).toBe(want));
});

describe("applyOptionPrior", () => {
  it("lifts the chunks of the declaring files", () => {
    const c = [
      { f: "r\0a.py", score: 1 },
      { f: "r\0main.py", score: 0.6 },
      { f: "r\0b.py", score: 0.9 },
    ];
    const out = applyOptionPrior(c, new Set(["r\0main.py"]), (x) => x.f);
    expect(out.map((x) => x.f)).toEqual(["r\0main.py", "r\0a.py", "r\0b.py"]);
    expect(out[0].score).toBeCloseTo(0.6 * OPTION_PRIOR);
    expect(applyOptionPrior(c, new Set(), (x) => x.f)).toBe(c);
  });
});
