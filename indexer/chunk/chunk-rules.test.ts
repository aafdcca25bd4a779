/**
 * Chunking rules that the goldens do not isolate: long definitions become windows that keep
 * their name, options are honoured, odd inputs still chunk. Runs in workerd.
 */
import { describe, expect, it } from "vitest";
import { expectWellFormed } from "./test-helpers";
import { chunkFile, detectLanguage } from "./index";

describe("detectLanguage", () => {
  it.each([
    ["src/app.ts", "typescript"],
    ["web/App.tsx", "tsx"],
    ["lib/x.mjs", "javascript"],
    ["a/b.jsx", "javascript"],
    ["tool.py", "python"],
    ["main.go", "go"],
    ["lib.rs", "rust"],
    ["A.java", "java"],
    ["x.h", "c"],
    ["x.hpp", "cpp"],
    ["P.cs", "csharp"],
    ["Rakefile", "ruby"],
    ["index.php", "php"],
    ["docs/README.md", "markdown"],
    ["ci.yml", "yaml"],
    ["package.json", "json"],
    ["Cargo.toml", "toml"],
    ["migrations/0001_init.sql", "sql"],
    ["scripts/run.sh", "shell"],
    ["Dockerfile", "dockerfile"],
    ["docker/Dockerfile.dev", "dockerfile"],
    ["Makefile", "makefile"],
    ["LICENSE", "text"],
    ["notes.unknownext", "text"],
  ])("%s is %s", (path, language) => {
    expect(detectLanguage(path)).toBe(language);
  });
});

describe("chunkFile rules", () => {
  it("splits a long function into overlapping windows that keep its name", async () => {
    const body = Array.from({ length: 300 }, (_, i) => `  total += ${i};`).join("\n");
    const text = `export function sumAll(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
    const out = await chunkFile("src/sum.ts", text, { maxChunkLines: 100, windowOverlap: 10 });
    expectWellFormed(text, out);
    expect(out.chunks.length).toBe(4);
    for (const c of out.chunks) {
      expect(c.kind).toBe("function");
      expect(c.symbol).toBe("sumAll");
      expect(c.signature).toBe("function sumAll(): number");
    }
    expect(out.chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 100],
      [91, 190],
      [181, 280],
      [271, 304],
    ]);
    expect(out.symbols).toEqual([{ name: "sumAll", kind: "function", signature: "function sumAll(): number", startLine: 1, endLine: 304 }]);
  });

  it("merges a run of tiny type aliases into one chunk", async () => {
    const text = "type A = string;\ntype B = number;\ntype C = A | B;\n\nfunction f(): C {\n  return 1;\n}\n";
    const out = await chunkFile("t.ts", text);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["type", "A, B, C", 1, 3],
      ["function", "f", 5, 7],
    ]);
    expect(out.symbols.map((s) => s.name)).toEqual(["A", "B", "C", "f"]);
  });

  it("windows text files with the configured size and overlap", async () => {
    const text = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join("\n");
    const out = await chunkFile("notes.txt", text, { windowLines: 10, windowOverlap: 3 });
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.startLine, c.endLine])).toEqual([
      ["window", 1, 10],
      ["window", 8, 17],
      ["window", 15, 24],
      ["window", 22, 25],
    ]);
  });

  it("keeps CRLF line endings in content", async () => {
    const text = "def a():\r\n    return 1\r\n\r\ndef b():\r\n    return 2\r\n";
    const out = await chunkFile("m.py", text);
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.symbol, c.content])).toEqual([
      ["a", "def a():\r\n    return 1\r"],
      ["b", "def b():\r\n    return 2\r"],
    ]);
  });

  it("falls back to windows when the tree is useless", async () => {
    const text = "%%% ??? !!!\n@@@ ### $$$\n)))(((\n";
    const out = await chunkFile("garbage.ts", text);
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.startLine, c.endLine])).toEqual([["window", 1, 3]]);
    expect(out.symbols).toEqual([]);
  });

  it("keeps the well-formed functions of a C file that an #if/#else split head wraps in ERROR", async () => {
    const text = [
      "#ifndef SPLIT_H",
      "#define SPLIT_H",
      "#include <stdio.h>",
      "",
      "static int before(int a) {",
      "    return a + 1;",
      "}",
      "",
      "#if OLD_API",
      "static void on_tick(int timer, int status) {",
      "    (void)status;",
      "#else",
      "static void on_tick(int timer) {",
      "#endif",
      '    printf("%d\\n", timer);',
      "}",
      "",
      "static int after(int b) {",
      "    return b * 2;",
      "}",
      "",
      "#endif",
      "",
    ].join("\n");
    const out = await chunkFile("include/split.h", text);
    expectWellFormed(text, out);
    // The function split by #if/#else starts at the #if: both heads are in its chunk and symbol.
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["module", undefined, 1, 3],
      ["function", "before", 5, 7],
      ["function", "on_tick", 9, 16],
      ["function", "after", 18, 20],
      ["module", undefined, 22, 22],
    ]);
    expect(out.symbols.map((s) => [s.name, s.signature, s.startLine, s.endLine])).toEqual([
      ["before", "static int before(int a)", 5, 7],
      ["on_tick", "static void on_tick(int timer)", 9, 16],
      ["after", "static int after(int b)", 18, 20],
    ]);
    expect(out.imports).toEqual(["#include <stdio.h>"]);
  });

  it("starts a function at the #ifdef of a split head (with #elif, pointer return, doc comment above)", async () => {
    const text = [
      "int first(void) {",
      "    return 0;",
      "}",
      "",
      "/* Name of a code. */",
      "#ifdef WIDE",
      "static char *name_of(int a, int wide) {",
      "#elif NARROW",
      "static char *name_of(int a) {",
      "#endif",
      '    return "x";',
      "}",
      "",
    ].join("\n");
    const out = await chunkFile("names.c", text);
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["function", "first", 1, 3],
      ["function", "name_of", 5, 12],
    ]);
    expect(out.symbols.at(-1)).toEqual({
      name: "name_of",
      kind: "function",
      signature: "static char *name_of(int a)",
      doc: "Name of a code.",
      startLine: 6,
      endLine: 12,
    });
  });

  it("leaves the head alone when the #if branch declares another function", async () => {
    const text = "int first(void) {\n    return 0;\n}\n\n#if OLD\nstatic void g(int a) {\n#else\nstatic void f(void) {\n#endif\n    return;\n}\n";
    const out = await chunkFile("other.c", text);
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["function", "first", 1, 3],
      ["module", undefined, 5, 7],
      ["function", "f", 8, 11],
    ]);
  });

  it("records Java enum constants without a body as symbols that stay in the enum's header chunk", async () => {
    const text = [
      "/** Naming policies. */",
      "public enum Policy implements Strategy {",
      "  /** Keeps the name. */",
      "  IDENTITY,",
      '  UPPER_CAMEL_CASE("x"),',
      "  LOWER_CASE_WITH_DASHES(",
      '      "-"),',
      "  LOWER {",
      "    @Override",
      "    public String apply(String s) {",
      "      return s.toLowerCase();",
      "    }",
      "  };",
      "",
      "  private final String sep;",
      "",
      "  Policy(String sep) {",
      "    this.sep = sep;",
      "  }",
      "}",
      "",
    ].join("\n");
    const constants = [
      { name: "IDENTITY", kind: "constant", container: "Policy", signature: "IDENTITY", doc: "Keeps the name.", startLine: 4, endLine: 4 },
      { name: "UPPER_CAMEL_CASE", kind: "constant", container: "Policy", signature: 'UPPER_CAMEL_CASE("x")', startLine: 5, endLine: 5 },
      { name: "LOWER_CASE_WITH_DASHES", kind: "constant", container: "Policy", signature: "LOWER_CASE_WITH_DASHES(", startLine: 6, endLine: 7 },
    ];
    // Split (longer than maxChunkLines): the constants are symbols, but their lines stay in the
    // enum's header chunk; the constant with a body is still a class chunk of its own.
    const split = await chunkFile("src/Policy.java", text, { maxChunkLines: 8 });
    expectWellFormed(text, split);
    expect(split.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["enum", "Policy", 1, 7],
      ["class", "LOWER", 8, 13],
      ["enum", "Policy", 15, 15],
      ["constructor", "Policy", 17, 20],
    ]);
    expect(split.symbols.filter((s) => s.kind === "constant")).toEqual(constants);
    expect(split.symbols.map((s) => [s.kind, s.name])).toEqual([
      ["enum", "Policy"],
      ["constant", "IDENTITY"],
      ["constant", "UPPER_CAMEL_CASE"],
      ["constant", "LOWER_CASE_WITH_DASHES"],
      ["class", "LOWER"],
      ["method", "apply"],
      ["field", "sep"],
      ["constructor", "Policy"],
    ]);
    // Kept whole: one chunk, the same symbols.
    const whole = await chunkFile("src/Policy.java", text);
    expect(whole.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([["enum", "Policy", 1, 20]]);
    expect(whole.symbols).toEqual(split.symbols);
  });

  it.each([
    [
      "src/color.ts",
      'export enum Color {\n  Red,\n  /** Leaf. */\n  Green = "g",\n  "dark-blue" = 3,\n}\n',
      "Color",
      [
        ["Red", 2],
        ["Green", 4],
        ["dark-blue", 5],
      ],
    ],
    [
      "src/decision.rs",
      "pub enum Decision {\n    Allow,\n    #[allow(dead_code)]\n    Deny { retry_after_ms: u64 },\n    Wait(u64),\n}\n",
      "Decision",
      [
        ["Allow", 2],
        ["Deny", 4],
        ["Wait", 5],
      ],
    ],
    [
      "Status.cs",
      "public enum Status\n{\n    Open,\n    [Obsolete] Paid = 2,\n}\n",
      "Status",
      [
        ["Open", 3],
        ["Paid", 4],
      ],
    ],
    [
      "conn.h",
      "typedef enum {\n    CONN_TCP,\n#ifdef HAVE_UNIX\n    CONN_UNIX,\n#endif\n    CONN_FD = 3\n} conn_type;\n",
      "conn_type",
      [
        ["CONN_TCP", 2],
        ["CONN_UNIX", 4],
        ["CONN_FD", 6],
      ],
    ],
    [
      "color.cpp",
      "enum class Color : int {\n  Red,\n  Green,\n};\n",
      "Color",
      [
        ["Red", 2],
        ["Green", 3],
      ],
    ],
    [
      "Suit.php",
      "<?php\nenum Suit: string {\n    case Hearts = 'H';\n    case Spades = 'S';\n}\n",
      "Suit",
      [
        ["Hearts", 3],
        ["Spades", 4],
      ],
    ],
  ])("records the members of an enum in %s as constant symbols inside the enum's one chunk", async (path, text, name, members) => {
    const out = await chunkFile(path, text);
    expectWellFormed(text, out);
    const lines = text.trimEnd().split("\n").length;
    expect(out.chunks.filter((c) => c.kind === "enum").map((c) => [c.symbol, c.endLine])).toEqual([[name, lines]]);
    expect(out.symbols.filter((s) => s.kind === "constant").map((s) => [s.name, s.startLine, s.container])).toEqual(members.map(([n, l]) => [n, l, name]));
  });

  it("windows a long enum of constants as before, each constant a symbol", async () => {
    const names = Array.from({ length: 30 }, (_, i) => `CODE_${i}`);
    const text = `enum code {\n${names.map((n) => `    ${n},`).join("\n")}\n};\n`;
    const out = await chunkFile("codes.h", text, { maxChunkLines: 10, windowOverlap: 2 });
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["enum", "code", 1, 10],
      ["enum", "code", 9, 18],
      ["enum", "code", 17, 26],
      ["enum", "code", 25, 32],
    ]);
    expect(out.symbols.filter((s) => s.kind === "constant").map((s) => [s.name, s.startLine])).toEqual(names.map((n, i) => [n, i + 2]));
  });

  it("does not recover a definition that is itself broken from inside an ERROR", async () => {
    const text = "#ifdef A\nstatic int f(int a) {\n  int x = (a + ;\n  return x;\n#else\nstatic int f(void) {\n#endif\n  return 1 +;\n}\n";
    const out = await chunkFile("broken.c", text);
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.startLine, c.endLine])).toEqual([["window", 1, 9]]);
    expect(out.symbols).toEqual([]);
  });

  it("returns no chunks for an empty or blank file", async () => {
    expect((await chunkFile("a.ts", "")).chunks).toEqual([]);
    expect((await chunkFile("a.py", "\n\n   \n")).chunks).toEqual([]);
    expect((await chunkFile("a.yaml", "")).chunks).toEqual([]);
  });

  it("chunks a file of every grammar language without losing lines", async () => {
    const samples: Record<string, string> = {
      "a.ts": "export class A {\n  x = 1;\n}\n",
      "a.go": "package a\n\nfunc F() {}\n",
      "a.rb": "class A\n  def f; end\nend\n",
      "a.cs": "namespace N;\nclass A { void F() {} }\n",
      "a.php": "<?php\nfunction f() {}\n?>\n<p>html</p>\n",
      "a.h": "#ifndef A_H\n#define A_H\nint f(void);\n#endif\n",
    };
    for (const [path, text] of Object.entries(samples)) expectWellFormed(text, await chunkFile(path, text));
  });
});

describe("signatures", () => {
  it("end before a comment between the head and the body", async () => {
    const ruby = await chunkFile("lib/a.rb", "class A\n  def compile!(path, opts = {})\n    # Compiles the route.\n    path\n  end\nend\n");
    expect(ruby.symbols.find((s) => s.name === "compile!")?.signature).toBe("def compile!(path, opts = {})");
    const c = await chunkFile("a.c", "int f(int a) /* checked */ {\n  return a;\n}\n");
    expect(c.symbols.find((s) => s.name === "f")?.signature).toBe("int f(int a)");
  });
});
