/**
 * @module indexer/embed/workers-ai
 *
 * `EmbeddingProvider` over the Workers AI binding: `env.AI.run(model, {text: [...]})`, batched
 * to the model's documented limit, retried with backoff and jitter on 429 and 5xx honouring
 * Retry-After (`retry.ts`). The raw response is requested so the status and headers are seen.
 */
import type { EmbeddingProvider } from "../store/contract";
import { l2Normalise } from "./local";
import { isRetryableStatus, parseRetryAfter, RetryableError, withRetry, type RetryOptions } from "../../kernel/retry";

/** Documented limits of a Workers AI embedding model. */
export interface ModelLimits {
  /** Texts per call (Workers AI docs: 100 for the bge family). */
  maxBatch: number;
  /** Input characters kept per text; the model's token limit at ~4 characters per token. */
  maxChars: number;
  /** Prefix for queries of asymmetric retrieval models (bge v1.5 model card), empty if none. */
  queryPrefix: string;
}

const BGE_QUERY_PREFIX = "Represent this sentence for searching relevant passages: ";
/** Query instruction format of the Qwen3-Embedding model card (Qwen/Qwen3-Embedding-0.6B). */
const QWEN3_QUERY_PREFIX = "Instruct: Given a question about a codebase, retrieve the code that answers it\nQuery:";

/** Limits of known models; unknown models get the conservative `DEFAULT_LIMITS`. */
export const MODEL_LIMITS: Record<string, ModelLimits> = {
  "@cf/baai/bge-small-en-v1.5": { maxBatch: 100, maxChars: 2000, queryPrefix: BGE_QUERY_PREFIX },
  "@cf/baai/bge-base-en-v1.5": { maxBatch: 100, maxChars: 2000, queryPrefix: BGE_QUERY_PREFIX },
  "@cf/baai/bge-large-en-v1.5": { maxBatch: 100, maxChars: 2000, queryPrefix: BGE_QUERY_PREFIX },
  "@cf/baai/bge-m3": { maxBatch: 100, maxChars: 24_000, queryPrefix: "" },
  // Trained on code retrieval as well as text; 1024 dims, 8k tokens. Queries carry the task
  // instruction in the model card's `Instruct: ...\nQuery:` form; documents carry none.
  "@cf/qwen/qwen3-embedding-0.6b": { maxBatch: 100, maxChars: 24_000, queryPrefix: QWEN3_QUERY_PREFIX },
};
const DEFAULT_LIMITS: ModelLimits = { maxBatch: 100, maxChars: 2000, queryPrefix: "" };

/** The part of the `Ai` binding this provider uses (lets tests pass a fake that follows its shape). */
export interface AiRunner {
  run(model: string, inputs: { text: string[] }, options: { returnRawResponse: true }): Promise<Response>;
}

/** Reads `data: number[][]` from a Workers AI embedding response body (bare or wrapped in `result`). */
function readVectors(body: unknown): number[][] {
  const obj = body as { data?: unknown; result?: { data?: unknown } };
  const data = obj?.data ?? obj?.result?.data;
  if (!Array.isArray(data)) throw new Error("Workers AI returned no `data` array of embeddings");
  return data as number[][];
}

/** Workers AI embeddings for a configured model and dimensions. */
export class WorkersAiEmbeddingProvider implements EmbeddingProvider {
  readonly lexical = false;
  readonly maxBatch: number;
  readonly #limits: ModelLimits;
  readonly #ai: AiRunner;
  readonly #retry: RetryOptions;

  /** `retry` overrides the backoff policy (tests shorten it). */
  constructor(
    ai: AiRunner,
    readonly model: string,
    readonly dimensions: number,
    retry: RetryOptions = {},
  ) {
    this.#ai = ai;
    this.#retry = retry;
    this.#limits = MODEL_LIMITS[model] ?? DEFAULT_LIMITS;
    this.maxBatch = this.#limits.maxBatch;
  }

  async embed(texts: string[], kind: "document" | "query"): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.maxBatch) {
      const batch = texts.slice(i, i + this.maxBatch).map((t) => this.#prepare(t, kind));
      out.push(...(await withRetry(() => this.#call(batch), this.#retry)));
    }
    return out;
  }

  #prepare(text: string, kind: "document" | "query"): string {
    const t = text.length > this.#limits.maxChars ? text.slice(0, this.#limits.maxChars) : text;
    // An empty input is rejected by the models; a single space embeds as "nothing".
    const nonEmpty = t.trim() ? t : " ";
    return kind === "query" ? this.#limits.queryPrefix + nonEmpty : nonEmpty;
  }

  async #call(batch: string[]): Promise<Float32Array[]> {
    const res = await this.#ai.run(this.model, { text: batch }, { returnRawResponse: true });
    if (!res.ok) {
      const detail = (await res.text()).slice(0, 200);
      const message = `Workers AI ${this.model} answered ${res.status}: ${detail}`;
      if (isRetryableStatus(res.status)) throw new RetryableError(message, res.status, parseRetryAfter(res.headers.get("retry-after"), Date.now()));
      throw new Error(message);
    }
    const vectors = readVectors(await res.json());
    if (vectors.length !== batch.length) throw new Error(`Workers AI returned ${vectors.length} embeddings for ${batch.length} texts`);
    return vectors.map((v) => {
      if (v.length !== this.dimensions) {
        throw new Error(`Model ${this.model} returns ${v.length} dimensions but EMBEDDING_DIMENSIONS is ${this.dimensions}; set it to ${v.length}.`);
      }
      return l2Normalise(Float32Array.from(v));
    });
  }
}
