/** `forEachIdentRun` finds exactly the matches of the tokenizer's former `/[\p{L}\p{N}_$]+/gu` (the storage contract). */
import { describe, expect, it } from "vitest";
import { forEachIdentRun } from "./ident-runs";

const REFERENCE = /[\p{L}\p{N}_$]+/gu;

function runs(text: string): [string, boolean][] {
  const out: [string, boolean][] = [];
  forEachIdentRun(text, (w, lower) => out.push([w, lower]));
  return out;
}

function reference(text: string): [string, boolean][] {
  return [...text.matchAll(REFERENCE)].map((m) => [m[0], /^[a-z]+$/.test(m[0])]);
}

/** Code points the class treats differently: ASCII, Latin-1, combining marks, other scripts' letters and digits, CJK, astral letters and emoji, lone surrogates. */
const POOL = [
  ..."abcxyzABCXYZ0189_$ \t\n.-/:;(){}[]\"'`@#%^&*+=<>?!|~,",
  ..."éÉßøµªº¹²½×÷",
  "\u0301", // combining acute (\p{Mn}: not in the class)
  "\u0660", // Arabic-Indic zero (\p{Nd})
  "\u2167", // Roman numeral eight (\p{Nl})
  "\u00A0", // no-break space
  ..."αΩжЖ用户登录ユーザー사용자",
  "\u{1D49C}", // mathematical script A (\p{L}, astral)
  "\u{1F600}", // emoji (astral, not in the class)
  "\u{1D7CE}", // mathematical bold digit zero (\p{Nd}, astral)
  "\uD800", // lone high surrogate
  "\uDC00", // lone low surrogate
];

describe("forEachIdentRun", () => {
  it("matches the regex on crafted text", () => {
    for (const text of [
      "",
      "getUserById(x_1, $el)",
      "HTTP2Server isProxyEventV2",
      "café naïve e\u0301t\u0301é",
      "用户登录 \u{1D49C}bc \u{1F600}x",
      "a\uD800b\uDC00c\uD800",
      "\u{1D7CE}9_",
    ]) {
      expect(runs(text)).toEqual(reference(text));
    }
  });

  it("matches the regex on 2,000 random strings over tricky code points", () => {
    let seed = 42;
    const rand = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let k = 0; k < 2000; k++) {
      let text = "";
      for (let i = rand(60); i > 0; i--) text += POOL[rand(POOL.length)];
      expect(runs(text)).toEqual(reference(text));
    }
  });
});
