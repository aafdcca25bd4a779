/**
 * @module indexer/embed
 *
 * Embedding providers behind the `EmbeddingProvider` port (indexer/store/contract.ts), chosen by
 * configuration: `local` (hashed features, the offline default) or `workers-ai`.
 */
import type { Config, Env } from "../../kernel/env";
import type { EmbeddingProvider } from "../store/contract";
import { LOCAL_EMBEDDING_MODEL, LocalEmbeddingProvider } from "./local";
import { WorkersAiEmbeddingProvider, type AiRunner } from "./workers-ai";

export { LOCAL_EMBEDDING_MODEL, LocalEmbeddingProvider, hashEmbed } from "./local";
export { WorkersAiEmbeddingProvider, MODEL_LIMITS, type AiRunner } from "./workers-ai";

/**
 * The configured embedding provider. Throws TypeError naming the variable when the
 * configuration cannot work (Workers AI without an `AI` binding, a local provider asked for
 * another model's name).
 */
export function createEmbeddingProvider(env: Env, config: Config): EmbeddingProvider {
  if (config.embeddingProvider === "local") {
    if (config.embeddingModel !== LOCAL_EMBEDDING_MODEL) {
      throw new TypeError(`EMBEDDING_MODEL must be "${LOCAL_EMBEDDING_MODEL}" when EMBEDDING_PROVIDER=local; got "${config.embeddingModel}"`);
    }
    return new LocalEmbeddingProvider(config.embeddingDimensions);
  }
  if (!env.AI) throw new TypeError("EMBEDDING_PROVIDER=workers-ai needs the AI binding ([ai] in wrangler.toml)");
  return new WorkersAiEmbeddingProvider(env.AI as unknown as AiRunner, config.embeddingModel, config.embeddingDimensions);
}
