import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { chunk, indexFixture, type FixtureFile } from "./search-fixture";

const files: FixtureFile[] = [
  {
    path: "src/router/smart-router.ts",
    chunks: [
      chunk("class", 1, "export class SmartRouter {\n  routers: Router[]\n  name = 'SmartRouter'", "SmartRouter"),
      chunk(
        "method",
        4,
        "  match(method: string, path: string) {\n    for (const router of this.routers) {\n      try { router.add(method, path) } catch (e) { if (e instanceof UnsupportedPathError) continue }\n    }\n  }",
        "match",
        "SmartRouter",
      ),
    ],
  },
  {
    path: "src/users.ts",
    chunks: [
      chunk("function", 1, "export function getUserById(id: string): User {\n  return db.users.find(id)\n}", "getUserById"),
      chunk("function", 4, "export function listUsers(): User[] {\n  return db.users.all()\n}", "listUsers"),
      chunk("function", 7, "export function deleteUser(id: string) {\n  return db.users.remove(id)\n}", "deleteUser"),
    ],
  },
  {
    path: "src/users.test.ts",
    chunks: [chunk("function", 1, "test('getUserById returns the user', () => {\n  expect(getUserById('1')).toBeDefined()\n})")],
  },
  {
    path: "src/http/cookie.ts",
    chunks: [
      chunk(
        "function",
        1,
        "export const parseCookie = (header: string): Record<string, string> => {\n  return Object.fromEntries(header.split(';').map((pair) => pair.trim().split('=')))\n}",
        "parseCookie",
      ),
      chunk(
        "function",
        4,
        "export const serializeCookie = (name: string, value: string, opt: CookieOptions) => {\n  return `${name}=${encodeURIComponent(value)}`\n}",
        "serializeCookie",
      ),
    ],
  },
  {
    path: "scripts/build.py",
    language: "python",
    chunks: [
      chunk("function", 1, 'def build_bundle(entry):\n    """Bundle the router and cookie helpers for release."""\n    return esbuild(entry)', "build_bundle"),
    ],
  },
];

const search = async (params: Record<string, string>) => {
  const res = await api(`/api/search?${new URLSearchParams(params)}`);
  return { status: res.status, body: (await res.json()) as any };
};

beforeAll(async () => {
  await indexFixture("s1", "c1", files);
  // An old version of users.ts that is not in the active snapshot: its words must not be found.
  await indexFixture(
    "s1",
    "c0",
    [{ path: "src/users.ts", chunks: [chunk("function", 1, "export function legacyZanzibarLookup() {}", "legacyZanzibarLookup")] }],
    { embed: false, activate: false },
  );
  await indexFixture("s2", "d1", [
    {
      path: "lib/session.ts",
      chunks: [chunk("function", 1, "export function readSessionCookie(req) {\n  return parseCookie(req.headers.cookie).sid\n}", "readSessionCookie")],
    },
  ]);
  await indexFixture("s-old-model", "e1", [{ path: "a.ts", chunks: [chunk("function", 1, "export function parseCookie() {}", "parseCookie")] }], {
    model: "@cf/baai/bge-base-en-v1.5",
  });
  await indexFixture("s-rust", "r1", [
    {
      path: "src/line_buffer.rs",
      language: "rust",
      chunks: [
        chunk(
          "method",
          1,
          "pub fn fill<R: io::Read>(&mut self, mut rdr: R) -> io::Result<bool> {\n    if self.binary_detection.quit_byte().is_some() {\n        return Ok(false);\n    }\n    Ok(true)\n}",
          "fill",
          "LineBuffer",
        ),
        chunk("function", 7, "pub fn default_quit_byte() -> u8 {\n    0\n}", "default_quit_byte"),
        chunk(
          "function",
          10,
          "#[test]\nfn buffer_binary_quit1() {\n    let mut linebuf = LineBufferBuilder::new().binary_detection(BinaryDetection::Quit(b'\\x00')).build();\n    assert!(linebuf.fill(&mut rdr).unwrap());\n}",
          "buffer_binary_quit1",
          "tests",
        ),
      ],
    },
    {
      path: "test.c",
      language: "c",
      chunks: [chunk("function", 1, "static void test_fill_binary_quit(void) {\n    fill(buffer, quit);\n}", "test_fill_binary_quit")],
    },
  ]);
  await indexFixture("s-java", "j1", [
    {
      path: "a/JsonTreeReader.java",
      language: "java",
      chunks: [
        chunk(
          "method",
          1,
          "@Override public void skipValue() throws IOException {\n  // Skips a nested object or array the way JsonReader does, by popping the stack.\n  popStack();\n}",
          "skipValue",
          "JsonTreeReader",
        ),
      ],
    },
    {
      path: "b/JsonReader.java",
      language: "java",
      chunks: [
        chunk(
          "method",
          1,
          "public void skipValue() throws IOException {\n  int count = 0;\n  do { doPeek(); } while (count > 0);\n}",
          "skipValue",
          "JsonReader",
        ),
      ],
    },
    {
      path: "a/ParseBenchmark.java",
      language: "java",
      chunks: [
        chunk(
          "class",
          1,
          "private static class GsonSkipParser implements Parser {\n  public void parse(char[] data) throws Exception {\n    JsonReader jsonReader = new JsonReader(new CharArrayReader(data));\n    jsonReader.skipValue(); // skipValue of a JsonReader: skip the nested object\n    jsonReader.close();\n  }\n}",
          "GsonSkipParser",
          "ParseBenchmark",
        ),
      ],
    },
    {
      path: "c/line_buffer.rs",
      language: "rust",
      chunks: [
        chunk("method", 1, "fn fill(&mut self) -> bool {\n  true\n}", "fill", "LineBufferReader"),
        chunk("method", 4, "pub fn fill<R>(&mut self, rdr: R) -> bool {\n  false\n}", "fill", "LineBuffer"),
      ],
    },
  ]);
  await indexFixture("s-not-ready", "f1", [{ path: "a.ts", chunks: [chunk("function", 1, "export function x() {}", "x")] }], { activate: false });
});

describe("GET /api/search", () => {
  it("finds a function from a description and reports each channel's rank", async () => {
    const { status, body } = await search({ q: "get user by id", repo: "s1" });
    expect(status).toBe(200);
    const top = body.results[0];
    expect(top).toMatchObject({ repo: "s1", path: "src/users.ts", startLine: 1, endLine: 3, symbol: "getUserById", kind: "function", language: "typescript" });
    expect(top.ranks.bm25).toBe(1);
    expect(top.ranks.symbol).toBe(1); // "get user by id" joined is the symbol name
    expect(top.ranks.vector).toBeGreaterThanOrEqual(1);
    expect(top.snippet).toContain("db.users.find(id)");
    expect(top.chunkId).toMatch(/^[0-9a-f]{32}-\d+$/);
    expect(body.confidence.level).toBe("high");
    expect(body.stats.failedRepos).toEqual([]);
  });

  it("only searches the active snapshot", async () => {
    const { body } = await search({ q: "legacyZanzibarLookup", repo: "s1", mode: "bm25" });
    expect(body.results).toEqual([]);
    expect(body.confidence.level).toBe("low");
  });

  it("ranks a member written with its container (A.b, A::b, or A and b apart) in that container first", async () => {
    const top = async (q: string) => (await search({ q, repo: "s-java", mode: "symbol" })).body.results[0];
    expect(await top("JsonReader.skipValue")).toMatchObject({ path: "b/JsonReader.java", symbol: "skipValue" });
    expect(await top("JsonTreeReader.skipValue")).toMatchObject({ path: "a/JsonTreeReader.java", symbol: "skipValue" });
    expect(await top("JsonReader skipValue")).toMatchObject({ path: "b/JsonReader.java", symbol: "skipValue" });
    expect(await top("what does LineBuffer::fill return")).toMatchObject({ startLine: 4, symbol: "fill" });
    // Whole search, not only the symbol channel: the qualified definition comes first.
    for (const q of ["JsonReader.skipValue", "how does JsonReader.skipValue skip a nested object"]) {
      expect((await search({ q, repo: "s-java" })).body.results[0]).toMatchObject({ path: "b/JsonReader.java", symbol: "skipValue" });
    }
    expect((await search({ q: "LineBuffer::fill", repo: "s-java" })).body.results[0]).toMatchObject({ startLine: 4, symbol: "fill" });
  });

  it("excludes inline Rust test modules and C test files unless asked", async () => {
    const ids = (r: any) => r.body.results.map((x: any) => `${x.path}:${x.symbol}`);
    for (const mode of ["hybrid", "bm25", "vector", "symbol"]) {
      const plain = await search({ q: "fill binary quit buffer linebuf", repo: "s-rust", mode });
      expect(ids(plain)).not.toContain("src/line_buffer.rs:buffer_binary_quit1");
      expect(ids(plain)).not.toContain("test.c:test_fill_binary_quit");
      // Rust code outside any container (free functions, file headers) stays.
      if (mode !== "symbol") expect(ids(plain)).toContain("src/line_buffer.rs:default_quit_byte");
    }
    const withTests = await search({ q: "fill binary quit buffer linebuf", repo: "s-rust", include_tests: "true" });
    expect(ids(withTests)).toEqual(
      expect.arrayContaining(["src/line_buffer.rs:fill", "src/line_buffer.rs:buffer_binary_quit1", "test.c:test_fill_binary_quit"]),
    );
  });

  it("excludes tests unless asked, filters by language and path prefix", async () => {
    const plain = await search({ q: "getUserById", repo: "s1" });
    expect(plain.body.results.map((r: any) => r.path)).not.toContain("src/users.test.ts");
    const withTests = await search({ q: "getUserById", repo: "s1", include_tests: "true" });
    expect(withTests.body.results.map((r: any) => r.path)).toContain("src/users.test.ts");
    const mentioned = await search({ q: "test for getUserById", repo: "s1" });
    expect(mentioned.body.results.map((r: any) => r.path)).toContain("src/users.test.ts");
    const py = await search({ q: "router cookie bundle", repo: "s1", language: "python" });
    expect(py.body.results.map((r: any) => r.path)).toEqual(["scripts/build.py"]);
    const prefixed = await search({ q: "cookie router", repo: "s1", path_prefix: "src/http/" });
    expect(prefixed.body.results.length).toBeGreaterThan(0);
    expect(prefixed.body.results.every((r: any) => r.path.startsWith("src/http/"))).toBe(true);
  });

  it("switches channels with mode", async () => {
    for (const mode of ["bm25", "vector", "symbol"] as const) {
      const { body } = await search({ q: "parseCookie", repo: "s1", mode });
      expect(body.results[0].path).toBe("src/http/cookie.ts");
      for (const r of body.results) expect(Object.keys(r.ranks)).toEqual([mode]);
    }
    const hybrid = await search({ q: "parseCookie", repo: "s1" });
    expect(Object.keys(hybrid.body.results[0].ranks).sort()).toEqual(["bm25", "path", "symbol", "vector"]);
  });

  it("caps results per file (default 2): a file's surplus follows the other files, and the cap can be lifted", async () => {
    const uncapped = await search({ q: "users db id user cookie", repo: "s1", mode: "bm25", per_file_cap: "0" });
    const third = uncapped.body.results.filter((r: any) => r.path === "src/users.ts")[2];
    expect(uncapped.body.results.indexOf(third)).toBeLessThan(uncapped.body.results.length - 1);
    const capped = await search({ q: "users db id user cookie", repo: "s1", mode: "bm25" });
    const paths = capped.body.results.map((r: any) => r.path);
    expect(paths.filter((p: string) => p === "src/users.ts")).toHaveLength(3);
    // Fewer than k files match, so the third users.ts chunk fills the page, after every other file's.
    expect(paths.lastIndexOf("src/users.ts")).toBe(paths.length - 1);
    expect(paths.slice(0, -1).filter((p: string) => p === "src/users.ts")).toHaveLength(2);
    const one = await search({ q: "users db id user cookie", repo: "s1", mode: "bm25", k: "2", per_file_cap: "1" });
    expect(one.body.results.map((r: any) => r.path)).toEqual(["src/users.ts", "src/http/cookie.ts"]);
  });

  it("gates confidence: words absent from the code give low with the missing terms", async () => {
    const { body } = await search({ q: "kubernetes helm chart deployment", repo: "s1" });
    expect(body.confidence.level).toBe("low");
    expect(body.confidence.missingTerms).toEqual(expect.arrayContaining(["kubernetes", "helm"]));
    expect(body.confidence.reason).toMatch(/missing terms/);
  });

  it("gates confidence: a question naming a thing no file of the repo holds is low, an absent English word is not", async () => {
    // "parse", "cookie" and "header" are in src/http/cookie.ts; "redis" is in no file and is no English word.
    const named = await search({ q: "where does the cookie parser read the header from a redis store", repo: "s1" });
    expect(named.body.results[0].path).toBe("src/http/cookie.ts");
    expect(named.body.confidence.level).toBe("low");
    expect(named.body.confidence.reason).toMatch(/^The question names "redis", which no indexed file of the searched repos contains/);
    // The same question in the asker's own English words: "splits" and "semicolons" are in no file either.
    const worded = await search({ q: "where does the cookie parser splits the header at semicolons", repo: "s1" });
    expect(worded.body.confidence.reason).not.toMatch(/The question names/);
    // A keyword query (no English function words) is left to the other rules.
    const keywords = await search({ q: "parseCookie redis", repo: "s1" });
    expect(keywords.body.confidence.reason).not.toMatch(/The question names/);
  });

  it("searches several repos, and every visible repo by default", async () => {
    const some = await search({ q: "parse cookie", repos: "s1,s2" });
    expect(new Set(some.body.results.map((r: any) => r.repo))).toEqual(new Set(["s1", "s2"]));
    const all = await search({ q: "readSessionCookie" });
    expect(all.body.results[0]).toMatchObject({ repo: "s2", path: "lib/session.ts" });
    expect(all.body.stats.failedRepos).toEqual([{ repo: "s-not-ready", error: expect.stringMatching(/index_not_ready/) }]);
  });

  it("skips the vector channel with a reason when the index was built by another model", async () => {
    const { body } = await search({ q: "parse cookie", repo: "s-old-model" });
    expect(body.results[0].path).toBe("a.ts");
    expect(body.results[0].ranks.vector).toBeUndefined();
    expect(body.stats.skippedChannels).toContainEqual({ repo: "s-old-model", channel: "vector", reason: expect.stringMatching(/re-index/) });
  });

  it("answers 404 for an unknown repo, 409 for a repo without a snapshot, 400 for bad input", async () => {
    expect((await search({ q: "x", repo: "nope" })).body.error.code).toBe("repo_not_found");
    expect((await search({ q: "x", repo: "nope" })).status).toBe(404);
    const notReady = await search({ q: "x", repo: "s-not-ready" });
    expect(notReady.status).toBe(409);
    expect(notReady.body.error.code).toBe("index_not_ready");
    const bad = await search({ q: "x", repo: "s1", k: "500" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^k:/);
    expect((await search({ repo: "s1" })).status).toBe(400);
    const klingon = await search({ q: "x", repo: "s1", language: "klingon" });
    expect(klingon.status).toBe(400);
    expect(klingon.body.error.message).toMatch(/^language: unknown language; use one of .*python.*typescript/);
    expect((await search({ q: "cookie", repo: "s1", language: "TypeScript" })).status).toBe(200);
  });
});

describe("POST /api/search", () => {
  it("takes a pasted bug report of several KB, selects informative terms and finds the code", async () => {
    const noise = Array.from({ length: 300 }, (_, i) => `word${i} the server returned an unexpected value`).join(" ");
    const report = `Bug: the Cookie header is parsed wrong. When parseCookie gets a value with '=' in it the pair is split twice.\n${noise}\nStack:\n  at parseCookie (src/http/cookie.ts:2:10)`;
    expect(report.length).toBeGreaterThan(5000);
    const res = await api("/api/search", { method: "POST", json: { q: report, repo: "s1", k: 5 } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.results[0].path).toBe("src/http/cookie.ts");
    expect(body.results[0].symbol).toBe("parseCookie");
    expect(body.stats.queryTerms.length).toBeLessThanOrEqual(24);
    expect(body.stats.queryTerms).toContain("parsecookie");
  });

  it("ranks a report's title names, then its rarely defined names first in the symbol channel; a question keeps its order", async () => {
    const store = (name: string) => ({
      path: `src/stores/${name}.py`,
      language: "python",
      chunks: [chunk("method", 1, `    def remove(self, key):\n        del self.items[key]`, "remove", name)],
    });
    await indexFixture("s-names", "g1", [
      store("cache"),
      store("registry"),
      store("queue"),
      {
        path: "src/util/iterables.py",
        language: "python",
        chunks: [chunk("function", 1, "def dedupe(seq):\n    seen = set()\n    return [x for x in seq if not (x in seen or seen.add(x))]", "dedupe")],
      },
    ]);
    const report =
      "dedupe silently skips items when the caller mutates the list\nWhen I loop over the output and call `remove()` on the input the result changes, " +
      "so the order of the cache entries and the registry entries differs between runs on every platform we tried. " +
      "Expected behaviour: a stable sequence, or an exception that tells me mutation during iteration is unsupported, like Python's own dictionaries raise.\n```python\n>>> for x in dedupe(items):\n...     items.remove(x)\n```";
    const asReport = await api("/api/search", { method: "POST", json: { q: report, repo: "s-names", k: 5, mode: "symbol" } });
    const reportBody = (await asReport.json()) as any;
    const symbolRank = (results: any[], name: string) => Math.min(...results.filter((r) => r.symbol === name).map((r) => r.ranks.symbol));
    expect(symbolRank(reportBody.results, "dedupe")).toBe(1);
    expect(symbolRank(reportBody.results, "remove")).toBe(2);
    // A report whose title marks `remove()` as code: the title's name comes first, rarity after.
    const titled = report.replace(/^[^\n]*/, "`remove()` drops the wrong entry when dedupe runs on a list the caller mutates");
    const titledBody = (await (await api("/api/search", { method: "POST", json: { q: titled, repo: "s-names", k: 5, mode: "symbol" } })).json()) as any;
    expect(symbolRank(titledBody.results, "remove")).toBe(1);
    expect(symbolRank(titledBody.results, "dedupe")).toBe(4);
    // A question names `remove()` first on purpose: it stays first.
    const question = await search({ q: "where is remove() called from dedupe()", repo: "s-names", mode: "symbol", k: "5" });
    expect(symbolRank(question.body.results, "remove")).toBe(1);
    expect(symbolRank(question.body.results, "dedupe")).toBe(4);
  });

  it("rejects a body that is not a JSON object", async () => {
    const res = await api("/api/search", { method: "POST", body: "not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
  });
});

describe("a search of the same repos again (its channels' reads start with the snapshots the last one found)", () => {
  const answer = async (q: string, repo: string) => {
    const { status, body } = await search({ q, repo });
    expect(status).toBe(200);
    delete body.stats.tookMs;
    return body;
  };
  it.each(["getUserById", "parse cookie header", "zanzibarish cookie", "build bundle release"])("answers %s as the first time", async (q) => {
    const first = await answer(q, "s1");
    expect(await answer(q, "s1")).toEqual(first);
  });
  it("reads the repo's new snapshot after a flip", async () => {
    await indexFixture("s-flip", "f1", [{ path: "a.ts", chunks: [chunk("function", 1, "export function alphaHandler() {}", "alphaHandler")] }]);
    expect((await answer("alphaHandler", "s-flip")).results.map((r: { path: string }) => r.path)).toEqual(["a.ts"]);
    await indexFixture("s-flip", "f2", [{ path: "b.ts", chunks: [chunk("function", 1, "export function alphaHandler() { return 2 }", "alphaHandler")] }]);
    expect((await answer("alphaHandler", "s-flip")).results.map((r: { path: string }) => r.path)).toEqual(["b.ts"]);
  });
});
