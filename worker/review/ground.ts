/**
 * @module worker/review/ground
 *
 * Grounding of submitted findings: a finding is presented only when its file and line are
 * real. Under review, a diff file's line must be on the new side of one of its hunks (an added
 * or context line); a whole file's line must exist in the indexed file. A file outside the
 * review must be in the repo's index, with the line inside it. Everything else goes to
 * `rejected` with the reason. Pure: the caller looks up indexed line counts beforehand.
 */
import type { RejectedFinding, ReviewFinding } from "../services/review-schema";
import type { DiffFile } from "./diff";

/** What was under review. */
export type ReviewScope = { kind: "diff"; files: DiffFile[] } | { kind: "paths"; files: { path: string; totalLines: number }[] };

/** Line counts of indexed files outside the review that findings name; null = not in the index. */
export type IndexedLineCounts = ReadonlyMap<string, number | null>;

/** Files findings name that are not under review: the caller looks up their indexed line counts. */
export function filesOutsideScope(findings: readonly ReviewFinding[], scope: ReviewScope): string[] {
  const inScope = new Set(scope.files.map((f) => f.path));
  return [...new Set(findings.map((f) => f.file).filter((p) => !inScope.has(p)))];
}

/** Splits `findings` into grounded ones and rejected ones with reasons (see module note). */
export function groundFindings(
  findings: readonly ReviewFinding[],
  scope: ReviewScope,
  indexed: IndexedLineCounts,
): { accepted: ReviewFinding[]; rejected: RejectedFinding[] } {
  const accepted: ReviewFinding[] = [];
  const rejected: RejectedFinding[] = [];
  const seen = new Set<string>();
  const reject = (f: ReviewFinding, reason: RejectedFinding["reason"], detail: string) => rejected.push({ ...f, reason, detail });
  for (const f of findings) {
    const key = `${f.file}\n${f.line}\n${f.issue}`;
    if (seen.has(key)) {
      reject(f, "duplicate", "The same issue at the same line was submitted before.");
      continue;
    }
    seen.add(key);
    const problem = checkFinding(f, scope, indexed);
    if (problem) reject(f, problem.reason, problem.detail);
    else accepted.push(f);
  }
  return { accepted, rejected };
}

function checkFinding(f: ReviewFinding, scope: ReviewScope, indexed: IndexedLineCounts): { reason: RejectedFinding["reason"]; detail: string } | null {
  if (scope.kind === "diff") {
    const file = scope.files.find((d) => d.path === f.file);
    if (file) {
      if (file.newSideLines.has(f.line)) return null;
      if (file.status === "deleted") return { reason: "line_not_in_diff", detail: `${f.file} is deleted by the diff; it has no new side.` };
      return {
        reason: "line_not_in_diff",
        detail: `Line ${f.line} of ${f.file} is not on the new side of any hunk (hunks cover ${describeLines(file.newSideLines)}).`,
      };
    }
  } else {
    const file = scope.files.find((p) => p.path === f.file);
    if (file) return lineInFile(f, file.totalLines);
  }
  const total = indexed.get(f.file);
  if (total === undefined || total === null)
    return { reason: "file_not_reviewed_or_indexed", detail: `${f.file} is neither under review nor an indexed file of the repo.` };
  return lineInFile(f, total);
}

function lineInFile(f: ReviewFinding, totalLines: number): { reason: RejectedFinding["reason"]; detail: string } | null {
  if (f.line <= totalLines) return null;
  return { reason: "line_out_of_range", detail: `${f.file} has ${totalLines} lines in the index; line ${f.line} does not exist.` };
}

/** "10-13, 41-42": the line set as ranges. */
export function describeLines(lines: ReadonlySet<number>): string {
  const sorted = [...lines].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    ranges.push(sorted[i] === sorted[j] ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return ranges.join(", ") || "no lines";
}
