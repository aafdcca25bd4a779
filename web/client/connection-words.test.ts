import { describe, expect, it } from "vitest";
import { plural, syncWords } from "./connection-words";

const empty = { listed: 0, added: [], registered: [], waiting: 0, marked: [], unmarked: [], removed: [], skipped: [] };

describe("syncWords", () => {
  it("says what a sync added, removed, marked and skipped, in words", () => {
    expect(
      syncWords({
        ...empty,
        listed: 4,
        added: ["acme/docs"],
        registered: ["acme-docs"],
        marked: [{ repo: "acme-old", fullName: "acme/old", reason: "archived" }],
        removed: ["acme-gone"],
        skipped: [{ fullName: "acme/api", reason: "id_taken" }],
        waiting: 2,
      }),
    ).toBe(
      "listed 4 repositories; added acme-docs; removed acme-gone; acme/old (archived) marked missing; skipped acme/api (a repository with that name was added by hand); 2 repositories waiting for the next sync.",
    );
  });
  it("a sync that changed nothing", () => {
    expect(syncWords({ ...empty, listed: 1 })).toBe("listed 1 repository; added none.");
  });
  it("keeps an unknown reason as it is", () => {
    expect(syncWords({ ...empty, listed: 1, marked: [{ repo: null, fullName: "a/b", reason: "moved" }] })).toContain("a/b (moved) marked missing");
  });
});

describe("plural", () => {
  it("one and many", () => {
    expect([plural(1, "hour"), plural(2, "hour"), plural(1200, "repository", "repositories")]).toEqual(["1 hour", "2 hours", "1,200 repositories"]);
  });
});
