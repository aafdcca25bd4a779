/** The matcher's candidate-line path (indexOf on the required literals, one re2js call over the lines) against line-by-line semantics. */
import { describe, expect, it } from "vitest";
import { compilePattern } from "./matcher";

const lines = (pattern: string, text: string) =>
  compilePattern({ pattern, regex: true, caseSensitive: true, wholeWord: false })
    .matchLines(text, Number.POSITIVE_INFINITY)
    .map((m) => [m.line, m.ranges]);

describe("compilePattern (regex with required literals)", () => {
  it("reports only lines holding the literal, with line numbers and ranges as line-by-line matching gives", () => {
    expect(lines("c\\.(req|res)\\.[a-z]+", "const a = 1;\nc.req.json()\n\nx; c.res.end(); c.req.url\r\n")).toEqual([
      [2, [[0, 10]]],
      [
        4,
        [
          [3, 12],
          [16, 25],
        ],
      ],
    ]);
  });
  it("never lets a match run from one candidate line into the next", () => {
    // Joined, "xa\nba" would match a\s*b across the newline; each line alone does not.
    expect(lines("a\\s*b", "xa\nba\n")).toEqual([]);
    expect(lines("a\\s*b", "a  b\nxab\nzzz\n")).toEqual([
      [1, [[0, 4]]],
      [2, [[1, 3]]],
    ]);
  });
  it("keeps ^ and $ at line boundaries", () => {
    expect(lines("^def [a-z]+:$", "def f:\n  def g:\ndef h: \ndef ok:")).toEqual([
      [1, [[0, 6]]],
      [4, [[0, 7]]],
    ]);
  });
});

describe("compilePattern (regex syntax errors)", () => {
  const message = (pattern: string, caseSensitive = true) => {
    try {
      compilePattern({ pattern, regex: true, caseSensitive, wholeWord: false });
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error(`${pattern} compiled`);
  };

  it("quotes only what the user typed, never the flags the matcher adds", () => {
    for (const caseSensitive of [true, false]) {
      const open = message("foo(", caseSensitive);
      expect(open).not.toContain("(?m)");
      expect(open).not.toContain("(?i)");
      expect(open).toMatch(/^pattern: missing closing \) in "foo\("/);
      expect(message("a)", caseSensitive)).toMatch(/^pattern: unexpected \) in "a\)"/);
    }
    // A backslash is quoted as typed, not JSON-escaped.
    expect(message("(a)\\1")).toMatch(/^pattern: invalid escape sequence at position 3 \("\\1"\)/);
  });

  it("says how to search literally in words every interface understands", () => {
    const m = message("foo(");
    expect(m).not.toContain("pass regex: false");
    expect(m).toContain("escape it with a backslash");
    expect(m).toContain('"regex": false');
    expect(m).toContain("without -E");
  });
});
