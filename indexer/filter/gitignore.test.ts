import { describe, expect, it } from "vitest";
import { createGitignoreMatcher } from "./gitignore";

// Expectations were checked against `git check-ignore --no-index` on the same tree (git 2.x):
// see the comment in each row where git's behaviour is the reason.
const ignoreFiles = [
  { path: ".gitignore", content: "*.log\n!keep.log\nbuild/\n/root-only.txt\nsecret/\n!secret/allowed.txt\ndocs/*\n!docs/public/\n" },
  { path: "src/.gitignore", content: "generated/\n!important.log\n*.tmp\n" },
  { path: "src/deep/.gitignore", content: "!*.tmp\nlocal.txt\n" },
  { path: "pkg/.gitignore", content: "/only-here.txt\n" },
];

const cases: [path: string, ignored: boolean, why: string][] = [
  ["app.log", true, "root *.log"],
  ["keep.log", false, "root negation, last rule wins"],
  ["lib/keep.log", false, "negation without slash matches at any depth"],
  ["lib/other.log", true, "*.log matches at any depth"],
  ["build/out.js", true, "directory rule excludes everything beneath"],
  ["src/build/x.ts", true, "build/ without leading slash matches at any depth"],
  ["root-only.txt", true, "anchored rule"],
  ["src/root-only.txt", false, "anchored rule does not apply deeper"],
  ["secret/allowed.txt", true, "cannot re-include a file if its parent directory is excluded"],
  ["docs/readme.md", true, "docs/* excludes the children"],
  ["docs/public/index.md", false, "docs/public/ re-included, its parent docs/ itself is not excluded"],
  ["src/important.log", false, "nested negation overrides the root rule"],
  ["src/other.log", true, "root rule still applies in src/"],
  ["src/generated/a.ts", true, "nested directory rule"],
  ["generated/a.ts", false, "nested rule does not apply above its directory"],
  ["src/a.tmp", true, "nested *.tmp"],
  ["src/deep/a.tmp", false, "deeper negation wins"],
  ["src/deep/local.txt", true, "deepest file's rule"],
  ["local.txt", false, "deeper rules stay below their directory"],
  ["pkg/only-here.txt", true, "anchored to the .gitignore's own directory"],
  ["pkg/sub/only-here.txt", false, "anchored rule does not apply deeper"],
  ["src/main.ts", false, "no rule matches"],
];

describe("createGitignoreMatcher", () => {
  const isIgnored = createGitignoreMatcher(ignoreFiles);
  it.each(cases)("%s -> ignored=%s (%s)", (path, ignored) => {
    expect(isIgnored(path)).toBe(ignored);
  });

  it("ignores nothing without .gitignore files", () => {
    expect(createGitignoreMatcher([])("a/b.log")).toBe(false);
  });

  it("is case-sensitive, as git is by default on Linux", () => {
    expect(createGitignoreMatcher([{ path: ".gitignore", content: "*.LOG\n" }])("a.log")).toBe(false);
  });
});
