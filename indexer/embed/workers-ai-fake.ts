/**
 * @module indexer/embed/workers-ai-fake
 *
 * A fake of the Workers AI binding for embedding models, for tests. It follows the documented
 * request and response shapes (`{text: string[]}` -> `{shape: [n, dims], data: number[][]}`)
 * and refuses what the platform refuses: more than 100 texts per call, empty texts. It can be
 * told to answer the next calls with an HTTP error (e.g. 429 with Retry-After).
 */
import { hashEmbed } from "./local";
import type { AiRunner } from "./workers-ai";

/** Most texts per call of the bge models (Workers AI docs). */
export const FAKE_AI_MAX_TEXTS = 100;

/** Fake `env.AI`; vectors are deterministic (hashed features), `dimensions` long. */
export class FakeAi implements AiRunner {
  readonly calls: { model: string; texts: number }[] = [];
  /** Responses to give before answering normally: status and headers. */
  readonly failures: { status: number; headers?: Record<string, string> }[] = [];
  constructor(readonly dimensions: number) {}

  async run(model: string, inputs: { text: string[] }, options: { returnRawResponse: true }): Promise<Response> {
    this.calls.push({ model, texts: inputs.text.length });
    if (!options?.returnRawResponse) throw new Error("fake expects returnRawResponse");
    const failure = this.failures.shift();
    if (failure)
      return new Response(JSON.stringify({ errors: [{ message: "Capacity temporarily exceeded" }] }), { status: failure.status, headers: failure.headers });
    if (!Array.isArray(inputs.text) || inputs.text.length === 0 || inputs.text.length > FAKE_AI_MAX_TEXTS) {
      return new Response(JSON.stringify({ errors: [{ message: `text must have 1..${FAKE_AI_MAX_TEXTS} items` }] }), { status: 400 });
    }
    if (inputs.text.some((t) => typeof t !== "string" || t.length === 0))
      return new Response(JSON.stringify({ errors: [{ message: "empty text" }] }), { status: 400 });
    const data = inputs.text.map((t) => Array.from(hashEmbed(t, "document", this.dimensions)).map((x) => x * 3));
    return Response.json({ shape: [data.length, this.dimensions], data, pooling: "mean" });
  }
}
