import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { filterSql, isTestPath, TEST_PATH_GLOBS, TEST_PATH_WORDS } from "./filters";

const PATHS = [
  "src/users.test.ts",
  "tests/test_api.py",
  "pkg/server_test.go",
  "src/__tests__/a.js",
  "spec/models/user_spec.rb",
  "lib/a_spec.rb",
  "src/test/java/FooTest.java",
  "FooTests.kt",
  "x/testdata/in.txt",
  "test.c",
  "src/test_util.c",
  "a/b_unittest.cc",
  "Test.cs",
  "src/testing.ts",
  "src/attestation.ts",
  "src/router/index.ts",
  "docs/Testing.md",
  "src/spectrum.ts",
  "contest/x.py",
  "README.md",
];

/** A GLOB pattern as an anchored regex, one per glob (the definition the shortcut must agree with). */
const globRe = (g: string) =>
  new RegExp(
    `^${g
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  );

describe("test paths", () => {
  it("every glob has one of TEST_PATH_WORDS in its literal text (the shortcut's premise)", () => {
    for (const g of TEST_PATH_GLOBS) expect(g.split(/[*?]/).some((part) => TEST_PATH_WORDS.some((w) => part.includes(w)))).toBe(true);
  });
  it.each(PATHS)("isTestPath(%s) agrees with the globs", (p) => expect(isTestPath(p)).toBe(TEST_PATH_GLOBS.some((g) => globRe(g).test(p))));
  it("the SQL filter keeps the same paths as the plain GLOB list", async () => {
    const values = PATHS.map(() => "(?)").join(", ");
    const plain = `NOT (${TEST_PATH_GLOBS.map((g) => `c.path GLOB '${g}'`).join(" OR ")})`;
    const kept = async (where: string) =>
      (
        await env.DB.prepare(`WITH c(path) AS (VALUES ${values}) SELECT path FROM c WHERE ${where} ORDER BY path`)
          .bind(...PATHS)
          .all<{ path: string }>()
      ).results.map((r) => r.path);
    const f = filterSql({ includeTests: false });
    // filterSql's first part is the path test (the second, inline tests, needs chunk columns).
    const pathPart = f.sql.split(" AND NOT (c.language")[0].replace(/^ AND /, "");
    expect(pathPart).toContain("instr(c.path");
    expect(await kept(pathPart)).toEqual(await kept(plain));
    expect(await kept(pathPart)).toEqual(PATHS.filter((p) => !isTestPath(p)).sort());
  });
});
