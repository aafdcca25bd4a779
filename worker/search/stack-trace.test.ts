import { describe, expect, it } from "vitest";
import { parseStackFrames } from "./stack-frames";
import { applyTracePrior, frameChunks, frameMatch, traceAnchor, TRACE_PRIOR, type FrameChunk } from "./stack-trace";

describe("frameMatch", () => {
  it.each([
    ["/usr/lib/python3/site-packages/_pytest/python.py", "src/_pytest/python.py", 2],
    ["/home/u/venv/lib/python3.9/site-packages/pylint/config/argument.py", "pylint/config/argument.py", 3],
    ["./sympy/core/sympify.py", "sympy/core/sympify.py", 3],
    ["/Users/a/git/sympy/sympy/core/numbers.py", "sympy/core/numbers.py", 3],
    ["org/acme/billing/Invoice.java", "src/main/java/org/acme/billing/Invoice.java", 4],
    ["src/utils/jwt/jwt.ts", "src/utils/jwt/jwt.ts", 4],
    ["src/utils/jwt/jwt.ts", "src/middleware/jwt/jwt.ts", 2],
    // .NET frames on Windows, backslashes turned into slashes by parseStackFrames.
    ["C:/src/Acme.Billing/InvoiceService.cs", "src/Acme.Billing/InvoiceService.cs", 3],
    ["C:/Users/Jane Doe/source/repos/Acme/Acme.Billing/Repository.cs", "Acme.Billing/Repository.cs", 2],
    ["C:/src/Acme.Billing/InvoiceService.cs", "tests/InvoiceService.cs", 0],
    // Another installed package's file with the same tail, the standard library, a bare name.
    ["/venv/lib/python3.11/site-packages/myplugin/config/__init__.py", "src/_pytest/config/__init__.py", 0],
    ["/app/node_modules/zod/src/index.ts", "src/index.ts", 0],
    ["/usr/lib/python3.11/logging/__init__.py", "src/_pytest/logging/__init__.py", 0],
    ["/usr/lib/python3.9/argparse.py", "pylint/config/argument.py", 0],
    ["/home/u/other/utils.py", "pkg/utils.py", 0],
    ["test_foo.py", "test_foo.py", 1],
    ["test_foo.py", "testing/test_foo.py", 0],
    // Pseudo-paths of code with no file.
    ["<frozen importlib._bootstrap>", "importlib/_bootstrap.py", 0],
    ["<string>", "<string>", 1],
    ["(eval)", "lib/eval.rb", 0],
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

  it("lifts the chunk holding the innermost frame's line above the rest of its file", () => {
    const file = [
      { path: "src/line_buffer.rs", chunkId: "reader", score: 1 },
      { path: "src/line_buffer.rs", chunkId: "fill", score: 0.6 },
      { path: "src/glue.rs", chunkId: "glue", score: 1.5 },
    ];
    const out = applyTracePrior(file, parseStackFrames("thread 'main' panicked at src/line_buffer.rs:415:9:"), "fill");
    expect(out.map((c) => [c.chunkId, c.score])).toEqual([["fill", 0.6 * TRACE_PRIOR * TRACE_PRIOR], ["reader", TRACE_PRIOR], ["glue", 1.5]]);
  });

  it("lifts the file the frame names best when two share its last segments", () => {
    const jwt = [
      { path: "src/middleware/jwt/jwt.ts", score: 1 },
      { path: "src/utils/jwt/jwt.ts", score: 0.9 },
    ];
    const out = applyTracePrior(jwt, parseStackFrames("    at verify (src/utils/jwt/jwt.ts:80:11)"));
    expect(out[0].path).toBe("src/utils/jwt/jwt.ts");
  });

  it("lifts the file of a Java trace's root cause, not the wrapper's first frame", () => {
    const report = [
      "com.google.gson.JsonSyntaxException: java.lang.IllegalStateException: Expected BEGIN_OBJECT",
      "\tat com.google.gson.internal.bind.ReflectiveTypeAdapterFactory$Adapter.read(ReflectiveTypeAdapterFactory.java:397)",
      "Caused by: java.lang.IllegalStateException: Expected BEGIN_OBJECT",
      "\tat com.google.gson.stream.JsonReader.beginObject(JsonReader.java:507)",
      "\t... 12 more",
    ].join("\n");
    const gson = [
      { path: "gson/src/main/java/com/google/gson/internal/bind/ReflectiveTypeAdapterFactory.java", score: 1 },
      { path: "gson/src/main/java/com/google/gson/stream/JsonReader.java", score: 0.9 },
    ];
    expect(applyTracePrior(gson, parseStackFrames(report))[0].path).toBe("gson/src/main/java/com/google/gson/stream/JsonReader.java");
  });

  it("lifts the file of a .NET trace's innermost exception, its Windows path matched by its last segments", () => {
    const report = [
      "System.InvalidOperationException: Could not load order 7",
      " ---> System.Collections.Generic.KeyNotFoundException: The given key 'o7' was not present in the dictionary.",
      "   at System.Collections.Generic.Dictionary`2.get_Item(TKey key)",
      "   at Acme.Data.OrderCache.Get(String key) in C:\\build\\agent\\_work\\1\\s\\src\\Acme.Data\\OrderCache.cs:line 31",
      "   --- End of inner exception stack trace ---",
      "   at Acme.Orders.OrderService.Load(Int32 id) in C:\\build\\agent\\_work\\1\\s\\src\\Acme.Orders\\OrderService.cs:line 22",
    ].join("\n");
    const acme = [
      { path: "src/Acme.Orders/OrderService.cs", score: 1 },
      { path: "src/Acme.Data/OrderCache.cs", score: 0.8 },
    ];
    expect(applyTracePrior(acme, parseStackFrames(report))[0]).toEqual({ path: "src/Acme.Data/OrderCache.cs", score: 0.8 * TRACE_PRIOR });
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

describe("frameChunks", () => {
  it("looks up no pseudo-path or standard-library frame, so they use up no lookup", async () => {
    let bound: unknown[] = [];
    const db = {
      prepare: () => ({
        bind: (...params: unknown[]) => {
          bound = params;
          return { all: async () => ({ results: [] }) };
        },
      }),
    } as unknown as D1Database;
    const frames = parseStackFrames(
      [
        '  File "/app/pkg/cli.py", line 3, in main',
        '  File "<frozen importlib._bootstrap>", line 1006, in _find_and_load',
        '  File "<frozen importlib._bootstrap_external>", line 850, in exec_module',
        '  File "/usr/lib/python3.11/importlib/__init__.py", line 126, in import_module',
        '  File "/app/pkg/plugins.py", line 12, in <module>',
      ].join("\n"),
    );
    await frameChunks(db, "r", "c0", frames, { includeTests: true });
    expect(bound).toEqual(["c0", "r", "%/plugins.py", 12, 12, "%/cli.py", 3, 3]);
  });
});
