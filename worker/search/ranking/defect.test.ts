import { describe, expect, it } from "vitest";
import { readQuery } from "../readers";
import { defectStage, isNonCode, namesDefect } from "./defect";
import type { Candidate, RankingContext } from "./stage";
import { DEFECT_NON_CODE_PRIOR } from "./weights";

const chunk = (chunkId: string, path: string, language: string, score: number) =>
  ({
    chunkId,
    score,
    fused: score,
    ranks: {},
    row: {} as Candidate["row"],
    repo: "r",
    path,
    kind: "function",
    symbol: null,
    container: null,
    content: "",
    language,
  }) as Candidate;
const ctxOf = (text: string) => ({ plan: readQuery(text) }) as unknown as RankingContext;

describe("namesDefect", () => {
  it("reads a fix, a bug, a crash or a regression, not a question about error handling", () => {
    for (const q of [
      "fix(fetch): fix stream handling in Safari",
      "post async regression with empty body",
      "ReadableStream.locked crashes application",
      "the redirect is wrong",
    ]) {
      expect(namesDefect(q)).toBe(true);
    }
    for (const q of [
      "where are errors logged",
      "how does the router match a path",
      "which exception does the client raise on timeout",
      "ProxyFix middleware",
    ]) {
      expect(namesDefect(q)).toBe(false);
    }
  });
});

describe("isNonCode", () => {
  it("counts data, tooling and prose files, prose only when the plan says so", () => {
    expect(isNonCode({ path: "package.json", language: "json" }, true)).toBe(true);
    expect(isNonCode({ path: ".github/workflows/ci.yml", language: "yaml" }, false)).toBe(true);
    expect(isNonCode({ path: "karma.conf.cjs", language: "javascript" }, true)).toBe(true);
    expect(isNonCode({ path: "README.md", language: "markdown" }, true)).toBe(true);
    expect(isNonCode({ path: "README.md", language: "markdown" }, false)).toBe(false);
    expect(isNonCode({ path: "lib/adapters/fetch.js", language: "javascript" }, true)).toBe(false);
    expect(isNonCode({ path: "src/config.ts", language: "typescript" }, true)).toBe(false);
  });
});

describe("defectStage", () => {
  const head = [
    chunk("pkg", "package.json", "json", 1),
    chunk("readme", "README.md", "markdown", 0.9),
    chunk("code", "lib/adapters/fetch.js", "javascript", 0.8),
  ];

  it("demotes the non-code files of a defect query below the code", () => {
    const ctx = ctxOf("fix(fetch): fix stream handling in Safari");
    expect(defectStage.applies(ctx.plan)).toBe(true);
    const out = defectStage.run(head, ctx);
    expect(out.map((c) => c.chunkId)).toEqual(["code", "pkg", "readme"]);
    expect(out[1].score).toBeCloseTo(DEFECT_NON_CODE_PRIOR);
  });

  it("does not apply to a question without a defect", () => {
    expect(defectStage.applies(ctxOf("where is the fetch adapter's stream handling").plan)).toBe(false);
  });
});
