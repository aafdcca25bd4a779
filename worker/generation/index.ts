/**
 * @module worker/generation
 *
 * Generation providers behind the `GenerationProvider` port (kernel/generation.ts), chosen by
 * configuration (`GENERATION_PROVIDER`, kernel/env.ts): Anthropic (the default whenever
 * ANTHROPIC_API_KEY is set) or Workers AI. The scripted provider (./scripted.ts) is for tests and
 * is never chosen here. Without a usable provider, `requireGenerationProvider` throws
 * `generation_unavailable` with the exact commands that configure one.
 */
import type { Config, Env } from "../../kernel/env";
import { CodeSearchError } from "../../kernel/errors";
import type { GenerationProvider } from "../../kernel/generation";
import { AnthropicGenerationProvider } from "./anthropic";
import { DEFAULT_ANTHROPIC_MODEL, DEFAULT_WORKERS_AI_MODEL } from "./models";
import { WorkersAiGenerationProvider, type AiTextRunner } from "./workers-ai";

export { AnthropicGenerationProvider, GENERATION_RETRY } from "./anthropic";
export { DEFAULT_ANTHROPIC_MODEL, DEFAULT_WORKERS_AI_MODEL, priceOf } from "./models";
export { ScriptedGenerationProvider, type ScriptedReply } from "./scripted";
export { WorkersAiGenerationProvider } from "./workers-ai";

/** What `generation_unavailable` tells the caller to run (the exact commands). */
export const CONFIGURE_GENERATION_HINT =
  "No model provider is configured. Locally: echo 'ANTHROPIC_API_KEY=sk-ant-...' >> .dev.vars and restart npm start. " +
  "Deployed: npx wrangler secret put ANTHROPIC_API_KEY --env production. " +
  'Without an Anthropic key: set GENERATION_PROVIDER = "workers-ai" in wrangler.toml [vars] with an [ai] binding.';

/** The configured provider, or null when none is configured (or the configured one lacks what it needs). */
export function createGenerationProvider(env: Env, config: Config): GenerationProvider | null {
  const g = config.generation;
  const wantsAnthropic = g.provider === "anthropic" || (g.provider === "auto" && !!env.ANTHROPIC_API_KEY);
  if (wantsAnthropic) {
    if (!env.ANTHROPIC_API_KEY) return null;
    return new AnthropicGenerationProvider({
      apiKey: env.ANTHROPIC_API_KEY,
      baseURL: env.ANTHROPIC_BASE_URL || undefined,
      model: g.model || DEFAULT_ANTHROPIC_MODEL,
      timeoutMs: g.timeoutMs,
      effort: g.effort,
    });
  }
  if (g.provider === "workers-ai") {
    if (!env.AI) return null;
    return new WorkersAiGenerationProvider(env.AI as unknown as AiTextRunner, g.model || DEFAULT_WORKERS_AI_MODEL);
  }
  return null;
}

/** The configured provider; throws `generation_unavailable` (503) naming the commands that configure one. */
export function requireGenerationProvider(env: Env, config: Config): GenerationProvider {
  const provider = createGenerationProvider(env, config);
  if (provider) return provider;
  const why =
    config.generation.provider === "workers-ai"
      ? 'GENERATION_PROVIDER is workers-ai but the AI binding is missing ([ai] binding = "AI" in wrangler.toml). '
      : config.generation.provider === "anthropic"
        ? "GENERATION_PROVIDER is anthropic but ANTHROPIC_API_KEY is not set. "
        : "";
  throw new CodeSearchError("generation_unavailable", why + CONFIGURE_GENERATION_HINT);
}
