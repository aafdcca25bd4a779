import { describe, expect, it } from "vitest";
import { PAGE_SIZE, stateFromParams, stateToApiParams, stateToParams } from "./query-state";

describe("the search URL carries the whole query", () => {
  it("round-trips every field", () => {
    const s = {
      q: "parse config",
      repo: "hono",
      ref: "refs/heads/next",
      language: "typescript",
      path: "src/**/*.ts",
      includeTests: true,
      mode: "bm25" as const,
      k: 40,
    };
    expect(stateFromParams(stateToParams(s))).toEqual(s);
    expect(stateToParams(s).toString()).toBe(
      "q=parse+config&repo=hono&ref=refs%2Fheads%2Fnext&language=typescript&path=src%2F**%2F*.ts&tests=1&mode=bm25&k=40",
    );
  });

  it("leaves defaults out and reads junk as defaults", () => {
    expect(stateToParams(stateFromParams(new URLSearchParams("q=x&mode=nope&k=-3"))).toString()).toBe("q=x");
    expect(stateFromParams(new URLSearchParams("q=x&k=500")).k).toBe(50);
    expect(stateFromParams(new URLSearchParams("q=x")).k).toBe(PAGE_SIZE);
    // A ref belongs to a repo: without one it is dropped, not searched in every repo.
    expect(stateFromParams(new URLSearchParams("q=x&ref=next")).ref).toBe("");
  });

  it("maps to the API's parameter names", () => {
    const p = stateToApiParams({ q: "x", repo: "r", ref: "v2", language: "go", path: "cmd/", includeTests: true, mode: "symbol", k: 20 }, { explain: true });
    expect(Object.fromEntries(p)).toEqual({
      q: "x",
      k: "20",
      repo: "r",
      ref: "v2",
      language: "go",
      path_prefix: "cmd/",
      include_tests: "true",
      mode: "symbol",
      explain: "true",
    });
  });
});
