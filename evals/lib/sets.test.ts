import { describe, expect, it } from "vitest";
import { parseRetrievalSet, planSetRuns } from "./sets.ts";

const question = (id: string, category: string) => ({ id, category, question: `q ${id}`, gold: [{ file: "a.go", symbol: "A", startLine: 1, endLine: 2 }] });
const gin = parseRetrievalSet("gin", {
  repo: "gin-gonic/gin",
  commit: "dcaa4296d111981ffb31ac3eba90bb63e1eb5ab9",
  language: "Go",
  questions: [question("g1", "lexical"), question("g11", "report")],
});
const gson = parseRetrievalSet("gson", { repo: "google/gson", commit: "9835b6f90192f79cdf5300c528fc6212455fb6c1", questions: [question("j1", "semantic")] });

describe("polyglot sets", () => {
  it("parses the report category and the language", () => {
    expect(gin.questions.map((q) => q.category)).toEqual(["lexical", "report"]);
    expect(gin.language).toBe("Go");
    expect(gson.language).toBeUndefined();
    expect(() => parseRetrievalSet("s", { questions: [{ id: "r1", category: "report", question: "x", gold: [] }] })).toThrow(/r1: only unanswerable/);
  });

  it("plans one run per set: repo id and exported tree", () => {
    expect(planSetRuns([gin, gson], "/tmp/cc-corpora/").map((r) => [r.set.name, r.repoId, r.corpus])).toEqual([
      ["gin", "eval-poly-gin", "/tmp/cc-corpora/gin-dcaa429"],
      ["gson", "eval-poly-gson", "/tmp/cc-corpora/gson-9835b6f"],
    ]);
  });

  it("picks sets by name or owner/name, in set order, and names an unknown one", () => {
    expect(planSetRuns([gin, gson], "/c", ["google/gson", "gin"]).map((r) => r.set.name)).toEqual(["gin", "gson"]);
    expect(planSetRuns([gin, gson], "/c", ["gson"]).map((r) => r.set.name)).toEqual(["gson"]);
    expect(() => planSetRuns([gin, gson], "/c", ["gin", "sinatra"])).toThrow(/no set named sinatra/);
  });

  it("requires a pinned commit", () => {
    const unpinned = parseRetrievalSet("x", { repo: "o/x", questions: [question("x1", "lexical")] });
    expect(() => planSetRuns([unpinned], "/c")).toThrow(/x: "commit" is required/);
  });
});
