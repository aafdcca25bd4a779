import { describe, expect, it } from "vitest";
import {
  DEFAULT_HISTORY_BUDGET,
  DEFAULT_HISTORY_DAYS,
  describeDepth,
  halveDepth,
  historyBudgetFrom,
  MAX_HISTORY_COMMITS,
  parseHistoryDepth,
} from "./history-depth";

describe("parseHistoryDepth", () => {
  it.each([
    [undefined, { days: DEFAULT_HISTORY_DAYS }],
    ["", { days: DEFAULT_HISTORY_DAYS }],
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

  it("halves a depth down to one commit or day", () => {
    expect(halveDepth({ days: 365 })).toEqual({ days: 183 });
    expect(halveDepth({ commits: 3 })).toEqual({ commits: 2 });
    expect(halveDepth({ days: 1 })).toBeNull();
    expect(halveDepth({ commits: 1 })).toBeNull();
  });
});

describe("historyBudgetFrom", () => {
  it("keeps the default budget when HISTORY_PACK_MIB is unset, and sets only the pack bound otherwise", () => {
    expect(historyBudgetFrom(undefined)).toEqual(DEFAULT_HISTORY_BUDGET);
    expect(historyBudgetFrom("")).toEqual(DEFAULT_HISTORY_BUDGET);
    expect(historyBudgetFrom("16")).toEqual({ ...DEFAULT_HISTORY_BUDGET, packBytes: 16 * 1024 * 1024 });
  });

  it.each(["0", "-1", "1.5", "lots"])("refuses HISTORY_PACK_MIB=%s naming the variable", (value) => {
    expect(() => historyBudgetFrom(value)).toThrow(/HISTORY_PACK_MIB must be a positive integer/);
  });
});
