import { describe, expect, it } from "vitest";
import { checkPatterns, expandRefPatterns, fullRefPattern, globToRegExp, normaliseRefPattern, refPatternProblem } from "./ref-patterns";

const remote = [
  { name: "refs/heads/main", commit: "a" },
  { name: "refs/heads/feature", commit: "b" },
  { name: "refs/heads/release/1.0", commit: "c" },
  { name: "refs/heads/release/1.0/hotfix", commit: "d" },
  { name: "refs/tags/v2.0", commit: "e" },
  { name: "refs/tags/v2.1", commit: "f" },
  { name: "refs/tags/feature", commit: "g" },
];

describe("ref patterns", () => {
  it("globs: * stops at /, ** does not, ? is one character, the rest is literal", () => {
    expect(globToRegExp("refs/heads/release/*").test("refs/heads/release/1.0")).toBe(true);
    expect(globToRegExp("refs/heads/release/*").test("refs/heads/release/1.0/hotfix")).toBe(false);
    expect(globToRegExp("refs/heads/release/**").test("refs/heads/release/1.0/hotfix")).toBe(true);
    expect(globToRegExp("refs/tags/v2.?").test("refs/tags/v2.1")).toBe(true);
    expect(globToRegExp("refs/tags/v2.?").test("refs/tags/v2x1")).toBe(false);
  });

  it("resolves short names as git does: a branch first, then a tag; full names stay", () => {
    expect(normaliseRefPattern("feature", remote)).toEqual({ pattern: "refs/heads/feature" });
    expect(normaliseRefPattern("v2.*", remote)).toEqual({ pattern: "refs/tags/v2.*" });
    expect(normaliseRefPattern("release/*", remote)).toEqual({ pattern: "refs/heads/release/*" });
    expect(normaliseRefPattern("tags/feature", remote)).toEqual({ pattern: "refs/tags/feature" });
    expect(normaliseRefPattern("refs/tags/v9.*", remote)).toEqual({ pattern: "refs/tags/v9.*" });
    expect(normaliseRefPattern("nope", remote)).toMatchObject({ error: expect.stringContaining("matches no branch or tag") });
    expect(normaliseRefPattern("refs/heads/nope", remote)).toMatchObject({ error: expect.stringContaining("no ref refs/heads/nope") });
  });

  it("advises what would be accepted: a glob for refs to come (a full name must exist), no HEAD, no commit", () => {
    const advice = (input: string) => (normaliseRefPattern(input, remote) as { error: string }).error;
    expect(advice("nope")).toContain("write a glob such as refs/heads/nope* or refs/tags/nope*");
    expect(advice("nope")).not.toContain("write the full name");
    expect(advice("refs/heads/nope")).toContain("for one to come, write a glob such as refs/heads/nope*");
    expect(normaliseRefPattern("refs/heads/nope*", remote)).toEqual({ pattern: "refs/heads/nope*" });
    expect(advice("HEAD")).toContain("is the default branch, which is always tracked");
    expect(advice("696048fe6749287ee8581820d986f8de22222d1f")).toContain("is a commit, not a branch or tag");
    expect(fullRefPattern("release/*")).toBe("refs/heads/release/*");
    expect(fullRefPattern("tags/v1")).toBe("refs/tags/v1");
  });

  it("refuses malformed names", () => {
    for (const bad of ["a..b", "a b", "-x", "x/", "x.lock", "a@{1}", "a:b", ""]) expect(refPatternProblem(bad)).not.toBeNull();
    expect(refPatternProblem("release/1.x")).toBeNull();
  });

  it("expands in pattern order, without the default ref, each ref once, up to the limit", () => {
    const { refs, overLimit } = expandRefPatterns(["refs/tags/v2.*", "refs/heads/*"], remote, "refs/heads/main", 3);
    expect(refs.map((r) => r.name)).toEqual(["refs/tags/v2.0", "refs/tags/v2.1", "refs/heads/feature"]);
    expect(refs[0]).toEqual({ name: "refs/tags/v2.0", pattern: "refs/tags/v2.*", commit: "e" });
    expect(overLimit).toEqual([]);
    expect(expandRefPatterns(["refs/heads/**"], remote, "refs/heads/main", 2).overLimit).toEqual(["refs/heads/release/1.0/hotfix"]);
  });

  it("checkPatterns names every problem and the limit, the default ref included in it", () => {
    expect(checkPatterns(["feature", "refs/heads/feature"], remote, "refs/heads/main", 10)).toEqual(["refs/heads/feature"]);
    expect(() => checkPatterns(["nope", "a..b"], remote, "refs/heads/main", 10)).toThrow(/"nope".*"a\.\.b"/);
    expect(() => checkPatterns(["refs/heads/**"], remote, "refs/heads/main", 3)).toThrow(/at most 3 refs/);
  });
});
