import { describe, expect, it } from "vitest";
import type { EmbeddingProvider } from "../store/contract";
import { LocalEmbeddingProvider } from "./local";
import { FakeAi } from "./workers-ai-fake";
import { WorkersAiEmbeddingProvider } from "./workers-ai";
import { parseRetryAfter } from "../../kernel/retry";

const DIMS = 96;
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const fast = { minTimeoutMs: 1, maxTimeoutMs: 2, sleep: async () => {} };

// One suite, run against every EmbeddingProvider implementation.
const providers: [string, () => EmbeddingProvider][] = [
  ["local", () => new LocalEmbeddingProvider(DIMS)],
  ["workers-ai (fake binding)", () => new WorkersAiEmbeddingProvider(new FakeAi(DIMS), "@cf/baai/bge-base-en-v1.5", DIMS, fast)],
];

describe.each(providers)("EmbeddingProvider contract: %s", (_name, make) => {
  it("returns one unit vector of `dimensions` per text, in order, deterministically", async () => {
    const p = make();
    const texts = ["function getUserById(id) { return db.users.find(id) }", "parse the cookie header", ""];
    const a = await p.embed(texts, "document");
    const b = await p.embed(texts, "document");
    expect(a).toHaveLength(3);
    for (const v of a.slice(0, 2)) {
      expect(v).toHaveLength(p.dimensions);
      expect(cosine(v, v)).toBeCloseTo(1, 4);
    }
    expect(a.map((v) => Array.from(v))).toEqual(b.map((v) => Array.from(v)));
  });

  it("embeds more texts than one backend call takes", async () => {
    const p = make();
    const texts = Array.from({ length: p.maxBatch + 7 }, (_, i) => `text number ${i}`);
    expect(await p.embed(texts, "document")).toHaveLength(texts.length);
  });

  it("places related code nearer than unrelated code", async () => {
    const p = make();
    const [doc, other] = await p.embed(
      ["export function parseCookie(header: string) { return header.split(';') }", "class SmartRouter { match(method, path) {} }"],
      "document",
    );
    const [q] = await p.embed(["parse cookie header"], "query");
    expect(cosine(q, doc)).toBeGreaterThan(cosine(q, other));
  });
});

describe("LocalEmbeddingProvider", () => {
  it("conflates inflections and identifier parts", async () => {
    const p = new LocalEmbeddingProvider(384);
    const [router, routing, cookie] = await p.embed(["SmartRouter routes", "routing strategies", "cookie jar"], "document");
    expect(cosine(router, routing)).toBeGreaterThan(cosine(router, cookie));
  });
});

describe("WorkersAiEmbeddingProvider", () => {
  it("batches at the model's limit of 100 texts per call", async () => {
    const ai = new FakeAi(DIMS);
    const p = new WorkersAiEmbeddingProvider(ai, "@cf/baai/bge-base-en-v1.5", DIMS, fast);
    await p.embed(
      Array.from({ length: 250 }, (_, i) => `t${i}`),
      "document",
    );
    expect(ai.calls.map((c) => c.texts)).toEqual([100, 100, 50]);
  });

  it("retries 429 and 5xx, waiting out Retry-After, then succeeds", async () => {
    const ai = new FakeAi(DIMS);
    ai.failures.push({ status: 429, headers: { "retry-after": "3" } }, { status: 503 });
    const waits: number[] = [];
    const p = new WorkersAiEmbeddingProvider(ai, "@cf/baai/bge-base-en-v1.5", DIMS, { ...fast, sleep: async (ms) => void waits.push(ms) });
    expect(await p.embed(["hello"], "query")).toHaveLength(1);
    expect(ai.calls).toHaveLength(3);
    expect(waits).toEqual([3000]);
  });

  it("fails at once on a 400 and after the retries on a persistent 500", async () => {
    const ai = new FakeAi(DIMS);
    ai.failures.push({ status: 400 });
    const p = new WorkersAiEmbeddingProvider(ai, "@cf/baai/bge-base-en-v1.5", DIMS, { ...fast, retries: 2 });
    await expect(p.embed(["x"], "document")).rejects.toThrow(/400/);
    expect(ai.calls).toHaveLength(1);
    ai.failures.push({ status: 500 }, { status: 500 }, { status: 500 });
    await expect(p.embed(["x"], "document")).rejects.toThrow(/500/);
    expect(ai.calls).toHaveLength(4);
  });

  it("refuses a dimension count that does not match the model's output", async () => {
    const p = new WorkersAiEmbeddingProvider(new FakeAi(DIMS), "@cf/baai/bge-base-en-v1.5", DIMS + 1, fast);
    await expect(p.embed(["x"], "document")).rejects.toThrow(/EMBEDDING_DIMENSIONS/);
  });

  it("parses Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("7", 0)).toBe(7000);
    expect(parseRetryAfter("Thu, 01 Jan 1970 00:00:10 GMT", 4000)).toBe(6000);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
  });
});
