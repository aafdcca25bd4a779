import { describe, expect, it } from "vitest";
import { compoundNames, foreignOnlyTokens, withoutNames } from "./foreign-names";

const REPORT = `Unroll the iterable for all/any calls
    def test_all_even():
        even_stevens = list(range(1,100,2))
>       assert all(is_even(number) for number in even_stevens)
E        +  where False = all(<generator object at 0x101f82ed0>)
test_all_any.py:7: AssertionError`;

describe("compoundNames", () => {
  it("lists each compound identifier once with its whole form; single words are not compounds", () => {
    expect([...compoundNames(REPORT)]).toEqual([
      ["test_all_even", "testalleven"],
      ["even_stevens", "evenstevens"],
      ["is_even", "iseven"],
      ["0x101f82ed0", "0x101f82ed0"],
      ["test_all_any", "testallany"],
      ["AssertionError", "assertionerror"],
    ]);
  });
});

describe("foreignOnlyTokens", () => {
  it("gives the words that occur only inside foreign names", () => {
    const foreign = new Set(["test_all_even", "even_stevens", "is_even", "test_all_any"]);
    // "all" and "number" also stand alone; "test", "even", "stevens", "is" do not.
    expect([...foreignOnlyTokens(REPORT, foreign)].sort()).toEqual(["even", "evenstevens", "is", "iseven", "stevens", "test", "testallany", "testalleven"]);
  });
});

describe("withoutNames", () => {
  it("blanks whole occurrences only", () => {
    expect(withoutNames("is_even(x) and is_even_more(y)", new Set(["is_even"]))).toBe(" (x) and is_even_more(y)");
    expect(withoutNames("unchanged", new Set())).toBe("unchanged");
  });
});
