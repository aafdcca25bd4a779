import { describe, expect, it } from "vitest";
import { textFeatures } from "./features";
import { fnv1a, hashEmbed, l2Normalise } from "./local";

/** The local embedding as written before feature numbers: a Map of feature names per text, each hashed. */
function reference(text: string, kind: "document" | "query", dimensions: number): Float32Array {
  const v = new Float32Array(dimensions);
  for (const [feature, weight] of textFeatures(text, kind)) {
    const slot = (fnv1a(feature) % dimensions) * 2 + (fnv1a(feature, 0x9e3779b9) & 1 ? 0 : 1);
    v[slot >> 1] += (slot & 1 ? -1 : 1) * weight;
  }
  return l2Normalise(v);
}

describe("hashEmbed", () => {
  it("gives bit for bit the vectors of summing a Map of feature names, across texts, repeats and the table starting over", () => {
    const texts = [
      "src/router.ts Router addRoute\nexport class Router { addRoute(method: string, path: string) { this.routes.push([method, path]) } }",
      "parse the cookie header and verify the jwt signature",
      "routes routing router route ROUTER_KEY getRouteById getRouteById getRouteById",
      "",
      "日本語 のテキスト parseCookie Ünïcödé 12345 x y",
    ];
    // Enough distinct identifiers to pass the table's bounds (features and terms) several times.
    for (let i = 0; i < 3000; i++)
      texts.push(`file${i}.py helper_${i}\ndef helper_${i}(value_${i}, other${i * 7}): return compute_${i % 97}(value_${i}) + unique${i}token${i}`);
    let compared = 0;
    const differ: string[] = [];
    for (const dims of [384, 97]) {
      for (const text of [...texts, ...texts.slice(0, 50)]) {
        for (const kind of ["document", "query"] as const) {
          const got = new Uint32Array(hashEmbed(text, kind, dims).buffer);
          const want = new Uint32Array(reference(text, kind, dims).buffer);
          compared++;
          if (got.length !== want.length || got.some((x, i) => x !== want[i])) differ.push(`${dims} ${kind} ${text.slice(0, 40)}`);
        }
      }
    }
    expect(compared).toBe(2 * 2 * 3055);
    expect(differ).toEqual([]);
  });
});
