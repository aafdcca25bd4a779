import { describe, expect, it } from "vitest";
import { historyUrl, referencesUrl, symbolsUrl } from "./source-queries";

describe("the source view's API URLs", () => {
  it("ask about the ref the page shows", () => {
    expect(historyUrl("click", "src/ü.py", { start: 121, end: 125 }, "refs/tags/8.4.2")).toBe(
      "/api/repos/click/history?path=src%2F%C3%BC.py&start=121&end=125&ref=refs%2Ftags%2F8.4.2",
    );
    expect(symbolsUrl("click", "ParamType", "refs/heads/stable")).toBe("/api/repos/click/symbols?name=ParamType&limit=20&ref=refs%2Fheads%2Fstable");
    expect(referencesUrl("a b", "convert", "refs/heads/stable")).toBe("/api/repos/a%20b/references?symbol=convert&limit=30&ref=refs%2Fheads%2Fstable");
  });

  it("name no ref on a page of the default snapshot", () => {
    expect(historyUrl("click", "a.py", { start: 1, end: 2 }, "")).toBe("/api/repos/click/history?path=a.py&start=1&end=2");
    expect(symbolsUrl("click", "x", "")).not.toContain("ref=");
    expect(referencesUrl("click", "x", "")).not.toContain("ref=");
  });
});
