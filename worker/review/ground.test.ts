/** Table tests of grounding: which findings are presented and why the others are rejected. */
import { describe, expect, it } from "vitest";
import type { ReviewFinding } from "../services/review-schema";
import { parseUnifiedDiff } from "./diff";
import { describeLines, filesOutsideScope, groundFindings } from "./ground";

const DIFF = parseUnifiedDiff(["--- a/src/orders.ts", "+++ b/src/orders.ts", "@@ -10,3 +10,4 @@", " a", "-b", "+b2", "+c", " d", ""].join("\n"));
const f = (file: string, line: number, issue = "wrong"): ReviewFinding => ({
  severity: "high",
  category: "correctness",
  file,
  line,
  issue,
  suggestion: "fix it",
});

describe("groundFindings", () => {
  const diffScope = { kind: "diff" as const, files: DIFF };
  const indexed = new Map<string, number | null>([
    ["src/db.ts", 50],
    ["src/ghost.ts", null],
  ]);
  it.each([
    ["an added line of a hunk", f("src/orders.ts", 11), null],
    ["a context line of a hunk", f("src/orders.ts", 13), null],
    ["a line of the file outside every hunk", f("src/orders.ts", 30), "line_not_in_diff"],
    ["a line that exists nowhere", f("src/orders.ts", 9999), "line_not_in_diff"],
    ["an indexed file outside the diff, line inside it", f("src/db.ts", 50), null],
    ["an indexed file outside the diff, line past its end", f("src/db.ts", 51), "line_out_of_range"],
    ["a file neither in the diff nor the index", f("src/ghost.ts", 1), "file_not_reviewed_or_indexed"],
    ["a path never looked up", f("/etc/passwd", 1), "file_not_reviewed_or_indexed"],
  ])("diff scope: %s", (_name, finding, reason) => {
    const { accepted, rejected } = groundFindings([finding], diffScope, indexed);
    if (reason === null) expect(accepted).toEqual([finding]);
    else expect(rejected.map((r) => r.reason)).toEqual([reason]);
  });

  it("files scope: the line must exist in the indexed file", () => {
    const scope = { kind: "paths" as const, files: [{ path: "src/a.ts", totalLines: 20 }] };
    const { accepted, rejected } = groundFindings([f("src/a.ts", 20), f("src/a.ts", 21)], scope, new Map());
    expect(accepted.map((x) => x.line)).toEqual([20]);
    expect(rejected[0]).toMatchObject({ line: 21, reason: "line_out_of_range", detail: "src/a.ts has 20 lines in the index; line 21 does not exist." });
  });

  it("rejects a repeated finding as a duplicate and names the hunks' lines in the detail", () => {
    const { accepted, rejected } = groundFindings([f("src/orders.ts", 11), f("src/orders.ts", 11), f("src/orders.ts", 2)], diffScope, indexed);
    expect(accepted).toHaveLength(1);
    expect(rejected.map((r) => r.reason)).toEqual(["duplicate", "line_not_in_diff"]);
    expect(rejected[1].detail).toContain("hunks cover 10-13");
  });

  it("lists only files outside the review for the index lookup", () => {
    expect(filesOutsideScope([f("src/orders.ts", 1), f("src/db.ts", 1), f("src/db.ts", 2)], diffScope)).toEqual(["src/db.ts"]);
    expect(describeLines(new Set([3, 1, 2, 7]))).toBe("1-3, 7");
  });
});
