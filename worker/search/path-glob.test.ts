/**
 * Globs keep picomatch's meaning (compared with picomatch itself over a table of globs and
 * paths), run on RE2 so a glob with many wildcards finishes over many paths, and a glob past
 * GLOB_MAX_WILDCARDS is refused naming the limit.
 */
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { CodeSearchError } from "../../kernel/errors";
import { compileGlob, GLOB_MAX_WILDCARDS } from "./path-glob";

const GLOBS = [
  "src/*",
  "src/**/*.test.ts",
  "**/*.{ts,tsx}",
  "*.tsx",
  "a/**",
  "a/**/b",
  "**/x",
  "a**b",
  "a/**b",
  "{a}",
  "x{1..3}",
  "*.{ts,{js,jsx}}",
  "@(a|b).ts",
  "+(ab).ts",
  "[[:alpha:]]",
  "a?c",
  "**",

  "**/.git/**",
  "*",

  "[a-c]x",
  "\\*",
  "(a|b)",

  "a+b",
  "$a",
  "a/**/**/b",

  "a/*.ts",
  "src/router/*.ts",
  "proto/**/*.proto",
  "*.proto",
  "src/**",
  "**/*test*/**/*.ts",
  "!src/*",
  "src/[a-z]*.ts",
  "?(a).ts",
  "*(ab)c",
  "docs/*.md",
  "x.{1..3}",
  "**/*?*?*?*?*?*?*",
];
/** File paths (never with a trailing "/", which picomatch also accepts for folders). */
const PATHS = [
  "a",

  "a/b",
  "a/b/c",

  "x",
  "d/x",

  "src/index.ts",
  "src/router/trie.ts",
  "src/router/trie.test.ts",
  "src/a.test.ts",
  "lib/a.test.ts",
  "web/app/page.tsx",
  "web/app/page.js",
  "web/app/page.ts",
  "axyb",
  "ax/yb",
  "a/x/yb",
  "a/yb",
  "{a}",
  "x2",
  "x4",
  "a.jsx",
  "b.ts",
  "abab.ts",
  "ab.ts",
  "a.ts",
  ".ts",
  "c.ts",
  "a/c",
  "abc",
  "a/.b.ts",
  ".git/x",
  "d/.git/y/z",
  "bx",
  "dx",
  "*",
  "a+b",
  "$a",
  "a/x/y/b",
  "proto/api/v1/user.proto",
  "proto/order.proto",
  "user.proto",
  "docs/x.md",
  "docs/a/x.md",
  "x.2",
  "c",
  "ababc",
  "src/foo.ts",
  "src/Foo.ts",
  "a/b/cccccccccccc.ts",
  "x/footest/y/z.ts",
];

describe("compileGlob", () => {
  it.each(GLOBS)("%j matches what picomatch matches", (glob) => {
    const pm = picomatch(glob.includes("/") ? glob : `**/${glob}`, { dot: true, windows: false });
    const mine = compileGlob(glob);
    expect(PATHS.filter((p) => mine.test(p))).toEqual(PATHS.filter((p) => pm(p)));
  });

  it("gives the literal leading folder as the prefix", () => {
    expect(compileGlob("src/router/*.ts").prefix).toBe("src/router/");
    expect(compileGlob("proto/**/*.proto").prefix).toBe("proto/");
    expect(compileGlob("*.proto").prefix).toBe("");
    expect(compileGlob("!src/*").prefix).toBe("");
  });

  it("folds case when asked (connection filters)", () => {
    expect(compileGlob("Acme/API-*", { nocase: true }).test("acme/api-gateway")).toBe(true);
    expect(compileGlob("Acme/API-*").test("acme/api-gateway")).toBe(false);
  });

  it("checks a glob of many *? pairs over many long paths and answers (RE2: no backtracking)", () => {
    // picomatch's RegExp for this glob backtracks with degree 7 on a path that nearly matches.
    const g = compileGlob("**/*?*?*?*?*?*?*?#");
    const paths = Array.from({ length: 300 }, (_, i) => `src/${"a".repeat(60)}/${"b".repeat(80)}${i}.ts`);
    expect(paths.filter((p) => g.test(p))).toEqual([]);
    expect(g.test("src/abcdefghijklmnop#")).toBe(true);
  });

  it(`refuses more than ${GLOB_MAX_WILDCARDS} wildcards, naming the field and the limit`, () => {
    const glob = `**/${"*?".repeat(10)}#`;
    let err: unknown;
    try {
      compileGlob(glob, { field: "path_prefix" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CodeSearchError);
    expect((err as CodeSearchError).code).toBe("invalid_input");
    expect((err as Error).message).toContain(`path_prefix: a glob may hold at most ${GLOB_MAX_WILDCARDS} wildcards`);
    expect(() => compileGlob("!(a).ts")).toThrow(/negated extglobs/);
    expect(() => compileGlob("x{1..100000}")).toThrow(/more than 256 items/);
  });
});
