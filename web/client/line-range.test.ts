import { describe, expect, it } from "vitest";
import { clampLineRange, formatLineRange, parseLineRange } from "./line-range";

describe("line ranges in fragments", () => {
  it.each([
    ["#L146-L171", { start: 146, end: 171 }],
    ["#L7", { start: 7, end: 7 }],
    ["L3-9", { start: 3, end: 9 }],
    ["#L20-L10", { start: 10, end: 20 }],
  ])("parses %s", (hash, want) => expect(parseLineRange(hash)).toEqual(want));

  it.each(["", "#", "#L0", "#L", "#main", "#L1-L2-L3", "#l5"])("refuses %j", (hash) => expect(parseLineRange(hash)).toBeNull());

  it("formats what source links write (worker/auth/source-links.ts)", () => {
    expect(formatLineRange({ start: 3, end: 3 })).toBe("#L3");
    expect(formatLineRange({ start: 146, end: 171 })).toBe("#L146-L171");
  });

  it("clamps to the file", () => {
    expect(clampLineRange({ start: 5, end: 99 }, 12)).toEqual({ start: 5, end: 12 });
    expect(clampLineRange({ start: 13, end: 20 }, 12)).toBeNull();
  });
});
