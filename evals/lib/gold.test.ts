import { describe, expect, it } from "vitest";
import { checkGoldSpan, locateSymbol } from "./gold.ts";
import { replaceBlock } from "./readme.ts";
import { includePath } from "./inclusion.ts";
import { parseRetrievalSet } from "./sets.ts";

const ts = `import x from "y";

export class Cache {
  get(key: string) {
    return key;
  }

  set(key: string) {
    if (key) { return; }
  }
}
`;

describe("gold locator and checker", () => {
  it("finds a class and a member by brace balance", () => {
    expect(locateSymbol("a.ts", ts, "Cache")).toEqual({ startLine: 3, endLine: 11 });
    expect(locateSymbol("a.ts", ts, "Cache.set")).toEqual({ startLine: 8, endLine: 10 });
    expect(locateSymbol("a.ts", ts, "Missing")).toBeNull();
  });

  it("ends Python definitions by indentation and SQL at the semicolon", () => {
    const py = "class Q:\n    def a(self):\n        return 1\n\n    def b(self):\n        pass\n\nX = 1\n";
    expect(locateSymbol("q.py", py, "Q.a")).toEqual({ startLine: 2, endLine: 3 });
    expect(locateSymbol("q.py", py, "Q")).toEqual({ startLine: 1, endLine: 6 });
    expect(locateSymbol("m.sql", "-- t\nCREATE TABLE t (\n  id INT\n);\n", "t")).toEqual({ startLine: 2, endLine: 4 });
  });

  it("rejects ranges outside the file or not naming the symbol", () => {
    expect(checkGoldSpan(ts, { file: "a.ts", symbol: "Cache", startLine: 3, endLine: 11 })).toBeNull();
    expect(checkGoldSpan(ts, { file: "a.ts", symbol: "Cache", startLine: 3, endLine: 12 })).toMatch(/past the end/);
    expect(checkGoldSpan(ts, { file: "a.ts", symbol: "Cache.get", startLine: 5, endLine: 6 })).toMatch(/does not contain/);
  });
});

describe("gold checker on other languages (polyglot)", () => {
  const go =
    "}\n\n// MustGet returns the value.\n// It panics otherwise.\nfunc (c *Context) MustGet(key any) any {\n\treturn nil\n}\n\n// Next doc.\nfunc Next() {}\n";
  const rs = "    /// Fill the buffer.\n    ///\n    /// More.\n    #[inline]\n    fn fill(&mut self) -> bool {\n        true\n    }\n";
  const rb = "    end\n\n    # Serve static files.\n    # Halts when found.\n    def static!(options = {})\n      nil\n    end\n";

  it("accepts a range that opens on the definition's doc comment or attributes", () => {
    expect(checkGoldSpan(go, { file: "context.go", symbol: "Context.MustGet", startLine: 3, endLine: 7 })).toBeNull();
    expect(checkGoldSpan(go, { file: "context.go", symbol: "Context.MustGet", startLine: 5, endLine: 7 })).toBeNull();
    expect(checkGoldSpan(rs, { file: "src/line_buffer.rs", symbol: "LineBuffer.fill", startLine: 1, endLine: 7 })).toBeNull();
    expect(checkGoldSpan(rb, { file: "lib/base.rb", symbol: "static!", startLine: 3, endLine: 7 })).toBeNull();
  });

  it("rejects a range that opens inside the previous definition, on a blank line or mid-comment", () => {
    expect(checkGoldSpan(go, { file: "context.go", symbol: "Context.MustGet", startLine: 1, endLine: 7 })).toMatch(/line 1 does not contain "MustGet"/);
    expect(checkGoldSpan(go, { file: "context.go", symbol: "Context.MustGet", startLine: 2, endLine: 7 })).toMatch(/does not contain/);
    expect(checkGoldSpan(rs, { file: "src/line_buffer.rs", symbol: "LineBuffer.fill", startLine: 3, endLine: 7 })).toMatch(/inside a comment/);
    expect(checkGoldSpan(rb, { file: "lib/base.rb", symbol: "static!", startLine: 4, endLine: 7 })).toMatch(/inside a comment/);
  });

  it("reads past a blank line after a JSDoc block, multi-line C# attributes and C++ template heads", () => {
    const js = "/**\n * Lookup view.\n */\n\nView.prototype.lookup = function lookup(name) {\n  return name;\n};\n";
    const cs =
      '    /// <summary>Validates.</summary>\n    [UnconditionalSuppressMessage(\n        "Trimming",\n        Justification = "x")]\n    public static void ValidateObject(object o)\n    {\n    }\n';
    const cpp =
      "namespace dragonbox {\ntemplate <typename T> auto to_decimal(T x) noexcept -> int {\n  return 0;\n}\ntemplate <typename Context>\nvoid handle_dynamic_spec(int kind) {\n}\n";
    expect(checkGoldSpan(js, { file: "lib/view.js", symbol: "View.lookup", startLine: 1, endLine: 7 })).toBeNull();
    expect(checkGoldSpan(cs, { file: "src/ValidationHelper.cs", symbol: "ValidationHelper.ValidateObject", startLine: 1, endLine: 7 })).toBeNull();
    expect(checkGoldSpan(cpp, { file: "format-inl.h", symbol: "dragonbox::to_decimal", startLine: 2, endLine: 4 })).toBeNull();
    expect(checkGoldSpan(cpp, { file: "format.h", symbol: "handle_dynamic_spec", startLine: 5, endLine: 7 })).toBeNull();
    expect(checkGoldSpan(cpp, { file: "format.h", symbol: "handle_dynamic_spec", startLine: 3, endLine: 7 })).toMatch(/does not contain/);
  });

  it("rejects a range that ends in the next definition's doc comment", () => {
    expect(checkGoldSpan(go, { file: "context.go", symbol: "Context.MustGet", startLine: 3, endLine: 9 })).toMatch(/endLine 9 is a comment/);
  });

  it("checks only the bounds of a file-level range (no symbol)", () => {
    expect(checkGoldSpan(go, { file: "context.go", startLine: 1, endLine: 7 })).toBeNull();
    expect(checkGoldSpan(go, { file: "context.go", startLine: 1, endLine: 40 })).toMatch(/past the end/);
  });
});

describe("README blocks, inclusion rules, set parsing", () => {
  it("replaces a block in place, or appends it under its heading", () => {
    const readme = "# P\n\n## Evaluation\n\nIntro.\n\n## Other\n\nx\n";
    const once = replaceBlock(readme, "eval:fixture", "T1", "## Evaluation");
    expect(once).toContain("Intro.\n\n<!-- eval:fixture:start -->\nT1\n<!-- eval:fixture:end -->\n\n## Other");
    const twice = replaceBlock(once, "eval:fixture", "T2", "## Evaluation");
    expect(twice).not.toContain("T1");
    expect(twice.match(/eval:fixture:start/g)).toHaveLength(1);
    expect(replaceBlock("# P\n", "bench", "B", "## Benchmarks")).toBe("# P\n\n## Benchmarks\n\n<!-- bench:start -->\nB\n<!-- bench:end -->\n");
  });

  it("applies the hono-50 publisher rule", () => {
    expect(includePath("publisher", "src/router/smart-router/router.ts")).toBe(true);
    expect(includePath("publisher", "src/router/smart-router/router.test.ts")).toBe(false);
    expect(includePath("publisher", "src/types.d.ts")).toBe(false);
    expect(includePath("publisher", "docs/intro.md")).toBe(false);
    expect(includePath("whole", "docs/intro.md")).toBe(true);
    expect(includePath("whole", ".git/config")).toBe(false);
  });

  it("names the malformed question", () => {
    expect(() => parseRetrievalSet("s", { questions: [{ id: "q1", category: "lexical", question: "x", gold: [] }] })).toThrow(/q1/);
    expect(() => parseRetrievalSet("s", { questions: [{ id: "q2", category: "odd", question: "x", gold: [] }] })).toThrow(/category/);
  });
});
