/**
 * What a query says about where the code is, through `POST /api/search`: the file where a
 * report's stack trace ends, the file declaring a command-line option the query names and the
 * file raising a pasted exception message rank first even when other files share more of the
 * query's words.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { chunk, indexFixture } from "./search-fixture";

const REPO = "rep-trace";
const CLI = "rep-option";
const DEEP = "rep-deep";
const MSG = "rep-message";
const RAISE = "rep-raise";
const CALLEE = "rep-callee";
const RECEIVER = "rep-receiver";

/** A made-up word, distinct for each `i` < 676, that a fixture chunk says once (`quuxab`). */
const rareWord = (i: number) => `quux${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}`;

/**
 * 66 chunks in 22 files about fixtures, none declaring an option: a few say most of a query's
 * words, the rest mention a fixture once (a real repo's long tail of weak matches).
 */
const fixtureTalk = Array.from({ length: 22 }, (_, f) => ({
  path: `src/plugins/plugin_${f}.py`,
  language: "python",
  chunks: [0, 1, 2].map((c) =>
    f < 2
      ? chunk(
          "function",
          1 + c * 4,
          `def show_fixtures_${f}_${c}(config):\n    """Print the fixtures of plugin ${f}, each fixture with its scope."""\n    for fixture in config.fixtures:\n        print(fixture.name, fixture.scope)`,
          `show_fixtures_${f}_${c}`,
        )
      : chunk(
          "function",
          1 + c * 4,
          `def step_${f}_${c}(node, state):\n    """Advance node ${f} by one step and record the state change in the fixtures log of the plugin (${rareWord(f * 3 + c)})."""\n    state.apply(node.delta_${c})\n    return state`,
          `step_${f}_${c}`,
        ),
  ),
}));

beforeAll(async () => {
  // A class that lacks an attribute its siblings have: the report shows it on a `Derivative`.
  await indexFixture(RECEIVER, "k1", [
    {
      path: "core/kind.py",
      language: "python",
      chunks: [chunk("class", 1, 'class UndefinedKind(Kind):\n    """Default for objects whose kind is undefined."""', "UndefinedKind")],
    },
    {
      path: "core/symbol.py",
      language: "python",
      chunks: [chunk("method", 1, "@property\ndef kind(self):\n    return NumberKind", "kind", "Symbol")],
    },
    {
      path: "integrals/integrals.py",
      language: "python",
      chunks: [chunk("class", 1, 'class Integral(AddWithLimits):\n    """Represents an unevaluated integral of a matrix or a number."""', "Integral")],
    },
    {
      path: "core/function.py",
      language: "python",
      chunks: [
        chunk("class", 1, 'class Derivative(Expr):\n    """Carries out differentiation of the given expression with respect to symbols."""', "Derivative"),
      ],
    },
  ]);
  await indexFixture(CALLEE, "c1", [
    {
      path: "io/ui.py",
      language: "python",
      chunks: [
        chunk(
          "function",
          1,
          'def write(table, output, format=None, **kwargs):\n    """Write a table to output in a format, with the keyword arguments of its writer."""\n    writer = get_writer(writer_class(format), **kwargs)\n    return writer.write(table, output)',
          "write",
        ),
      ],
    },
    {
      path: "io/core.py",
      language: "python",
      chunks: [
        chunk(
          "function",
          1,
          'def get_writer(writer_class, **kwargs):\n    """Make the writer of a table format, passing the header rows and other keyword arguments."""\n    writer = writer_class(**kwargs)\n    return writer',
          "get_writer",
        ),
      ],
    },
    {
      path: "io/fixed.py",
      language: "python",
      chunks: [
        chunk(
          "class",
          1,
          "class FixedWidth:\n    def __init__(self, delimiter=None, header_rows=None):\n        self.header_rows = header_rows or ['name']",
          "FixedWidth",
        ),
      ],
    },
    {
      path: "io/rst.py",
      language: "python",
      chunks: [
        chunk(
          "class",
          1,
          'class RST(FixedWidth):\n    """reStructuredText simple table."""\n    def __init__(self):\n        super().__init__(delimiter=" ")',
          "RST",
        ),
      ],
    },
  ]);
  await indexFixture(REPO, "t1", [
    {
      path: "pkg/serialize.py",
      language: "python",
      chunks: [
        chunk(
          "function",
          1,
          'def dump_pickle(expression, protocol=2):\n    """Pickle an expression; floats are pickled by value so loads works across Python versions."""\n    return pickle.dumps(expression, protocol)',
          "dump_pickle",
        ),
        chunk(
          "function",
          4,
          'def load_pickle(data):\n    """Loads a pickled expression, floats included, from Python 2 or Python 3 dumps."""\n    return pickle.loads(data)',
          "load_pickle",
        ),
      ],
    },
    {
      path: "pkg/core/numbers.py",
      language: "python",
      chunks: [
        chunk(
          "method",
          1,
          "def __new__(cls, num, dps=None):\n    if isinstance(num, tuple):\n        num = list(num)\n        num[1] = int(num[1], 16)\n    return Expr.__new__(cls, *num)",
          "__new__",
          "Float",
        ),
      ],
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
        chunk(
          "function",
          1,
          'def pytest_addoption(parser):\n    group = parser.getgroup("general")\n    group.addoption(\n        "--collectonly",\n        "--collect-only",\n        action="store_true",\n    )',
          "pytest_addoption",
        ),
        chunk("function", 8, "def run_session(session):\n    if session.config.option.collectonly:\n        return True", "run_session"),
      ],
    },
    {
      path: "src/runner/collect.py",
      language: "python",
      chunks: [
        chunk(
          "function",
          1,
          'def collect_only_items(session):\n    """Collect the test items only, without running them: the one command users type most."""\n    return [item for item in session.collect() if item.selected]',
          "collect_only_items",
        ),
      ],
    },
    {
      path: "src/runner/pytester.py",
      language: "python",
      chunks: [
        chunk(
          "function",
          1,
          'def get_items(self, *args):\n    rec = self.inline_run("--collect-only", *args)\n    return rec.getcalls("pytest_collectreport")',
          "get_items",
        ),
      ],
    },
  ]);
  await indexFixture(DEEP, "d1", [
    ...fixtureTalk,
    {
      path: "src/runner/python.py",
      language: "python",
      chunks: [
        chunk(
          "function",
          1,
          'def pytest_addoption(parser):\n    group = parser.getgroup("general")\n    group.addoption("--fixtures", "--funcargs", action="store_true", dest="showfixtures")',
          "pytest_addoption",
        ),
        chunk(
          "function",
          4,
          "def _show_defs(config, session):\n    tw = config.get_terminal_writer()\n    for argname in sorted(session.defs):\n        tw.line(argname)",
          "_show_defs",
        ),
      ],
    },
    {
      path: "src/runner/digits.py",
      language: "python",
      chunks: [chunk("function", 1, "def _hex_value(text):\n    return int(text, 16)", "_hex_value")],
    },
  ]);
});

beforeAll(async () => {
  await indexFixture(RAISE, "r1", [
    {
      path: "cli/core.py",
      language: "python",
      chunks: [
        chunk(
          "method",
          1,
          'def __init__(self, name, chain=False, params=None):\n    if chain and any(p.optional for p in params or []):\n        raise RuntimeError("A group in chain mode cannot have optional arguments.")\n    self.chain = chain',
          "__init__",
          "Group",
        ),
        chunk(
          "method",
          5,
          'def parse_args(self, ctx, args):\n    """Parsing the arguments of a group in chain mode fails when a command has optional arguments: in chain mode each command of the group parses its arguments in turn, optional arguments last, and a group fails on the first that fails."""\n    for command in self.commands_in_chain_mode(args):\n        command.parse_optional_arguments(ctx, args)\n    return args',
          "parse_args",
          "Group",
        ),
      ],
    },
    {
      path: "cli/types.py",
      language: "python",
      chunks: [chunk("function", 1, "def convert(value):\n    return str(value)", "convert")],
    },
  ]);
  await indexFixture(MSG, "m1", [
    {
      path: "geo/plot.py",
      language: "python",
      chunks: [
        chunk(
          "function",
          1,
          'def plot_point(point, evaluate=True):\n    """Plot a point from its coordinates; imaginary coordinates are plotted on the real axis."""\n    coordinates = [c for c in point.coordinates]\n    return draw(coordinates, evaluate=evaluate)',
          "plot_point",
        ),
        chunk(
          "function",
          5,
          'def point_coordinates(point):\n    """The coordinates of a point, evaluated: plain numbers, never imaginary."""\n    return tuple(c.evalf() for c in point.coordinates)',
          "point_coordinates",
        ),
      ],
    },
    {
      path: "geo/point.py",
      language: "python",
      chunks: [
        chunk(
          "method",
          1,
          'def __new__(cls, *args, **kwargs):\n    coords = args[0]\n    if any(a.is_number and im(a) for a in coords):\n        raise ValueError("Imaginary coordinates "\n                         "are not permitted.")\n    return GeometryEntity.__new__(cls, *coords)',
          "__new__",
          "Point",
        ),
      ],
    },
    {
      path: "docs/errors.md",
      language: "markdown",
      chunks: [chunk("section", 1, "# Errors\n\nImaginary coordinates are not permitted: a point is built from real coordinates.", "Errors")],
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

describe("a TypeError naming a function whose call's arguments did not bind", () => {
  /** A report whose trace ends in the caller, io/core.py, with the TypeError `error`. */
  const typeError = (error: string) =>
    [
      "Please support header rows in reStructuredText output",
      "Writing a table as rst with header rows fails:",
      "```",
      "Traceback (most recent call last):",
      '  File "/usr/lib/python3/dist-packages/io/ui.py", line 3, in write',
      "    writer = get_writer(writer_class(format), **kwargs)",
      '  File "/usr/lib/python3/dist-packages/io/core.py", line 3, in get_writer',
      "    writer = writer_class(**kwargs)",
      error,
      "```",
    ].join("\n");

  it("ranks the callee's file first: the trace has no frame of it", async () => {
    const top = await files(typeError("TypeError: RST.__init__() got an unexpected keyword argument 'header_rows'"), CALLEE);
    expect(top.slice(0, 2)).toEqual(["io/rst.py", "io/core.py"]);
  });

  it("leaves the innermost frame first when the TypeError names no callee", async () => {
    expect((await files(typeError("TypeError: 'NoneType' object is not callable"), CALLEE))[0]).toBe("io/core.py");
  });
});

describe("a report whose title names a class its code constructs and uses", () => {
  const report = (title: string) =>
    [
      title,
      "Integrals are right:",
      "```",
      "i = Integral(A, x)",
      "i.kind",
      "# MatrixKind(NumberKind)",
      "```",
      "Derivatives are not:",
      "```",
      "d = Derivative(A, x)",
      "d.kind",
      "# UndefinedKind",
      "```",
    ].join("\n");

  it("ranks that class first when it defines no such member", async () => {
    expect((await files(report("Wrong Derivative kind attribute"), RECEIVER))[0]).toBe("core/function.py");
  });

  it("lets the words decide when the title names no class", async () => {
    expect((await files(report("Wrong kind attribute"), RECEIVER))[0]).not.toBe("core/function.py");
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

describe("an exception message pasted in a report", () => {
  const message = (exceptionLine: string) =>
    [
      "Point with evaluate(False) fails on plotting coordinates",
      "Plotting a point built with evaluate(False) fails though its coordinates are plain numbers:",
      "```",
      exceptionLine,
      "```",
    ].join("\n");

  it("ranks the file whose code raises it first, even when its literal is split over lines", async () => {
    expect((await files(message("ValueError: Imaginary coordinates are not permitted."), MSG))[0]).toBe("geo/point.py");
  });

  it("without the exception line, the words decide", async () => {
    expect((await files(message("It says that imaginary coordinates are not permitted."), MSG))[0]).toBe("geo/plot.py");
  });
});

describe("the chunk raising a pasted message", () => {
  it("ranks first in a report without a trace, above a neighbour that repeats the report's words", async () => {
    const report = [
      "Group in chain mode with optional arguments fails",
      "Parsing the arguments of a group in chain mode fails when a command has optional arguments:",
      "RuntimeError: A group in chain mode cannot have optional arguments.",
    ].join("\n");
    const res = await api("/api/search", { method: "POST", json: { query: report, repo: RAISE, k: 5 } });
    const body = (await res.json()) as { results: { path: string; symbol: string | null }[] };
    expect(body.results[0]).toMatchObject({ path: "cli/core.py", symbol: "__init__" });
  });
});

describe("a double-quoted phrase in a question", () => {
  it("ranks the file whose code has those words as written first", async () => {
    expect((await files('plotting a point whose "imaginary coordinates are not permitted"', MSG))[0]).toBe("geo/point.py");
  });

  it("without the quotes, the words decide", async () => {
    expect((await files("plotting a point whose imaginary coordinates are not permitted", MSG))[0]).toBe("geo/plot.py");
  });
});

describe("a file the channels did not nominate", () => {
  const top = async (query: string, mode = "hybrid") => {
    const res = await api("/api/search", { method: "POST", json: { query, repo: DEEP, k: 5, mode } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { results: { path: string; ranks: Record<string, number> }[] }).results;
  };

  it("joins the results when it declares the option the query names", async () => {
    const results = await top("what does --fixtures print for each fixture of a plugin");
    expect(results.slice(0, 3).map((r) => r.path)).toContain("src/runner/python.py");
  });

  it("joins the results when a report's trace ends in it", async () => {
    // More rare names than BM25 takes terms (MAX_BM25_TERMS), so the frame's path words are not
    // among them: only the lookup of the frame's line brings in the file.
    const report = [
      "Printing the fixtures of a plugin fails when a fixture scope is printed",
      `Each plugin prints its fixtures; these steps all fail: ${Array.from({ length: 40 }, (_, i) => `\`${rareWord(i + 6)}()\``).join(", ")}.`,
      "Traceback (most recent call last):",
      '  File "/home/u/proj/src/runner/digits.py", line 2, in <lambda>',
      "ValueError: invalid literal for int() with base 16",
    ].join("\n");
    const results = await top(report, "bm25");
    expect(results.slice(0, 3).map((r) => r.path)).toContain("src/runner/digits.py");
    expect(results.find((r) => r.path === "src/runner/digits.py")!.ranks).toEqual({});
  });
});
