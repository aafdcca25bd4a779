/**
 * The confidence gate's channel-agreement rule over REST inside workerd: a first result whose
 * symbol the question writes as code is named by the question, like an anchor, so a vector
 * channel that ranks it nowhere does not make the answer `low` (held-out gate set, fmt's
 * `for_each_codepoint`: docs/evaluation.md "Fourth round").
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { chunk, indexFixture } from "./search-fixture";

const search = async (q: string) => {
  const res = await api(`/api/search?${new URLSearchParams({ q, repos: "gn-code,gn-near", k: "5" })}`);
  expect(res.status).toBe(200);
  return (await res.json()) as any;
};

beforeAll(async () => {
  // The definition, not embedded: only the lexical channels can find it.
  await indexFixture(
    "gn-code",
    "c1",
    [
      {
        path: "include/fmt/format.h",
        language: "cpp",
        chunks: [
          chunk(
            "function",
            10,
            "template <typename F> void for_each_codepoint(string_view s, F f) {\n  // decode blocks of four bytes; the tail shorter than a block is copied into a padded buffer\n  auto decode = [f](const char* buf_ptr, const char* ptr) { return f(ptr, buf_ptr); };\n}",
            "for_each_codepoint",
          ),
        ],
      },
    ],
    { embed: false },
  );
  // Chunks the vector channel finds (words sharing the question's trigrams: "cocktail", "notepad"),
  // which the lexical channels do not.
  await indexFixture("gn-near", "n1", [
    { path: "src/menu.ts", chunks: [chunk("window", 1, "cocktail notepad unblocked")] },
    { path: "src/bakery.ts", chunks: [chunk("window", 1, "launchpad cocktails unblockable")] },
  ]);
});

describe("a question that names a definition", () => {
  it("is high when that definition leads, though no first result is found by both channels", async () => {
    const body = await search("how does for_each_codepoint decode the tail shorter than a block");
    expect(body.results[0].symbol).toBe("for_each_codepoint");
    expect(body.results[0].ranks.vector).toBeUndefined();
    expect(body.results.slice(0, 3).some((r: any) => r.ranks.vector !== undefined && r.ranks.bm25 === undefined)).toBe(true);
    expect(body.confidence.signals.channelAgreement).toBeNull();
    expect(body.confidence.level).toBe("high");
  });

  it("is low when the question does not name it: the same words, found apart", async () => {
    const body = await search("how is the tail shorter than a block copied into a padded buffer");
    expect(body.confidence.signals.channelAgreement).toBeNull();
    expect(body.confidence.level).toBe("low");
    expect(body.confidence.reason).toMatch(/^The channels disagree/);
  });
});
