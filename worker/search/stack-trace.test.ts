import { describe, expect, it } from "vitest";
import { parseQuery } from "./query";
import { applyTracePrior, frameMatch, parseStackFrames, traceAnchor, TRACE_PRIOR, type FrameChunk } from "./stack-trace";

describe("parseStackFrames", () => {
  it("reads a Python traceback innermost first, behind a log prefix too", () => {
    const text = [
      "Traceback (most recent call last):",
      '  File "<string>", line 1, in <module>',
      "INTERNALERROR>   File \"/usr/lib/python3.8/site-packages/_pytest/main.py\", line 191, in wrap_session",
      '  File "C:\\Users\\e\\sympy\\core\\numbers.py", line 1045, in __new__',
      "    num[1] = long(num[1], 16)",
      "ValueError: invalid literal",
    ].join("\n");
    expect(parseStackFrames(text)).toEqual([
      { path: "C:/Users/e/sympy/core/numbers.py", line: 1045, symbol: "__new__" },
      { path: "/usr/lib/python3.8/site-packages/_pytest/main.py", line: 191, symbol: "wrap_session" },
      { path: "<string>", line: 1, symbol: "<module>" },
    ]);
  });

  it("reads pytest, V8, Java and Go frames", () => {
    const pytest = "src/_pytest/python.py:12: in collect\n    x = 1\nsrc/_pytest/nodes.py:40: ValueError";
    expect(parseStackFrames(pytest).map((f) => `${f.path}:${f.line}:${f.symbol}`)).toEqual(["src/_pytest/nodes.py:40:null", "src/_pytest/python.py:12:collect"]);
    const v8 = "Error: boom\n    at compose (/app/node_modules/hono/dist/compose.js:30:11)\n    at /app/src/index.ts:4:3";
    expect(parseStackFrames(v8)).toEqual([
      { path: "/app/node_modules/hono/dist/compose.js", line: 30, symbol: "compose" },
      { path: "/app/src/index.ts", line: 4, symbol: null },
    ]);
    const java = "java.lang.IllegalStateException: no rate\n\tat org.acme.billing.Invoice.total(Invoice.java:42)";
    expect(parseStackFrames(java)).toEqual([{ path: "org/acme/billing/Invoice.java", line: 42, symbol: "total" }]);
    const go = "panic: nil map\n\ngoroutine 1 [running]:\nmain.store(...)\n\t/home/u/app/store/map.go:17 +0x1d";
    expect(parseStackFrames(go)).toEqual([{ path: "/home/u/app/store/map.go", line: 17, symbol: null }]);
    const esm = "    at Hono.#dispatch (file:///home/me/app/src/hono-base.ts:407:20)";
    expect(parseStackFrames(esm)).toEqual([{ path: "/home/me/app/src/hono-base.ts", line: 407, symbol: "Hono.#dispatch" }]);
    const escaped = '  File "C:\\\\Users\\\\me\\\\_pytest\\\\terminal.py", line 3, in main';
    expect(parseStackFrames(escaped)[0].path).toBe("C:/Users/me/_pytest/terminal.py");
  });

  it("reads Go frames of a whole report, offsets and all", () => {
    const report = "Export panics on an empty order list\nRunning the migration panics.\n```\npanic: runtime error\n\ngoroutine 1 [running]:\nmain.RunMigrate()\n\t/src/app/cli/cmd/migrate.go:52 +0x1d4\n```";
    expect(parseQuery(report).frames).toEqual([{ path: "/src/app/cli/cmd/migrate.go", line: 52, symbol: null }]);
  });

  it("finds nothing in prose and code without a trace", () => {
    expect(parseStackFrames("Where is the file router.ts loaded?\n```python\nprint(open('a.py'))\n```")).toEqual([]);
  });
});

describe("frameMatch", () => {
  it.each([
    ["/usr/lib/python3/site-packages/_pytest/python.py", "src/_pytest/python.py", 2],
    ["/home/u/venv/lib/python3.9/site-packages/pylint/config/argument.py", "pylint/config/argument.py", 3],
    ["./sympy/core/sympify.py", "sympy/core/sympify.py", 3],
    ["/Users/a/git/sympy/sympy/core/numbers.py", "sympy/core/numbers.py", 3],
    ["org/acme/billing/Invoice.java", "src/main/java/org/acme/billing/Invoice.java", 4],
    ["src/utils/jwt/jwt.ts", "src/utils/jwt/jwt.ts", 4],
    ["src/utils/jwt/jwt.ts", "src/middleware/jwt/jwt.ts", 2],
    // Another installed package's file with the same tail, the standard library, a bare name.
    ["/venv/lib/python3.11/site-packages/myplugin/config/__init__.py", "src/_pytest/config/__init__.py", 0],
    ["/app/node_modules/zod/src/index.ts", "src/index.ts", 0],
    ["/usr/lib/python3.11/logging/__init__.py", "src/_pytest/logging/__init__.py", 0],
    ["/usr/lib/python3.9/argparse.py", "pylint/config/argument.py", 0],
    ["/home/u/other/utils.py", "pkg/utils.py", 0],
    ["test_foo.py", "test_foo.py", 1],
    ["test_foo.py", "testing/test_foo.py", 0],
  ])("%s names %s: %i", (frame, path, want) => expect(frameMatch(frame, path)).toBe(want));
});

describe("applyTracePrior", () => {
  const candidates = [
    { path: "sympy/physics/mechanics/system.py", score: 1 },
    { path: "sympy/utilities/codegen.py", score: 0.9 },
    { path: "sympy/core/numbers.py", score: 0.8 },
  ];

  it("lifts the file of the innermost frame that is in the repo", () => {
    const frames = parseStackFrames('  File "/Users/a/sympy/sympy/core/numbers.py", line 1045, in __new__\n  File "/usr/lib/python3.9/pickle.py", line 3, in load');
    const out = applyTracePrior(candidates, frames);
    expect(out[0]).toEqual({ path: "sympy/core/numbers.py", score: 0.8 * TRACE_PRIOR });
    expect(out.slice(1).map((c) => c.path)).toEqual(["sympy/physics/mechanics/system.py", "sympy/utilities/codegen.py"]);
  });

  it("lifts the file the frame names best when two share its last segments", () => {
    const jwt = [
      { path: "src/middleware/jwt/jwt.ts", score: 1 },
      { path: "src/utils/jwt/jwt.ts", score: 0.9 },
    ];
    const out = applyTracePrior(jwt, parseStackFrames("    at verify (src/utils/jwt/jwt.ts:80:11)"));
    expect(out[0].path).toBe("src/utils/jwt/jwt.ts");
  });

  it("changes nothing when no frame names a candidate's file", () => {
    const frames = parseStackFrames('  File "/usr/lib/python3.9/argparse.py", line 2483, in _get_value');
    expect(applyTracePrior(candidates, frames)).toEqual(candidates);
  });
});

describe("traceAnchor", () => {
  const c = (id: string, path: string, startLine: number, endLine: number): FrameChunk => ({ repo: "r", id, path, startLine, endLine });
  const frames = parseStackFrames(
    ['  File "/home/u/app/pkg/cli.py", line 3, in main', '  File "/home/u/app/pkg/core/numbers.py", line 12, in __new__'].join("\n"),
  );

  it("takes the innermost frame's chunk, the smallest one holding the line", () => {
    const chunks = [c("cls", "pkg/core/numbers.py", 1, 40), c("new", "pkg/core/numbers.py", 10, 20), c("main", "pkg/cli.py", 1, 5)];
    expect(traceAnchor(frames, chunks)?.id).toBe("new");
  });

  it("falls back to an outer frame when the innermost names no looked-up chunk", () => {
    const chunks = [c("other", "vendor/numbers.py", 10, 20), c("main", "pkg/cli.py", 1, 5)];
    expect(traceAnchor(frames, chunks)?.id).toBe("main");
  });

  it("needs the line inside the chunk", () => {
    expect(traceAnchor(frames, [c("new", "pkg/core/numbers.py", 30, 40)])).toBeNull();
  });
});
