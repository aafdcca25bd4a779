import { beforeAll, describe, expect, it } from "vitest";
import { highlightLines, loadLanguages } from "./highlight";
import { markableTerms, termRanges } from "./terms";

const text = (line: { text: string }[]) => line.map((p) => p.text).join("");

describe("highlightLines", () => {
  beforeAll(() => loadLanguages(["typescript", "javascript"]));
  const code = ["/** Parses a widget. */", "export function parseWidgetConfig(text: string) {", '  return "<b>";', "}"].join("\n");

  it("keeps every line and every character, in order", () => {
    const lines = highlightLines(code, "typescript");
    expect(lines.map(text)).toEqual(code.split("\n"));
  });

  it("styles keywords, titles, strings and multi-line-safe comments with highlight.js classes", () => {
    const lines = highlightLines(code, "typescript");
    const cls = (line: number, t: string) => lines[line].find((p) => p.text.includes(t))?.cls ?? "";
    expect(cls(0, "Parses")).toContain("hljs-comment");
    expect(cls(1, "export")).toContain("hljs-keyword");
    expect(cls(1, "parseWidgetConfig")).toContain("hljs-title");
    expect(cls(1, "parseWidgetConfig")).toContain("function_");
    expect(cls(2, "<b>")).toContain("hljs-string");
  });

  it("a comment spanning lines keeps its class on each line", () => {
    const lines = highlightLines("/*\n * a\n */\nx = 1", "javascript");
    expect(lines[1][0].cls).toContain("hljs-comment");
  });

  it("marks the query's terms, case-insensitively, inside identifiers", () => {
    const lines = highlightLines(code, "typescript", markableTerms(["widget", "config", "x"]));
    const marked = lines[1].filter((p) => p.mark).map((p) => p.text);
    expect(marked.join("|")).toBe("WidgetConfig");
    expect(lines[0].filter((p) => p.mark).map((p) => p.text)).toEqual(["widget"]);
  });

  it("leaves unknown languages plain but still marked", () => {
    const lines = highlightLines("some words here", "text", ["words"]);
    expect(lines[0]).toEqual([
      { text: "some ", cls: "", mark: false },
      { text: "words", cls: "", mark: true },
      { text: " here", cls: "", mark: false },
    ]);
  });
});

describe("termRanges", () => {
  it("merges overlapping and adjacent hits", () => {
    expect(termRanges("getUserById", markableTerms(["user", "by", "id", "userby"]))).toEqual([[3, 11]]);
  });
  it("drops one-letter terms", () => {
    expect(markableTerms(["a", "Ab", "ab"])).toEqual(["ab"]);
  });
});

describe("loadLanguages", () => {
  it("shows a language plain until it is loaded, then highlighted; unknown languages stay plain", async () => {
    expect(highlightLines("def f(): pass", "python")[0].every((p) => p.cls === "")).toBe(true);
    await loadLanguages(["python", "no-such-language", undefined]);
    expect(highlightLines("def f(): pass", "python")[0].some((p) => p.cls.includes("hljs-keyword"))).toBe(true);
    expect(highlightLines("def f(): pass", "no-such-language")[0]).toEqual([{ text: "def f(): pass", cls: "", mark: false }]);
  });
});
