/**
 * What a query says about where the code is, through `POST /api/search`: the file where a
 * report's stack trace ends, and the file declaring a command-line option the query names, rank
 * first even when other files share more of the query's words.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { chunk, indexFixture } from "./search-fixture";

const REPO = "rep-trace";
const CLI = "rep-option";

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
  await indexFixture(CLI, "o1", [
    {
      path: "src/runner/main.py",
      language: "python",
      chunks: [
        chunk("function", 1, 'def pytest_addoption(parser):\n    group = parser.getgroup("general")\n    group.addoption(\n        "--collectonly",\n        "--collect-only",\n        action="store_true",\n    )', "pytest_addoption"),
        chunk("function", 8, "def run_session(session):\n    if session.config.option.collectonly:\n        return True", "run_session"),
      ],
    },
    {
      path: "src/runner/collect.py",
      language: "python",
      chunks: [chunk("function", 1, "def collect_only_items(session):\n    \"\"\"Collect the test items only, without running them: the one command users type most.\"\"\"\n    return [item for item in session.collect() if item.selected]", "collect_only_items")],
    },
    {
      path: "src/runner/pytester.py",
      language: "python",
      chunks: [chunk("function", 1, 'def get_items(self, *args):\n    rec = self.inline_run("--collect-only", *args)\n    return rec.getcalls("pytest_collectreport")', "get_items")],
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

const files = async (query: string, repo = REPO) => {
  const res = await api("/api/search", { method: "POST", json: { query, repo, k: 5 } });
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

describe("a command-line option named in a query", () => {
  it("ranks the file that declares it first, not the files that use it or share its words", async () => {
    expect((await files("pytest --collect-only needs a one char shortcut command", CLI))[0]).toBe("src/runner/main.py");
  });

  it("without the option, the words decide", async () => {
    expect((await files("pytest collect only needs a one char shortcut command", CLI))[0]).not.toBe("src/runner/main.py");
  });
});
