/** Tokens kept by the embedding and taken by the BM25 row are those of a fresh `tokenize`. */
import { describe, expect, it } from "vitest";
import { takeTokens, tokenizeKept } from "./token-stash";
import { tokenize } from "./tokenize";

describe("token stash", () => {
  it("hands the kept tokens to the one later take, then tokenizes afresh", () => {
    const text = "src/app.ts\nexport function getUserById(id: string) { return users.get(id); }";
    const kept = tokenizeKept(text);
    expect(kept).toEqual(tokenize(text));
    expect(takeTokens(text)).toBe(kept);
    const again = takeTokens(text);
    expect(again).not.toBe(kept);
    expect(again).toEqual(tokenize(text));
  });

  it("takes without a keep: the tokens of tokenize", () => {
    expect(takeTokens("HTTP2Server isProxyEventV2")).toEqual(tokenize("HTTP2Server isProxyEventV2"));
  });

  it("drops the oldest kept texts past its bound; their take still tokenizes correctly", () => {
    const big = (i: number) => `chunk${i} ` + "snake_case camelCase ".repeat(50_000);
    const first = tokenizeKept(big(0));
    for (let i = 1; i < 6; i++) tokenizeKept(big(i)); // 6 texts of ~1 M chars: past the bound
    const taken = takeTokens(big(0));
    expect(taken).not.toBe(first);
    expect(taken).toEqual(tokenize(big(0)));
    expect(takeTokens(big(5))).toEqual(tokenize(big(5)));
  });
});
