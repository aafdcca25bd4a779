import { describe, expect, it } from "vitest";
import { normalizePathFilter, pathPasses } from "./path-filter";

describe("normalizePathFilter", () => {
  it.each([
    ["src/router/", "src/router/"],
    ["./src/", "src/"],
    ["/src/", "src/"],
    ["src\\", "src/"],
    ["src\\router\\", "src/router/"],
    ["src//router/", "src/router/"],
    ["./src/./router/", "src/router/"],
    ["src/**", "src/"],
    ["src/**/*", "src/"],
    ["  src/rou  ", "src/rou"],
  ])("%j is the prefix %j", (raw, prefix) => {
    expect(normalizePathFilter(raw)).toEqual({ kind: "prefix", prefix });
  });

  it.each(["", ".", "/", "./", "**", "**/*"])("%j selects everything", (raw) => {
    expect(normalizePathFilter(raw)).toBeNull();
  });

  it("reads wildcards as a glob, with picomatch's meaning of * and **", () => {
    const star = normalizePathFilter("src/*")!;
    expect(star.kind).toBe("glob");
    expect(pathPasses(star, "src/index.ts")).toBe(true);
    expect(pathPasses(star, "src/router/trie.ts")).toBe(false);
    const deep = normalizePathFilter("./src/**/*.test.ts")!;
    expect(pathPasses(deep, "src/router/trie.test.ts")).toBe(true);
    expect(pathPasses(deep, "src/a.test.ts")).toBe(true);
    expect(pathPasses(deep, "lib/a.test.ts")).toBe(false);
    const braces = normalizePathFilter("**/*.{ts,tsx}")!;
    expect(pathPasses(braces, "web/app/page.tsx")).toBe(true);
    expect(pathPasses(braces, "web/app/page.js")).toBe(false);
    expect(pathPasses(normalizePathFilter("src\\*.ts")!, "src/a.ts")).toBe(true);
    // Without a slash a glob names files at any depth, as grep's and the tree route's globs do.
    expect(pathPasses(normalizePathFilter("*.tsx")!, "web/app/page.tsx")).toBe(true);
    expect(pathPasses(normalizePathFilter("*.tsx")!, "web/app/page.ts")).toBe(false);
  });
});
