/**
 * Go declaration rules of go.ts: every name a `const` / `var` declaration makes is a symbol,
 * each name of a `const ( .. )` / `var ( .. )` group with its own line and signature, while the
 * group stays one chunk named after its first name. Runs in workerd.
 */
import { describe, expect, it } from "vitest";
import { chunkFile } from "./index";
import { expectWellFormed } from "./test-helpers";

// Modelled on gin's mode.go: a documented const group, an iota enum, a var group.
const MODE_GO = [
  "package gin", //                                      1
  "",
  'import "sync/atomic"',
  "",
  "// EnvGinMode indicates environment name for gin mode.", // 5
  'const EnvGinMode = "GIN_MODE"',
  "",
  "const (",
  "\t// DebugMode indicates gin mode is debug.",
  '\tDebugMode = "debug"', //                             10
  "\t// ReleaseMode indicates gin mode is release.",
  '\tReleaseMode = "release"',
  '\tTestMode = "test" // not a doc: it trails the spec',
  ")",
  "", //                                                  15
  "// Codes of the modes.",
  "const (",
  "\tdebugCode = iota",
  "\treleaseCode",
  "\ttestCode", //                                       20
  ")",
  "",
  "var (",
  "\tginMode  int32 = debugCode",
  "\tmodeName atomic.Value", //                          25
  "\tlower, upper = 'a', 'Z'",
  "\t_, blank = 1, 2",
  ")",
  "",
  "const MinPort, MaxPort = 1, 65535", //                 30
  "",
  "var _ Engine = (*engine)(nil)",
  "",
  "// Mode returns current gin mode.",
  "func Mode() string {", //                             35
  "\treturn modeName.Load().(string)",
  "}",
  "",
].join("\n");

describe("Go const and var declarations", () => {
  it("makes every name of a group, a multi-name spec and a single declaration a symbol", async () => {
    const out = await chunkFile("mode.go", MODE_GO);
    expectWellFormed(MODE_GO, out);
    expect(out.symbols).toEqual([
      {
        name: "EnvGinMode",
        kind: "constant",
        startLine: 6,
        endLine: 6,
        signature: 'const EnvGinMode = "GIN_MODE"',
        doc: "EnvGinMode indicates environment name for gin mode.",
      },
      { name: "DebugMode", kind: "constant", startLine: 10, endLine: 10, signature: 'DebugMode = "debug"', doc: "DebugMode indicates gin mode is debug." },
      {
        name: "ReleaseMode",
        kind: "constant",
        startLine: 12,
        endLine: 12,
        signature: 'ReleaseMode = "release"',
        doc: "ReleaseMode indicates gin mode is release.",
      },
      { name: "TestMode", kind: "constant", startLine: 13, endLine: 13, signature: 'TestMode = "test"' },
      // The group's comment documents the members that have none of their own (godoc).
      { name: "debugCode", kind: "constant", startLine: 18, endLine: 18, signature: "debugCode = iota", doc: "Codes of the modes." },
      { name: "releaseCode", kind: "constant", startLine: 19, endLine: 19, signature: "releaseCode", doc: "Codes of the modes." },
      { name: "testCode", kind: "constant", startLine: 20, endLine: 20, signature: "testCode", doc: "Codes of the modes." },
      { name: "ginMode", kind: "variable", startLine: 24, endLine: 24, signature: "ginMode int32 = debugCode" },
      { name: "modeName", kind: "variable", startLine: 25, endLine: 25, signature: "modeName atomic.Value" },
      { name: "lower", kind: "variable", startLine: 26, endLine: 26, signature: "lower, upper = 'a', 'Z'" },
      { name: "upper", kind: "variable", startLine: 26, endLine: 26, signature: "lower, upper = 'a', 'Z'" },
      { name: "blank", kind: "variable", startLine: 27, endLine: 27, signature: "_, blank = 1, 2" },
      { name: "MinPort", kind: "constant", startLine: 30, endLine: 30, signature: "const MinPort, MaxPort = 1, 65535" },
      { name: "MaxPort", kind: "constant", startLine: 30, endLine: 30, signature: "const MinPort, MaxPort = 1, 65535" },
      { name: "Mode", kind: "function", startLine: 35, endLine: 37, signature: "func Mode() string", doc: "Mode returns current gin mode." },
    ]);
  });

  it("keeps each group one chunk named after its first name", async () => {
    const out = await chunkFile("mode.go", MODE_GO);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.signature, c.startLine, c.endLine])).toEqual([
      ["module", undefined, undefined, 1, 3],
      ["module", "EnvGinMode", 'const EnvGinMode = "GIN_MODE"', 5, 6],
      ["module", "DebugMode", "const ( DebugMode", 8, 14],
      ["module", "debugCode", "const ( debugCode", 16, 21],
      ["module", "ginMode", "var ( ginMode", 23, 28],
      // Tiny declarations merge; `_` names nothing.
      ["module", "MinPort", undefined, 30, 32],
      ["function", "Mode", "func Mode() string", 34, 37],
    ]);
  });

  it("records the members of a group short enough to merge with its neighbours", async () => {
    const text = "package a\n\nconst one = 1\nvar (\n\ttwo int\n)\nconst (Three, Four = 3, 4)\n";
    const out = await chunkFile("a.go", text);
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.symbol, c.startLine, c.endLine])).toEqual([
      [undefined, 1, 1],
      ["one, two, Three", 3, 7],
    ]);
    expect(out.symbols.map((s) => [s.name, s.kind, s.startLine, s.signature])).toEqual([
      ["one", "constant", 3, "const one = 1"],
      ["two", "variable", 5, "two int"],
      ["Three", "constant", 7, "Three, Four = 3, 4"],
      ["Four", "constant", 7, "Three, Four = 3, 4"],
    ]);
  });
});
