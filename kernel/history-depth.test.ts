import { describe, expect, it } from "vitest";
import { DEFAULT_HISTORY_COMMITS, describeDepth, MAX_HISTORY_COMMITS, parseHistoryDepth } from "./history-depth";

describe("parseHistoryDepth", () => {
  it.each([
    [undefined, { commits: DEFAULT_HISTORY_COMMITS }],
    ["", { commits: DEFAULT_HISTORY_COMMITS }],
    ["0", null],
    ["2000", { commits: 2000 }],
    ["365d", { days: 365 }],
    ["999999", { commits: MAX_HISTORY_COMMITS }],
  ])("%s -> %j", (value, expected) => {
    expect(parseHistoryDepth(value)).toEqual(expected);
  });

  it.each(["-1", "1.5", "1y", "d", "01"])("refuses %s naming the variable", (value) => {
    expect(() => parseHistoryDepth(value)).toThrow(/HISTORY_DEPTH must be/);
  });

  it("writes a depth back as configured", () => {
    expect(describeDepth({ days: 30 })).toBe("30d");
    expect(describeDepth({ commits: 500 })).toBe("500");
  });
});
