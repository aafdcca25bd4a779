import { describe, expect, it } from "vitest";
import { fileTermsRows } from "./file-terms";

describe("fileTermsRows", () => {
  it("splits the counts into JSON objects under the size, which together hold every term once", () => {
    const counts = new Map(Array.from({ length: 1_000 }, (_, i): [string, number] => [`term${i}`, (i % 7) + 1]));
    counts.set('quote"and\\slash', 2);
    counts.set("用户", 3);
    const rows = fileTermsRows(counts, 500);
    expect(rows.length).toBeGreaterThan(20);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(500);
    const merged = rows.map((r) => JSON.parse(r) as Record<string, number>);
    expect(merged.reduce((n, o) => n + Object.keys(o).length, 0)).toBe(counts.size);
    expect(Object.assign({}, ...merged)).toEqual(Object.fromEntries(counts));
  });

  it("gives one row under the default size, none for no terms, and an entry longer than the size a row of its own", () => {
    expect(fileTermsRows(new Map([["a", 1]]))).toEqual(['{"a":1}']);
    expect(fileTermsRows(new Map())).toEqual([]);
    const long = "x".repeat(50);
    expect(
      fileTermsRows(
        new Map([
          ["a", 1],
          [long, 2],
          ["b", 3],
        ]),
        20,
      ),
    ).toEqual(['{"a":1}', `{"${long}":2}`, '{"b":3}']);
  });
});
