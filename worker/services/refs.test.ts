/** The ref matching rules of worker/services/refs.ts (`matchRef`): full, short, heads before tags, HEAD, commits. */
import { describe, expect, it } from "vitest";
import { defaultRefName, matchRef, shortRefName, type TrackedRef } from "./refs";

const row = (name: string, commit: string | null, isDefault = 0): TrackedRef => ({
  repo: "r",
  name,
  is_default: isDefault,
  commit_sha: commit,
  status: commit ? "ready" : "indexing",
  indexed_at: null,
});
const MAIN = "1".repeat(40);
const FEATURE = "fea7".padEnd(40, "0");
const TAG = "7a90".padEnd(40, "0");
const tracked = [
  row("refs/heads/main", MAIN, 1),
  row("refs/heads/feature", FEATURE),
  row("refs/tags/feature", TAG),
  row("refs/tags/v2.1", TAG),
  row("refs/heads/later", null),
];

describe("matchRef", () => {
  it("matches full and short names, the branch before a tag of the same name", () => {
    expect(matchRef("refs/heads/feature", "refs/heads/main", MAIN, tracked)).toMatchObject({ name: "refs/heads/feature" });
    expect(matchRef("feature", "refs/heads/main", MAIN, tracked)).toMatchObject({ name: "refs/heads/feature" });
    expect(matchRef("refs/tags/feature", "refs/heads/main", MAIN, tracked)).toMatchObject({ name: "refs/tags/feature" });
    expect(matchRef("v2.1", "refs/heads/main", MAIN, tracked)).toMatchObject({ name: "refs/tags/v2.1" });
    expect(matchRef(" feature ", "refs/heads/main", MAIN, tracked)).toMatchObject({ name: "refs/heads/feature" });
  });

  it("reads the default ref by name, short name, HEAD or its commit; a default known only short matches a full name", () => {
    for (const asked of ["main", "refs/heads/main", "HEAD", MAIN.slice(0, 7), MAIN]) expect(matchRef(asked, "refs/heads/main", MAIN, tracked)).toBe("default");
    expect(matchRef("refs/heads/main", "main", MAIN, [])).toBe("default");
    expect(matchRef("main", "main", MAIN, [])).toBe("default");
  });

  it("finds another ref by a commit prefix of 7+ hex, and nothing for unknown names or short prefixes", () => {
    expect(matchRef(FEATURE.slice(0, 8), "refs/heads/main", MAIN, tracked)).toMatchObject({ name: "refs/heads/feature" });
    expect(matchRef("fea7", "refs/heads/main", MAIN, tracked)).toBeNull();
    expect(matchRef("nope", "refs/heads/main", MAIN, tracked)).toBeNull();
    expect(matchRef("refs/heads/v2.1", "refs/heads/main", MAIN, tracked)).toBeNull();
  });

  it("returns a tracked ref without a snapshot as is (the resolver says it is not indexed yet)", () => {
    expect(matchRef("later", "refs/heads/main", MAIN, tracked)).toMatchObject({ name: "refs/heads/later", commit_sha: null });
  });
});

describe("defaultRefName and shortRefName", () => {
  it("prefer the default row, then the registered ref, then HEAD; archives have none", () => {
    expect(defaultRefName({ source_kind: "git", ref: "main", default_ref: "refs/heads/main" })).toBe("refs/heads/main");
    expect(defaultRefName({ source_kind: "git", ref: "main", default_ref: null })).toBe("main");
    expect(defaultRefName({ source_kind: "git", ref: null, default_ref: null })).toBe("HEAD");
    expect(defaultRefName({ source_kind: "archive", ref: null, default_ref: null })).toBeNull();
    expect(shortRefName("refs/heads/release/1.x")).toBe("release/1.x");
    expect(shortRefName("refs/tags/v2")).toBe("v2");
    expect(shortRefName("refs/remotes/x")).toBe("refs/remotes/x");
  });
});
