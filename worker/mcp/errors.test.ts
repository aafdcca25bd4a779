/**
 * The next step an MCP error result suggests (worker/mcp/errors.ts) fits what went wrong: an
 * unknown ref and a history walk past its budget are the caller's to fix, not the repo source's.
 */
import { describe, expect, it } from "vitest";
import { CodeSearchError } from "../../kernel/errors";
import { errorAdvice, toolErrorResult } from "./errors";

describe("errorAdvice", () => {
  it("tells a caller who named an unknown ref to omit it or pass a tracked one", () => {
    const result = toolErrorResult("blame", new CodeSearchError("ref_not_found", 'Repo "r" does not track ref "nope".'));
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    expect(text).toContain("Next: Omit ref to read the default branch, or pass one of the tracked refs");
    expect(text).not.toContain("needs fixing by whoever registered it");
  });

  it("tells a caller whose history or blame walk ran out of time to ask for fewer lines", () => {
    expect(errorAdvice("payload_too_large")).toEqual({ retryable: false, next: "Ask for less: a shorter line range (start, end) or a smaller limit." });
  });

  it("keeps the repo-source advice for an unreachable source", () => {
    expect(errorAdvice("source_unreachable").next).toContain("needs fixing by whoever registered it");
  });
});
