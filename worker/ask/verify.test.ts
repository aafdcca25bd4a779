/** Table tests of the citation verifier: ranges, unknown evidence, another repo, an adjacent file, snapshots. */
import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "./evidence";
import { checkCitation, verifyAnswer, type CitationClaim } from "./verify";

const ev = (label: string, repo: string, path: string, startLine: number, endLine: number): EvidenceItem => ({
  label,
  repo,
  path,
  startLine,
  endLine,
  language: "typescript",
  symbol: null,
  lines: Array.from({ length: endLine - startLine + 1 }, (_, i) => `line ${startLine + i}`),
});
const EVIDENCE = [ev("E1", "hono", "src/router.ts", 10, 30), ev("E2", "hono", "src/context.ts", 100, 140), ev("E3", "other", "src/router.ts", 1, 50)];
const SAME = new Map([
  ["hono", { atEvidence: "c1", now: "c1" }],
  ["other", { atEvidence: "c9", now: "c9" }],
]);
const claim = (evidence: string, repo: string | null, path: string, startLine: number, endLine: number): CitationClaim => ({
  evidence,
  repo,
  path,
  startLine,
  endLine,
});

describe("checkCitation", () => {
  const cases: [string, CitationClaim, string | null][] = [
    ["the whole item", claim("E1", "hono", "src/router.ts", 10, 30), null],
    ["inside the item", claim("E1", "hono", "src/router.ts", 12, 14), null],
    ["one line at the first line", claim("E2", "hono", "src/context.ts", 100, 100), null],
    ["one line at the last line", claim("E2", "hono", "src/context.ts", 140, 140), null],
    ["an inline marker (no repo)", claim("E1", null, "src/router.ts", 20, 21), null],
    ["starts one line before the item", claim("E1", "hono", "src/router.ts", 9, 12), "outside_evidence"],
    ["ends one line after the item", claim("E1", "hono", "src/router.ts", 25, 31), "outside_evidence"],
    ["entirely after the item", claim("E2", "hono", "src/context.ts", 200, 210), "outside_evidence"],
    ["reversed range", claim("E1", "hono", "src/router.ts", 20, 15), "invalid_range"],
    ["unknown evidence label", claim("E7", "hono", "src/router.ts", 10, 12), "unknown_evidence"],
    ["E1's lines but another repo", claim("E1", "other", "src/router.ts", 10, 12), "repo_mismatch"],
    ["the same path in another repo's item, named by this repo's label", claim("E3", "hono", "src/router.ts", 5, 6), "repo_mismatch"],
    ["an adjacent file (same folder)", claim("E1", "hono", "src/router.test.ts", 10, 12), "path_mismatch"],
    ["a file that is not evidence at all", claim("E1", "hono", "/etc/passwd", 1, 1), "path_mismatch"],
    ["a path differing in case", claim("E1", "hono", "src/Router.ts", 10, 12), "path_mismatch"],
  ];
  for (const [name, c, reason] of cases) {
    it(`${reason ?? "verified"}: ${name}`, () => {
      const r = checkCitation(c, EVIDENCE, SAME);
      if (reason === null) expect(r).toEqual({ ok: true });
      else expect(r).toMatchObject({ ok: false, reason });
    });
  }

  it("snapshot_changed when the repo's active snapshot moved after the evidence was read", () => {
    const moved = new Map([["hono", { atEvidence: "c1", now: "c2" }]]);
    expect(checkCitation(claim("E1", "hono", "src/router.ts", 10, 12), EVIDENCE, moved)).toMatchObject({ ok: false, reason: "snapshot_changed" });
    const deleted = new Map([["hono", { atEvidence: "c1", now: null }]]);
    expect(checkCitation(claim("E1", "hono", "src/router.ts", 10, 12), EVIDENCE, deleted)).toMatchObject({ ok: false, reason: "snapshot_changed" });
  });
});

describe("verifyAnswer", () => {
  it("keeps verified markers, removes the others from the text and lists them once each", () => {
    const answer = "Routes match in order [E1 src/router.ts:12-14]. Root is [E1 /etc/passwd:1], see also [E9 src/x.ts:1] and [E2 src/context.ts:150-160].";
    const listed = [
      { evidence: "E1", repo: "hono", path: "src/router.ts", startLine: 12, endLine: 14 },
      { evidence: "E1", repo: "hono", path: "/etc/passwd", startLine: 1, endLine: 1 },
    ];
    const v = verifyAnswer(answer, listed, EVIDENCE, SAME);
    expect(v.answer).toBe("Routes match in order [E1 src/router.ts:12-14]. Root is, see also and.");
    expect(v.citations).toEqual([{ evidence: "E1", repo: "hono", path: "src/router.ts", startLine: 12, endLine: 14, verified: true }]);
    expect(v.rejected.map((r) => [r.evidence, r.path, r.reason])).toEqual([
      ["E1", "/etc/passwd", "path_mismatch"],
      ["E9", "src/x.ts", "unknown_evidence"],
      ["E2", "src/context.ts", "outside_evidence"],
    ]);
  });

  it("verifies a marker the model forgot to list, and takes the repo from the evidence", () => {
    const v = verifyAnswer("See [E3 src/router.ts:2-3].", [], EVIDENCE, SAME);
    expect(v.citations).toEqual([{ evidence: "E3", repo: "other", path: "src/router.ts", startLine: 2, endLine: 3, verified: true }]);
  });

  it("an answer with no valid citation verifies nothing", () => {
    const v = verifyAnswer(
      "It is [E1 src/router.ts:1-5].",
      [{ evidence: "E1", repo: "hono", path: "src/router.ts", startLine: 1, endLine: 5 }],
      EVIDENCE,
      SAME,
    );
    expect(v.citations).toEqual([]);
    expect(v.answer).toBe("It is.");
    expect(v.rejected).toHaveLength(1);
  });
});
