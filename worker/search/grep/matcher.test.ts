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
