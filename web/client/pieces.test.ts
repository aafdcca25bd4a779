import { describe, expect, it } from "vitest";
import { highlightLines, loadLanguages } from "./highlight";
import { plainLines } from "./pieces";
import { markableTerms } from "./terms";

describe("plainLines", () => {
  const code = "export function parseWidgetConfig(text: string) {\n\n  return text;\n}";

  it("has one line per line of code, the same text, unstyled, with the terms marked", () => {
    const lines = plainLines(code, markableTerms(["widget"]));
    expect(lines.map((l) => l.map((p) => p.text).join(""))).toEqual(code.split("\n"));
    expect(lines.flat().every((p) => p.cls === "")).toBe(true);
    expect(lines[0].filter((p) => p.mark).map((p) => p.text)).toEqual(["Widget"]);
    expect(lines[1]).toEqual([]);
  });

  it("lines up with highlightLines: the same lines and text, so colours fill in without moving a line", async () => {
    await loadLanguages(["typescript"]);
    const terms = markableTerms(["text", "config"]);
    const plain = plainLines(code, terms);
    const styled = highlightLines(code, "typescript", terms);
    expect(styled.length).toBe(plain.length);
    styled.forEach((line, i) => expect(line.map((p) => p.text).join("")).toBe(plain[i].map((p) => p.text).join("")));
    expect(styled.flat().some((p) => p.cls.includes("hljs-keyword"))).toBe(true);
    const marked = (lines: typeof plain) =>
      lines.map((l) =>
        l
          .filter((p) => p.mark)
          .map((p) => p.text)
          .join("|"),
      );
    expect(marked(styled)).toEqual(marked(plain));
  });
});
