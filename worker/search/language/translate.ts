/**
 * @module worker/search/language/translate
 *
 * The language reader with a model: when a generation provider is configured (kernel/generation.ts,
 * worker/generation) and the offline reader (./read.ts) finds a query in another language, the
 * provider turns it into English code-search keywords (prompt prompts/translate-query.system.v1.md).
 * Bounded: at most TRANSLATE_MAX_QUERY_CHARS of query, TRANSLATE_MAX_OUTPUT_TOKENS out,
 * TRANSLATE_TIMEOUT_MS; cached per isolate by provider, model and text; charged to the caller's
 * daily model budget like ask (worker/ask/budget.ts: reserve, record, settle). Any failure (a
 * spent budget, an API error, a timeout, an answer that is not the JSON asked for) falls back to
 * the glossary reading, with the reason in `fallback`: a search never fails for its translation.
 */
import { LRUCache } from "lru-cache";
import { estimateCostUsd, type GenerationProvider } from "../../../kernel/generation";
import { loadPrompt } from "../../../prompts";
import { recordUsage, reserveBudget, settle } from "../../ask/budget";
import { readQueryLanguage, type LanguageReading } from "./read";

/** Longest query sent to the model, characters; longer ones (pasted reports) use the glossary. */
export const TRANSLATE_MAX_QUERY_CHARS = 1_000;
/** Output cap of one translation, tokens: 16 keywords and the JSON around them. */
export const TRANSLATE_MAX_OUTPUT_TOKENS = 96;
/** Deadline of one translation call (its transport retries included), ms: a search does not wait longer. */
export const TRANSLATE_TIMEOUT_MS = 5_000;
/** Longest keywords answer kept, characters. */
const MAX_KEYWORDS_CHARS = 400;

/** A reading and how it was made. */
export interface QueryReading extends LanguageReading {
  /** `glossary` (offline), `provider` (a model translated it) or `none` (English: nothing to do). */
  via: "none" | "glossary" | "provider";
  /** Why the provider path was not used although a provider is configured. */
  fallback?: string;
}

/** What the provider path needs: the provider (made only for a query in another language; null: offline only) and the caller's budget ledger. */
export interface TranslateDeps {
  provider: () => GenerationProvider | null;
  db: D1Database;
  /** Caller id the budget is charged to. */
  identity: string;
  /** The caller's daily token budget (config.generation.dailyTokenBudget). */
  dailyTokenBudget: number;
  now?: () => number;
}

/** Translations by `provider:model\0text`, per isolate; a few hundred short strings. */
const cache = new LRUCache<string, string>({ max: 512 });

/** Reads `text` with the glossary, then (when a provider is configured and the text is not English) with the provider. */
export async function readQuery(text: string, deps: TranslateDeps): Promise<QueryReading> {
  const offline = readQueryLanguage(text);
  if (offline.language === "en") return { ...offline, via: "none" };
  const glossary = (fallback?: string): QueryReading => ({ ...offline, via: "glossary", ...(fallback ? { fallback } : {}) });
  const provider = deps.provider();
  if (!provider) return glossary();
  if (text.length > TRANSLATE_MAX_QUERY_CHARS) return glossary(`query longer than ${TRANSLATE_MAX_QUERY_CHARS} characters`);
  const key = `${provider.name}:${provider.model}\u0000${text}`;
  let keywords = cache.get(key);
  if (keywords === undefined) {
    try {
      keywords = await translate(provider, text, deps);
    } catch (err) {
      return glossary((err as Error).message);
    }
    cache.set(key, keywords);
  }
  // Identifiers and quoted code are kept whatever the model did with them.
  const missing = offline.passthrough.filter((p) => !keywords!.includes(p));
  return { ...offline, via: "provider", englishText: [keywords, ...missing].join(" ").trim() };
}

async function translate(provider: GenerationProvider, text: string, deps: TranslateDeps): Promise<string> {
  const now = deps.now ?? Date.now;
  const prompt = await loadPrompt("translate-query.system");
  const estimate = Math.ceil((prompt.text.length + text.length) / 3) + TRANSLATE_MAX_OUTPUT_TOKENS;
  const reservation = await reserveBudget(deps.db, deps.identity, now(), deps.dailyTokenBudget, estimate);
  try {
    const r = await provider.generate({
      system: [{ text: prompt.text }],
      messages: [{ role: "user", content: `<query>\n${text}\n</query>` }],
      maxOutputTokens: TRANSLATE_MAX_OUTPUT_TOKENS,
      outputSchema: { type: "object", properties: { keywords: { type: "string" } }, required: ["keywords"], additionalProperties: false },
      signal: AbortSignal.timeout(TRANSLATE_TIMEOUT_MS),
      purpose: "search.translate",
      promptVersion: `${prompt.id}@${prompt.version}`,
    });
    await recordUsage(deps.db, deps.identity, now(), r.usage, estimateCostUsd(r.usage, provider.price));
    return parseKeywords(r.text);
  } finally {
    await settle(deps.db, reservation);
  }
}

/** The `keywords` of the model's JSON answer; throws when the answer is anything else. */
export function parseKeywords(answer: string): string {
  let value: unknown;
  try {
    value = JSON.parse(answer.trim().replace(/^```(?:json)?\s*|\s*```$/g, ""));
  } catch {
    throw new Error("the model's translation was not JSON");
  }
  const k = (value as { keywords?: unknown } | null)?.keywords;
  if (typeof k !== "string" || !k.trim()) throw new Error('the model\'s translation had no "keywords" string');
  return k.replace(/\s+/g, " ").trim().slice(0, MAX_KEYWORDS_CHARS);
}
