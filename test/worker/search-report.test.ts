/**
 * Pasted bug reports through `POST /api/search`: the file where the report's stack trace ends
 * ranks first, even when another file shares more of the report's words.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { chunk, indexFixture } from "./search-fixture";

const REPO = "rep-trace";

beforeAll(async () => {
  await indexFixture(REPO, "t1", [
    {
      path: "pkg/serialize.py",
      language: "python",
      chunks: [
        chunk("function", 1, "def dump_pickle(expression, protocol=2):\n    \"\"\"Pickle an expression; floats are pickled by value so loads works across Python versions.\"\"\"\n    return pickle.dumps(expression, protocol)", "dump_pickle"),
        chunk("function", 4, "def load_pickle(data):\n    \"\"\"Loads a pickled expression, floats included, from Python 2 or Python 3 dumps.\"\"\"\n    return pickle.loads(data)", "load_pickle"),
      ],
    },
    {
      path: "pkg/core/numbers.py",
      language: "python",
      chunks: [chunk("method", 1, "def __new__(cls, num, dps=None):\n    if isinstance(num, tuple):\n        num = list(num)\n        num[1] = int(num[1], 16)\n    return Expr.__new__(cls, *num)", "__new__", "Float")],
    },
    {
      path: "pkg/core/expr.py",
      language: "python",
      chunks: [chunk("class", 1, "class Expr:\n    def __add__(self, other):\n        return Add(self, other)", "Expr")],
    },
  ]);
});

/** A report whose words point at pkg/serialize.py and whose trace ends in `innermost`. */
const report = (innermost: string) =>
  [
    "Python 2->3 pickle fails with float-containing expressions",
    "Dumping a pickled expression containing a float in Python 2, then loading it in Python 3 with pickle loads generates an error.",
    "```",
    "Traceback (most recent call last):",
    '  File "<string>", line 1, in <module>',
    `  File "${innermost}", line 4, in __new__`,
    "ValueError: invalid literal for int() with base 16: '1L'",
    "```",
  ].join("\n");

const files = async (query: string) => {
  const res = await api("/api/search", { method: "POST", json: { query, repo: REPO, k: 5 } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { results: { path: string }[] };
  return [...new Set(body.results.map((r) => r.path))];
};

describe("stack traces in a bug report", () => {
  it("rank the file of the innermost frame in the repo first", async () => {
    expect((await files(report("/Users/alex/git/sympy/pkg/core/numbers.py")))[0]).toBe("pkg/core/numbers.py");
  });

  it("change nothing when the trace ends outside the repo", async () => {
    expect((await files(report("/usr/lib/python3.9/pickle.py")))[0]).toBe("pkg/serialize.py");
  });
});
