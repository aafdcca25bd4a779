import { describe, expect, it } from "vitest";
import { parseGitHubEvent, parseGitLabEvent, repoUrlKey, tracksRef } from "./payloads";

const sha = "a".repeat(40);

describe("parseGitHubEvent / parseGitLabEvent", () => {
  it("reads a GitHub push", () => {
    const e = parseGitHubEvent("push", {
      ref: "refs/heads/main",
      after: sha,
      deleted: false,
      repository: { clone_url: "https://github.com/o/r.git", html_url: "https://github.com/o/r", default_branch: "main" },
    });
    expect(e).toEqual({
      kind: "push",
      push: {
        ref: "refs/heads/main",
        before: null,
        after: sha,
        deleted: false,
        repoUrls: ["https://github.com/o/r.git", "https://github.com/o/r"],
        defaultBranch: "main",
      },
    });
  });

  it("reads a GitLab push, and a deletion from the zero SHA", () => {
    const e = parseGitLabEvent("Push Hook", {
      object_kind: "push",
      ref: "refs/heads/dev",
      after: "0".repeat(40),
      project: { git_http_url: "https://gitlab.com/g/p.git", default_branch: "main" },
    });
    expect(e).toMatchObject({ kind: "push", push: { ref: "refs/heads/dev", deleted: true, repoUrls: ["https://gitlab.com/g/p.git"] } });
  });

  it("tells pings and other events apart, and rejects a malformed push", () => {
    expect(parseGitHubEvent("ping", { zen: "x" })).toEqual({ kind: "ping" });
    expect(parseGitHubEvent("issues", {})).toEqual({ kind: "other", name: "issues" });
    expect(parseGitLabEvent("Merge Request Hook", {})).toEqual({ kind: "other", name: "Merge Request Hook" });
    expect(parseGitHubEvent("push", { ref: "refs/heads/main", after: "not-a-sha", repository: {} })).toBeNull();
  });
});

describe("repoUrlKey", () => {
  it("compares clone and web URLs of one repository equal", () => {
    expect(repoUrlKey("https://GitHub.com/O/R.git")).toBe("github.com/o/r");
    expect(repoUrlKey("https://github.com/o/r/")).toBe("github.com/o/r");
    expect(repoUrlKey("http://127.0.0.1:8080/x.git")).toBe("127.0.0.1:8080/x");
    expect(repoUrlKey("not a url")).toBeNull();
  });
});

describe("tracksRef", () => {
  it.each<[string | null, string, string | null, boolean]>([
    [null, "refs/heads/main", "main", true],
    [null, "refs/heads/dev", "main", false],
    [null, "refs/heads/main", null, false],
    ["main", "refs/heads/main", "trunk", true],
    ["v1", "refs/tags/v1", "main", true],
    ["refs/heads/release", "refs/heads/release", "main", true],
    ["main", "refs/heads/maintenance", "main", false],
    [sha, "refs/heads/main", "main", false],
  ])("tracked %s, push %s, default %s -> %s", (tracked, ref, def, expected) => {
    expect(tracksRef(tracked, ref, def)).toBe(expected);
  });
});
