import { describe, expect, it } from "vitest";
import { readableRefs, shortRef } from "./ref-filter";

describe("the branch-or-tag filter", () => {
  it("offers the refs with a snapshot, the default first, by short name", () => {
    const refs = [
      { name: "refs/heads/feature", default: false, commit: "b" },
      { name: "refs/heads/later", default: false, commit: null },
      { name: "refs/heads/main", default: true, commit: "a" },
    ];
    expect(readableRefs(refs).map((r) => shortRef(r.name))).toEqual(["main", "feature"]);
    expect(readableRefs(undefined)).toEqual([]);
    expect(shortRef("refs/tags/v2.1")).toBe("v2.1");
  });
});
