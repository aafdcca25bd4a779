import { describe, expect, it } from "vitest";
import { hasEntry, isEnglishWord, LISTS } from "./english-words";

describe("english words", () => {
  it("holds SCOWL's lists as sorted JSON texts without escapes, as the binary search needs", () => {
    expect(LISTS).toHaveLength(25);
    let words = 0;
    for (const text of LISTS) {
      const list = JSON.parse(text) as string[];
      expect(text).not.toMatch(/\\/);
      for (let i = 1; i < list.length; i++) expect(list[i - 1] < list[i]).toBe(true);
      words += list.length;
    }
    expect(words).toBeGreaterThan(60_000);
  });

  it("finds every entry of every list and nothing between them", () => {
    for (const text of LISTS) {
      const list = JSON.parse(text) as string[];
      for (const w of list) expect(hasEntry(text, w)).toBe(true);
      // Words that sort between, before and after the entries: each with a letter added or cut.
      for (const w of list.slice(0, 400)) {
        for (const near of [`${w}q`, w.slice(0, -1), `${w}zz`, `0${w}`]) expect(hasEntry(text, near)).toBe(list.includes(near));
      }
    }
    expect(hasEntry("[]", "a")).toBe(false);
    expect(hasEntry('["b"]', "a")).toBe(false);
    expect(hasEntry('["b"]', "b")).toBe(true);
    expect(hasEntry('["b"]', "c")).toBe(false);
  });

  it("tells English words, British and inflected ones too, from names", () => {
    for (const w of ["backed", "postpone", "randomised", "colour", "serialising", "a"]) expect(isEnglishWord(w)).toBe(true);
    for (const w of ["redis", "pydantic", "graphql", "Backed", "abbé", "back ed", ""]) expect(isEnglishWord(w)).toBe(false);
    // A common prefix before an English word of four letters or more: "re" + "dis" is not one.
    for (const w of ["precompilation", "rethrow", "preflight", "subcommand"]) expect(isEnglishWord(w)).toBe(true);
    expect(isEnglishWord("refoo")).toBe(false);
  });
});
