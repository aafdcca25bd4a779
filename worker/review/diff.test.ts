/** Table tests of the unified diff parsing review relies on (new-side lines, statuses, paths). */
import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "./diff";

const MODIFIED = [
  "diff --git a/src/orders.ts b/src/orders.ts",
  "index 1111111..2222222 100644",
  "--- a/src/orders.ts",
  "+++ b/src/orders.ts",
  "@@ -10,3 +10,4 @@ export function cancel(order: Order) {",
  " const a = 1;",
  "-const b = 2;",
  "+const b = 3;",
  "+const c = 4;",
  " return a;",
  "@@ -40,2 +41,2 @@",
  " x();",
  " y();",
  "",
].join("\n");

describe("parseUnifiedDiff", () => {
  it("numbers new-side lines: context and added lines count, removed ones do not", () => {
    const [f] = parseUnifiedDiff(MODIFIED);
    expect(f.path).toBe("src/orders.ts");
    expect(f.status).toBe("modified");
    expect(f.hunks).toHaveLength(2);
    expect(f.hunks[0].lines.map((l) => [l.kind, l.newLine])).toEqual([
      ["context", 10],
      ["del", null],
      ["add", 11],
      ["add", 12],
      ["context", 13],
    ]);
    expect([...f.newSideLines].sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 41, 42]);
    expect(f.hunks[0].lines[2].text).toBe("const b = 3;");
  });

  it("tells added, deleted and renamed files apart; a deleted file has no new side", () => {
    const diff = [
      "diff --git a/new.ts b/new.ts",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/new.ts",
      "@@ -0,0 +1,2 @@",
      "+one",
      "+two",
      "diff --git a/old.ts b/old.ts",
      "deleted file mode 100644",
      "--- a/old.ts",
      "+++ /dev/null",
      "@@ -1,1 +0,0 @@",
      "-gone",
      "diff --git a/a.ts b/b.ts",
      "similarity index 90%",
      "rename from a.ts",
      "rename to b.ts",
      "--- a/a.ts",
      "+++ b/b.ts",
      "@@ -1,1 +1,1 @@",
      "-x",
      "+y",
      "",
    ].join("\n");
    const files = parseUnifiedDiff(diff);
    expect(files.map((f) => [f.path, f.status, f.oldPath])).toEqual([
      ["new.ts", "added", null],
      ["old.ts", "deleted", "old.ts"],
      ["b.ts", "renamed", "a.ts"],
    ]);
    expect([...files[0].newSideLines]).toEqual([1, 2]);
    expect(files[1].newSideLines.size).toBe(0);
  });

  it("rejects text that is not a unified diff, naming the command that makes one", () => {
    expect(() => parseUnifiedDiff("please review my code")).toThrow(/git diff/);
    expect(() => parseUnifiedDiff("--- a/x\n+++ b/x\n")).toThrow(/no file with a hunk/);
  });
});
