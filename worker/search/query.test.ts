import { describe, expect, it } from "vitest";
import { isTestPath } from "./filters";
import { hyphenJoined, parseQuery, qualifiedNames, reporterLocals, shortenPaths, stripListings, stripMarkup } from "./query";
import { namesFileBySuffix } from "./channels/path";
import { makeSnippet, SNIPPET_MAX_CHARS, SNIPPET_MAX_LINES } from "./snippet";
import { idf, proseCappedDf, queryTermWeight, selectTerms } from "./terms";

describe("parseQuery", () => {
  it("counts a question's distinct English function words, not a keyword query's or another language's", () => {
    expect(parseQuery("where does the logger middleware export request metrics to Prometheus").functionWords).toBe(4);
    expect(parseQuery("What's the default, and where is it set? Where?").functionWords).toBe(6);
    expect(parseQuery("HelpFormatter write_dl col_max").functionWords).toBe(0);
    expect(parseQuery("wo wird das Passwort geprüft").functionWords).toBe(0);
  });
  it("lists the names a question writes as code, not its joined prose words, and none for a report", () => {
    expect(parseQuery("How does for_each_codepoint handle the last few bytes of a string?").spelledNames).toEqual(["for_each_codepoint"]);
    expect(parseQuery("How does ChaosLatencyStrategy.ExecuteCore inject a delay").spelledNames).toEqual(
      expect.arrayContaining(["chaoslatencystrategy", "executecore"]),
    );
    expect(parseQuery("where are cookies signed").spelledNames).toEqual([]);
    const report =
      "TypeError in parseSigned when the cookie has no dot\n\n" +
      "Steps to reproduce: create an app, set a signed cookie with a secret, read it back in a handler, restart the server, send the request again, observe the exception and stack trace instead of the stored value, expected behaviour: undefined.";
    expect(parseQuery(report).isReport).toBe(true);
    expect(parseQuery(report).spelledNames).toEqual([]);
  });
  const table: { q: string; identifiers?: string[]; terms?: string[]; pathHints?: string[]; tests?: boolean }[] = [
    { q: "getUserById", identifiers: ["getUserById"], terms: ["getuserbyid", "user", "id"] },
    { q: "get user by id", identifiers: ["getuser", "userbyid", "getuserbyid"] },
    { q: "router", identifiers: ["router"] },
    { q: "where is app.route defined", identifiers: ["app", "route"] },
    { q: "the snake_case helper in src/utils/url.ts", pathHints: ["src/utils/url.ts"] },
    { q: "unit tests of the router", tests: true },
    { q: "router", tests: false, pathHints: [] },
    { q: "error in xarray.core.concat when joining", pathHints: ["xarray/core/concat"] },
    { q: "where is app.route defined", pathHints: [] },
    // A report names modules by two segments too; a question's two are a type's member.
    {
      q: 'Please support header rows in RestructuredText output\n```\n>>> tbl.write(sys.stdout, format="ascii.rst")\n```',
      pathHints: ["tbl/write", "sys/stdout", "ascii/rst"],
    },
    { q: "what does Context.RoutePattern return", pathHints: [] },
    // A file name is a path, not a module `url/ts`.
    { q: "Wrong URL after mount\n```\nTypeError: bad\n    at getPath (url.ts:12:3)\n```", pathHints: ["url.ts"] },
    { q: "the client's v2 API", terms: ["client", "v2", "api"] },
    { q: `pytest crashes ${Array.from({ length: 30 }, (_, i) => `module${i}`).join(" ")}`, tests: false },
    { q: "unit tests of the rate limiter", tests: true },
    // Identifiers name code; a test file's path asks for tests.
    { q: "where is TestMode defined", tests: false },
    { q: "what does mode_test.go check", tests: true },
  ];
  for (const row of table) {
    it(row.q, () => {
      const p = parseQuery(row.q);
      if (row.identifiers) expect(p.identifiers).toEqual(expect.arrayContaining(row.identifiers));
      if (row.terms) expect(p.terms).toEqual(row.terms);
      if (row.pathHints) expect(p.pathHints).toEqual(row.pathHints);
      if (row.tests !== undefined) expect(p.mentionsTests).toBe(row.tests);
    });
  }
  it("takes names written as calls or in code spans, title first, without dunders", () => {
    const report = [
      "Wrong result with `apart`",
      "```",
      ">>> bug = expr.subs(t, 1)",
      ">>> apart(bug)",
      "```",
      "also Intersection() and __init__() fail",
      "x ".repeat(30),
    ].join("\n");
    const p = parseQuery(report);
    expect(p.identifiers.slice(0, 3)).toEqual(["apart", "expr", "subs"]);
    expect(p.identifiers).toContain("Intersection");
    expect(p.identifiers).not.toContain("__init__");
  });
  it("puts code-like identifiers first and bounds their number", () => {
    const p = parseQuery(`please fix parse_cookie ${"word ".repeat(500)}`);
    expect(p.identifiers[0]).toBe("parse_cookie");
    expect(p.identifiers.length).toBeLessThanOrEqual(40);
  });
  it("takes a word in a Markdown code span as a symbol name, whatever its shape", () => {
    const q = "How is `memo` implemented for JSX components and what comparison does it use by default";
    expect(parseQuery(q).identifiers).toContain("memo");
    expect(parseQuery(q.replace(/`/g, "")).identifiers).not.toContain("memo");
  });
});

describe("reporterLocals", () => {
  const report = [
    "Behavior of Matrix hstack and vstack changed",
    "```",
    "import sympy as sy",
    "import numpy as np, pandas as pd",
    "from sympy.abc import x as ex",
    "M1 = sy.Matrix.zeros(0, 0)",
    "t1, t2 = sy.symbols('t1 t2')",
    ">>> x10 = 3",
    "for m2 in (M1,):",
    "    autodoc_typehints = 'description'",
    "sy.Matrix.hstack(M1, M2).shape",
    "```",
  ].join("\n");

  it("finds the aliases a report imports modules as and the numbered placeholders it binds", () => {
    expect([...reporterLocals(report)].sort()).toEqual(["ex", "m1", "m2", "np", "pd", "sy", "t1", "t2", "x10"]);
  });

  it("are not terms or symbol names of a report; its other names and words stay", () => {
    const q = parseQuery(report);
    expect(q.isReport).toBe(true);
    for (const local of ["sy", "np", "m1", "m2", "t1"]) expect(q.terms).not.toContain(local);
    expect(q.identifiers.map((i) => i.toLowerCase())).not.toContain("m1");
    expect(q.terms).toEqual(expect.arrayContaining(["matrix", "hstack", "vstack", "zeros", "autodoctypehints", "shape"]));
  });

  it("finds metasyntactic placeholders and the words made with them; bar only beside foo", () => {
    const placeholders = "```\n# file: test_foo.py\ndef test_xfail(request):\n    spam = FooConfig(bar=1)\n```";
    expect([...reporterLocals(placeholders)].sort()).toEqual(["bar", "foo", "fooconfig", "spam", "testfoo"]);
    expect([...reporterLocals("```\nsns.barplot(x='day', y='bar')\n```")]).toEqual([]);
    const q = parseQuery(`xfail marker ignored when added dynamically\n\n${placeholders}\nrequest.node.add_marker(mark)`);
    expect(q.terms).not.toContain("testfoo");
    expect(q.terms).not.toContain("foo");
    expect(q.terms).toEqual(expect.arrayContaining(["test", "config", "xfail", "addmarker"]));
  });

  it("leaves a question, and a name the report only mentions, alone", () => {
    expect(parseQuery("import numpy as np").terms).toContain("np");
    const mention = "Matrix M1 of the wigner module is wrong\nThe docs say M1 is the first row.\nBut it is not, see below.\n```\nprint(hstack(a, b))\n```";
    expect(parseQuery(mention).terms).toContain("m1");
  });
});

describe("stripListings", () => {
  it("drops CPython's and IPython's start-up banners, keeps the session", () => {
    const session = [
      "Wrong result with expand",
      "```",
      "Python 3.6.0 |Anaconda, Inc.| (default, Dec 23 2016, 12:22:00) ",
      "[GCC 4.4.7 20120313 (Red Hat 4.4.7-1)] on linux",
      'Type "copyright", "credits" or "license" for more information.',
      "",
      "IPython 5.1.0 -- An enhanced Interactive Python.",
      "?         -> Introduction and overview of IPython's features.",
      "%quickref -> Quick reference.",
      "help      -> Python's own help system.",
      "object?   -> Details about 'object', use 'object??' for extra details.",
      "",
      "In [1]: from mylib import expand",
      "Python 3.12.1 (main, Dec  8 2023, 05:40:51) [Clang 15.0.0 (clang-1500.1.0.2.5)] on darwin",
      ">>> expand(x)",
      "```",
      "The Python 3.6 (default) build is fine; help -> docs says otherwise.",
    ].join("\n");
    const out = stripListings(session);
    expect(out).not.toMatch(/Anaconda|GCC|copyright|enhanced|quickref|own help|Details about|Clang/);
    expect(out).toContain("In [1]: from mylib import expand");
    expect(out).toContain(">>> expand(x)");
    expect(out).toContain("The Python 3.6 (default) build is fine; help -> docs says otherwise.");
    const terms = parseQuery(session).terms;
    for (const word of ["ipython", "interactive", "copyright", "credits", "overview"]) expect(terms).not.toContain(word);
  });
  it("drops pip list, pip freeze and 'Successfully installed' listings, keeps prose and code", () => {
    const report = [
      "str() on the raises context does not behave like a caught exception",
      "Pytest 4.6.2, macOS 10.14.5",
      "```",
      "Package            Version  Location",
      "------------------ -------- --------",
      "apipkg             1.5",
      "asn1crypto         0.24.0",
      "zipp               0.5.1",
      "```",
      "attrs==19.3.0",
      "pluggy==0.13.1",
      "zipp==0.6.0",
      "Successfully installed GitPython-3.1.31 Markdown-3.3.7 MarkupSafe-2.1.3 attrs-23.1.0",
      "Installing collected packages: zipp, six, PyYAML, tomli, pluggy, packaging, jinja2, click, idna, attrs",
      "    raise LookupError(f'A')",
      "x = compute(1, 2)",
    ].join("\n");
    const out = stripListings(report).split("\n");
    expect(out).toContain("str() on the raises context does not behave like a caught exception");
    // A line made mostly of versions ("Pytest 4.6.2, macOS 10.14.5") is environment too.
    expect(out).not.toContain("Pytest 4.6.2, macOS 10.14.5");
    expect(out).toContain("    raise LookupError(f'A')");
    expect(out).toContain("x = compute(1, 2)");
    expect(out.join(" ")).not.toMatch(/apipkg|asn1crypto|zipp|pluggy|GitPython|PyYAML/);
  });
  it("drops a listing's column header, the command above it and its section heading, not the prose further up", () => {
    const report = [
      "Dynamically adding an xfail marker no longer ignores the failure",
      "",
      "### pip list",
      "```",
      "$ pip list",
      "Package        Version  Location",
      "-------------- -------- --------",
      "atomicwrites   1.3.0",
      "attrs          19.1.0",
      "pluggy         0.9.0",
      "",
      "Pip list gives",
      "```",
      "Package Version",
      "apipkg  1.5",
      "attrs   19.1.0",
      "zipp    0.5.1",
      "```",
    ].join("\n");
    const out = stripListings(report);
    expect(out.split("\n")[0]).toBe("Dynamically adding an xfail marker no longer ignores the failure");
    expect(out).not.toMatch(/pip|Package|Location|attrs/i);
    // Only short lines without code are a heading: a sentence or a call right above stays.
    const kept = ["x = marks.get_closest_marker('xfail')", "attrs   19.1.0", "pluggy  0.9.0", "zipp    0.5.1"].join("\n");
    expect(stripListings(kept)).toBe("x = marks.get_closest_marker('xfail')");
  });

  it("keeps environment reports of name: version rows (issue #46: dropping them moved no rank on any set)", () => {
    const report = [
      "DataSet.update causes chunked dask DataArray to evaluate its values eagerly",
      "commit: None",
      "python: 3.8.3 (default, Jul  2 2020, 11:26:31)",
      "python-bits: 64",
      "OS: Darwin",
      "libhdf5: 1.10.6",
      "",
      "xarray: 0.16.0",
      "Nio: None",
      "```ini",
      "[tool.pylint.MASTER]",
      "ignore-paths: src/gen",
      "jobs: 4",
      "```",
    ].join("\n");
    expect(stripListings(report)).toBe(report);
  });
  it("drops a pasted test run's session header and section rules, keeps the test, its failure and the prose", () => {
    const report = [
      "Dynamically adding a marker no longer ignores the failure",
      "```",
      "============================= test session starts ==============================",
      "platform linux -- Python 3.7.6, pytest-6.0.0rc2, py-1.9.0, pluggy-0.13.1 -- /usr/bin/python",
      "cachedir: .pytest_cache",
      "hypothesis profile 'default' -> database=DirectoryBasedExampleDatabase('/tmp/.hypothesis/examples')",
      "rootdir: /home/me/proj, configfile: setup.cfg",
      "plugins: hypothesis-5.19.0, asyncio-0.14.0, benchmark-3.2.3",
      "collecting ... collected 1 item",
      "",
      "test_foo.py::test_xfail_test FAILED                                      [100%]",
      "",
      "=================================== FAILURES ===================================",
      "_______________________________ test_xfail_test ________________________________",
      "    def test_xfail_test(request):",
      ">       assert 0",
      "E       assert 0",
      "---------------------------- Captured stdout call -----------------------------",
      "=========================== short test summary info ============================",
      "FAILED test_foo.py::test_xfail_test - assert 0",
      "============================== 1 failed in 0.07s ===============================",
      "```",
      "`platform darwin -- Python 3.7.3, pytest-4.4.0, py-1.8.0, pluggy-0.9.0`",
      "- [x] Minimal example if possible",
      "Note: the first line above is right.",
    ].join("\n");
    const out = stripListings(report);
    expect(out).not.toMatch(/session starts|platform|cachedir|hypothesis|rootdir: \/home|plugins:|collecting|FAILURES|Captured|short test summary|1 failed in/);
    for (const kept of [
      "Dynamically adding a marker no longer ignores the failure",
      "test_foo.py::test_xfail_test FAILED",
      "    def test_xfail_test(request):",
      "E       assert 0",
      "FAILED test_foo.py::test_xfail_test - assert 0",
      "- [x] Minimal example if possible",
      "Note: the first line above is right.",
    ])
      expect(out).toContain(kept);
    const terms = parseQuery(report).terms;
    for (const word of ["darwin", "pluggy", "cachedir", "rootdir", "hypothesis", "database", "captured", "summary"]) expect(terms).not.toContain(word);
    expect(terms).toContain("marker");
  });
  it("drops only rules with a title on both sides: go test's lines and bare rules stay", () => {
    const text = ["=== RUN   TestRouterParam", "--- FAIL: TestRouterParam (0.00s)", "==========", "=== not closed" + " ".repeat(40) + "x", "== two =="].join(
      "\n",
    );
    expect(stripListings(text)).toBe(text);
    expect(stripListings(`${text}\n==== ERRORS ====`)).toBe(text);
  });
  it("keeps a key: value configuration that no test session header starts", () => {
    const text = "Plugins are not loaded from the config\n```yaml\nplugins: [search]\nrootdir: docs\n```\nThe loader skips them.";
    expect(stripListings(text)).toBe(text);
  });
  it("keeps a single name-version line and leaves text without listings untouched", () => {
    const text = "since pytest 6.0.1 the fixture is gone\nsee `request.node.add_marker`";
    expect(stripListings(text)).toBe(text);
    expect(parseQuery(text).terms).toContain("pytest");
  });
  it("marks long queries as reports", () => {
    expect(parseQuery("where is the router").isReport).toBe(false);
    expect(parseQuery(Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ")).isReport).toBe(true);
  });
  it("marks short queries shaped like a report as reports: pasted output or three lines", () => {
    const sentence = "When the base is not an integer, the modulo of its square is not zero";
    expect(parseQuery(sentence).isReport).toBe(false);
    expect(parseQuery(`Mod(x**2, x) is not 0\n${sentence}:\n\n\`\`\`\n>>> Mod(x**2, x)\n0\n\`\`\``).isReport).toBe(true);
    expect(parseQuery(`${sentence}\n>>> Mod(S(1.5)**2, S(1.5))`).isReport).toBe(true);
    expect(parseQuery(`Modulo is wrong\n${sentence}\nIt should check the base`).isReport).toBe(true);
    // A question with a line break is still a question, and so is a short snippet.
    expect(parseQuery(`Where is the modulo computed?\nThe base may not be an integer`).isReport).toBe(false);
    expect(parseQuery("```\nMod(x, y)\n```").isReport).toBe(false);
  });
  it("leaves tests out for a short report that mentions them, as for a long one", () => {
    const question = "where do the tests check the modulo of a square";
    expect(parseQuery(question).mentionsTests).toBe(true);
    const report = parseQuery(`Mod(x**2, x) returns a wrong remainder\nIn my test the base is a float and the result is not zero\n>>> Mod(S(1.5)**2, S(1.5))`);
    expect(report.isReport).toBe(true);
    expect(report.mentionsTests).toBe(false);
  });
  it("adds a report's hyphenated compounds joined, as code evidence; a question keeps them apart", () => {
    const report = parseQuery("Module imported twice under import-mode=importlib\nThe assertion re-writer should unroll it\n```\nE  AssertionError\n```");
    expect(report.isReport).toBe(true);
    expect(report.terms).toEqual(expect.arrayContaining(["importmode", "rewriter", "import", "mode"]));
    expect(report.codeTerms).toEqual(expect.arrayContaining(["importmode", "rewriter"]));
    const question = parseQuery("where is the Content-Length header set");
    expect(question.terms).not.toContain("contentlength");
    expect(hyphenJoined("a run-last-failure flag, x-y and e-mail--x")).toEqual(["runlastfailure"]);
  });
});

describe("lettered versions", () => {
  // Issue #46's rule table: dropping versions with letters (6.0.0rc1) moved no rank on any set.
  it("are read as any other word of a report's sentence", () => {
    const q = parseQuery("Since 6.0.0rc1 the xfail marker added dynamically is ignored\n\nrequest.node.add_marker(mark)\nassert 0");
    expect(q.terms).toEqual(expect.arrayContaining(["rc1", "xfail", "marker", "ignored", "addmarker"]));
  });
});

describe("stripMarkup", () => {
  it("drops HTML comments, rendering tags, addresses and hashes, keeps tracebacks' <module>", () => {
    const out = stripMarkup(
      "<!--\nThanks for submitting an issue!\n-->\n<details><summary>Output of <tt>show_versions()</tt></summary>\nat 0x101f82ed0 in <module> commit 5e1c2d3f4a\n</details>",
    );
    expect(out).not.toMatch(/Thanks|details|summary|tt>|0x101f82ed0|5e1c2d3f4a/);
    expect(out).toContain("show_versions()");
    expect(out).toContain("<module>");
  });
  it("keeps words that only look like hex", () => expect(stripMarkup("decade facade 12345678")).toBe("decade facade 12345678"));
  it("drops code fences' info strings and keeps the fences", () => {
    const out = stripMarkup("Run:\n```python\nx = 1\n```\n~~~ console title\n$ pip\n~~~\n```\nplain\n```");
    expect(out).toBe("Run:\n```\nx = 1\n```\n~~~\n$ pip\n~~~\n```\nplain\n```");
    expect(parseQuery("```shell\npylint a.py\n```").terms).not.toContain("shell");
  });
  it("keeps inline triple-backtick code, which is no fence", () => expect(stripMarkup("```x --flag``` fails")).toBe("```x --flag``` fails"));
  it("drops the empty fields of GitHub issue forms, not the word response", () => {
    const out = stripMarkup("### Configuration\n\n_No response_\n\nThe response body is empty");
    expect(out).not.toContain("No response");
    expect(parseQuery(out).terms).toContain("response");
    expect(parseQuery("### Configuration\n\n_No response_\n").terms).not.toContain("response");
  });
});

describe("shortenPaths", () => {
  it("keeps the last two segments of long paths, and path hints keep the whole path", () => {
    const line =
      'File "/Users/jane/miniconda3/envs/py3/lib/python3.9/site-packages/seaborn/axisgrid.py", line 1; C:\\Users\\jane\\proj\\src\\gen\\about.py; src/flask/app.py';
    expect(shortenPaths(line)).toBe('File "seaborn/axisgrid.py", line 1; gen/about.py; src/flask/app.py');
    const p = parseQuery(line);
    expect(p.terms).not.toContain("miniconda3");
    expect(p.pathHints.some((h) => h.endsWith("site-packages/seaborn/axisgrid.py"))).toBe(true);
  });
});

describe("selectTerms", () => {
  it("drops absent terms and keeps all present ones for short queries", () => {
    const df = new Map([
      ["router", 10],
      ["match", 50],
    ]);
    expect(selectTerms(["router", "zzz", "match"], df, 1000)).toEqual({ selected: ["router", "match"], absent: ["zzz"] });
  });
  it("keeps the rarest terms of a long query", () => {
    const terms = Array.from({ length: 40 }, (_, i) => `t${i}`);
    const df = new Map(terms.map((t, i) => [t, i + 1]));
    const { selected } = selectTerms(terms, df, 1000, 5);
    expect(selected).toEqual(["t0", "t1", "t2", "t3", "t4"]);
  });
  it("caps the IDF of a report's English words and leaves its numbers out, identifiers keep theirs", () => {
    const terms = ["awesome", "nthroot", "1113", "modulus", ...Array.from({ length: 30 }, (_, i) => `w${i}`)];
    const df = new Map<string, number>(terms.map((t) => [t, 500]));
    df.set("awesome", 1).set("nthroot", 2).set("1113", 1).set("modulus", 40);
    const { selected } = selectTerms(terms, df, 100_000, 3, new Map(), new Set(["nthroot"]));
    expect(selected[0]).toBe("nthroot");
    expect(selected).not.toContain("1113");
    // Capped at 0.1% of 100,000 documents, "awesome" (df 1) ties with "modulus" (df 40): query order.
    expect(selected.slice(1)).toEqual(["awesome", "modulus"]);
    expect(proseCappedDf(df, 100_000, new Set(["nthroot"])).get("awesome")).toBe(100);
  });
  it("weighs a term a report repeats by BM25's k3 saturation, over a rarer word it says once", () => {
    const terms = ["unfortunately", "module", "init", ...Array.from({ length: 30 }, (_, i) => `w${i}`)];
    const df = new Map<string, number>(terms.map((t) => [t, 5_000]));
    // idf("unfortunately") = 5.2 (df 5 of 1,000) against 3.6 for "module" and "init" (df 25); said ten times, 3.6 x 4.7 = 17.1.
    df.set("unfortunately", 5).set("module", 25).set("init", 25);
    const counts = new Map([
      ["module", 10],
      ["init", 10],
    ]);
    expect(selectTerms(terms, df, 1_000, 2, counts).selected).toEqual(["module", "init"]);
    expect(selectTerms(terms, df, 1_000, 2).selected).toEqual(["unfortunately", "module"]);
    expect(queryTermWeight(1)).toBe(1);
    expect(queryTermWeight(10)).toBeCloseTo((10 * 8) / 17);
  });
  it("idf falls with document frequency", () => {
    expect(idf(1, 1000)).toBeGreaterThan(idf(100, 1000));
    expect(idf(900, 1000)).toBeGreaterThan(0);
  });
});

describe("isTestPath", () => {
  it.each([
    ["src/users.test.ts", true],
    ["tests/test_api.py", true],
    ["pkg/server_test.go", true],
    ["src/__tests__/a.js", true],
    ["src/testing.ts", false],
    ["src/attestation.ts", false],
    ["src/router/index.ts", false],
  ])("%s -> %s", (p, want) => expect(isTestPath(p)).toBe(want));
});

describe("makeSnippet", () => {
  it("keeps short code whole", () => expect(makeSnippet("a\nb")).toEqual({ snippet: "a\nb", truncated: false }));
  it("cuts long code by lines and characters and says so", () => {
    const long = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const s = makeSnippet(long);
    expect(s.truncated).toBe(true);
    expect(s.snippet.split("\n")).toHaveLength(SNIPPET_MAX_LINES);
    const wide = makeSnippet("x".repeat(10_000));
    expect(wide.truncated).toBe(true);
    expect(wide.snippet.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
  });
});

describe("namesFileBySuffix", () => {
  it.each([
    ["usr/lib/python3/site-packages/_pytest/python.py", "src/_pytest/python.py", true],
    ["xarray/core/concat", "xarray/core/concat.py", true],
    ["lib/utils.py", "src/utils.py", false],
    ["a/b/utils.py", "c/d/utils.py", false],
    ["foo/_pytest/python.py", "src/_pytest/pathlib.py", false],
  ])("%s names %s: %s", (hint, path, expected) => {
    expect(namesFileBySuffix(hint, path)).toBe(expected);
  });
});

describe("qualifiedNames", () => {
  it("reads members written with their container: dotted, ::, # and chains", () => {
    expect(qualifiedNames("why does JsonReader.skipValue fail, and LineBuffer::fill or Sinatra::Base#compile! on std::io::Read")).toEqual([
      { container: "JsonReader", name: "skipValue" },
      { container: "LineBuffer", name: "fill" },
      { container: "Base", name: "compile!" },
      { container: "io", name: "Read" },
    ]);
  });

  it("skips one-letter parts and stays linear on long runs", () => {
    expect(qualifiedNames("e.g. a.b x::y")).toEqual([]);
    expect(qualifiedNames(`${"a".repeat(30_000)}::`)).toEqual([]);
    expect(qualifiedNames("ab::".repeat(10_000))).toEqual([{ container: "ab", name: "ab" }]);
  });

  it("adds the member to the symbol candidates whatever its shape", () => {
    expect(parseQuery("how does LineBuffer::fill handle binary data").identifiers).toContain("fill");
  });
});
