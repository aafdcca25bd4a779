/**
 * @module kernel/env
 *
 * The Worker's bindings (see wrangler.toml) and `loadConfig(env)`, which checks variables once
 * per isolate and throws naming the variable that is wrong.
 */
import type { RepoCoordinatorRpc } from "./coordinator";
import { historyBudgetFrom, parseHistoryDepth, type HistoryBudget, type HistoryDepth } from "./history-depth";

/** Bindings and variables of the Worker. Optional ones exist only in production. */
export interface Env {
  DB: D1Database;
  REPO_COORDINATOR: DurableObjectNamespace<RepoCoordinatorRpc>;
  INDEX_QUEUE: Queue;
  INDEX_DLQ?: Queue;
  OAUTH_KV: KVNamespace;
  /** Vectorize (V2, namespaces) index; production only. */
  VECTORIZE?: Vectorize;
  AI?: Ai;
  EMBEDDING_PROVIDER?: string;
  EMBEDDING_MODEL?: string;
  EMBEDDING_DIMENSIONS?: string;
  VECTOR_STORE?: string;
  MAX_FILE_BYTES?: string;
  /** Most refs one repo tracks, its default branch included (default 10; docs/refs.md). */
  MAX_REFS_PER_REPO?: string;
  /** Wall-clock budget of one grep call, ms (default 3000; 0: stop after the first file, for tests). */
  GREP_TIME_BUDGET_MS?: string;
  /** "true" lets git URLs point at loopback hosts (local mode; `npm start` and the tests set it, production never). */
  ALLOW_LOOPBACK_GIT_URLS?: string;
  AUTH_PROVIDER?: string;
  /**
   * "true" keeps every snapshot of every repo (no garbage collection after a job): only for
   * `scripts/serve-snapshot.ts --keep-snapshots`, whose state `scripts/replay-swebench.ts` replays.
   */
  KEEP_SNAPSHOTS?: string;
  /** Default seconds between scheduled ref checks of a repo (worker/schedule/due.ts); 0 disables them. */
  POLL_INTERVAL_SECONDS?: string;
  /** Local admin token (npm start writes it to .codebase-copilot/dev.vars); tests set it in vitest.config.mts. */
  ADMIN_TOKEN?: string;
  // Authentication (worker/auth/config.ts, README "Authentication"). Secrets: SIGNING_SECRET,
  // GITHUB_CLIENT_SECRET. Lists are comma-separated.
  SIGNING_SECRET?: string;
  /** Key secret for tokens and webhook secrets at rest (kernel/secret-box.ts); falls back to SIGNING_SECRET. */
  TOKEN_ENCRYPTION_KEY?: string;
  PUBLIC_URL?: string;
  SESSION_TTL_SECONDS?: string;
  /** Seconds between a web session's membership re-checks at GitHub; default 600. */
  SESSION_RECHECK_SECONDS?: string;
  SOURCE_LINK_TTL_SECONDS?: string;
  /** Days audit entries are kept (worker/services/audit.ts); default 365, 0 keeps them forever. */
  AUDIT_RETENTION_DAYS?: string;
  GITHUB_CLIENT_ID?: string;
  GITHUB_CLIENT_SECRET?: string;
  GITHUB_BASE_URL?: string;
  GITHUB_API_URL?: string;
  GITHUB_ALLOWED_USERS?: string;
  GITHUB_ALLOWED_ORGS?: string;
  GITHUB_ALLOWED_TEAMS?: string;
  GITHUB_ADMIN_USERS?: string;
  GITHUB_ADMIN_TEAMS?: string;
  // Answers (worker/generation, worker/services/ask.ts; docs/ask.md). ANTHROPIC_API_KEY is a
  // secret (`wrangler secret put`, or .dev.vars locally); ANTHROPIC_BASE_URL may name an AI Gateway.
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  ANTHROPIC_EFFORT?: string;
  GENERATION_PROVIDER?: string;
  GENERATION_MODEL?: string;
  GENERATION_TIMEOUT_MS?: string;
  ASK_MAX_OUTPUT_TOKENS?: string;
  ASK_DAILY_TOKEN_BUDGET?: string;
  ASK_PROMPT_VERSION?: string;
  // Code review (worker/services/review.ts; docs/review.md): shares the provider and the daily budget.
  REVIEW_MAX_MODEL_CALLS?: string;
  REVIEW_MAX_OUTPUT_TOKENS?: string;
  // Pull-request reviews (worker/webhooks/pull-request.ts): a token that may read pull requests
  // and write reviews, and the secret the pull_request webhook is signed with. Both secrets.
  GITHUB_REVIEW_TOKEN?: string;
  GITHUB_WEBHOOK_SECRET?: string;
  /** Workers rate-limiting bindings for search (`[[ratelimits]]`); a local limiter stands in when absent. */
  SEARCH_LIMIT_IDENTITY?: RateLimit;
  SEARCH_LIMIT_IP?: RateLimit;
  /** Dynamic client registrations per client address (`[[ratelimits]]`). */
  REGISTER_LIMIT_IP?: RateLimit;
  /**
   * Where the client address comes from (worker/auth/client-address.ts): `cf-connecting-ip`
   * (default; Cloudflare sets that header and overwrites any sent by the client) or `loopback`
   * (wrangler dev bound to 127.0.0.1, where that header is the client's to choose).
   */
  CLIENT_IP_SOURCE?: string;
  /** Shard D1 bindings, comma-separated, shard 0 first (indexer/store/shards.ts); unset: `DB` is the only shard. */
  SHARD_BINDINGS?: string;
  /** Bytes past which a shard takes no new repos (indexer/store/shard-placement.ts; default 8 GB). */
  SHARD_HIGH_WATER_BYTES?: string;
  /**
   * Vectorize bindings, one per shard in shard order (indexer/store/vectors/indexes.ts); unset: every
   * shard shares `VECTORIZE`. Production only (`npm run deploy -- --shards N` writes it).
   */
  VECTORIZE_BINDINGS?: string;
  /** Commit history kept for git sources: days ("365d", the default), commits ("500"), or "0" (kernel/history-depth.ts). */
  HISTORY_DEPTH?: string;
  /** Pack budget of one history step, MiB (default 6; kernel/history-depth.ts `historyBudgetFrom`). */
  HISTORY_PACK_MIB?: string;
}

/** Validated configuration derived from `Env`. */
export interface Config {
  embeddingProvider: "local" | "workers-ai";
  embeddingModel: string;
  embeddingDimensions: number;
  vectorStore: "local" | "vectorize";
  maxFileBytes: number;
  /** `MAX_REFS_PER_REPO`: most refs one repo tracks, the default ref included (default 10). */
  maxRefsPerRepo: number;
  /** Wall-clock budget of one grep call, ms: past it the page ends, truncated, with a cursor (worker/search/grep/run.ts). */
  grepTimeBudgetMs: number;
  /** `ALLOW_LOOPBACK_GIT_URLS`: git URLs may point at loopback (127.0.0.0/8, ::1, localhost). Default false. */
  allowLoopbackGitUrls: boolean;
  /**
   * `KEEP_SNAPSHOTS`: no garbage collection, every snapshot stays (default false). For replaying
   * evaluations only: the local vector store then also holds the old snapshots' vectors, which
   * take places in its top k, so this server's vector channel can miss chunks a collecting
   * server's finds.
   */
  keepSnapshots: boolean;
  /** `HISTORY_DEPTH`: commit history fetched with git sources; null = none (docs/history.md). */
  historyDepth: HistoryDepth | null;
  /** One history step's budgets, with `HISTORY_PACK_MIB` (docs/history.md). */
  historyBudget: HistoryBudget;
  generation: GenerationConfig;
  review: ReviewConfig;
}

/** Configuration of code review (worker/services/review.ts). */
export interface ReviewConfig {
  /** Most model calls of one review, the tool-use loop's guard (default 8). */
  maxModelCalls: number;
  /** Output token cap of one model call of a review (default 4096: a submission with many findings). */
  maxOutputTokens: number;
}

/** Configuration of answers (worker/generation, worker/services/ask.ts). */
export interface GenerationConfig {
  /** Which provider answers; `auto` = anthropic when ANTHROPIC_API_KEY is set, else none. */
  provider: "auto" | "anthropic" | "workers-ai";
  /** Model id; empty = the provider's default (worker/generation/models.ts). */
  model: string;
  /** Per-attempt timeout of one model call, ms (default 60 s); a whole answer gets twice this. */
  timeoutMs: number;
  /** Output token cap of one answer (default 1500). */
  maxOutputTokens: number;
  /** Tokens (input + output + cache reads and writes) one identity may spend per UTC day (default 1,000,000). */
  dailyTokenBudget: number;
  /** Pinned version of the answer prompt; undefined = the highest. */
  promptVersion?: number;
  /** Effort on models that take it (default low: answers from given evidence need little thinking). */
  effort: "low" | "medium" | "high";
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  const v = (value ?? fallback) as T;
  if (!allowed.includes(v)) throw new TypeError(`${name} must be one of ${allowed.join(", ")}; got "${value}"`);
  return v;
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new TypeError(`${name} must be a positive integer; got "${value}"`);
  return n;
}

/** Parses and checks configuration variables. Throws TypeError naming the bad variable. */
export function loadConfig(env: Env): Config {
  return {
    embeddingProvider: oneOf("EMBEDDING_PROVIDER", env.EMBEDDING_PROVIDER, ["local", "workers-ai"] as const, "local"),
    embeddingModel: env.EMBEDDING_MODEL || "local-hash-v1",
    embeddingDimensions: positiveInt("EMBEDDING_DIMENSIONS", env.EMBEDDING_DIMENSIONS, 384),
    vectorStore: oneOf("VECTOR_STORE", env.VECTOR_STORE, ["local", "vectorize"] as const, "local"),
    maxFileBytes: positiveInt("MAX_FILE_BYTES", env.MAX_FILE_BYTES, 1024 * 1024),
    maxRefsPerRepo: positiveInt("MAX_REFS_PER_REPO", env.MAX_REFS_PER_REPO, 10),
    grepTimeBudgetMs: env.GREP_TIME_BUDGET_MS === "0" ? 0 : positiveInt("GREP_TIME_BUDGET_MS", env.GREP_TIME_BUDGET_MS, 3_000),
    allowLoopbackGitUrls: oneOf("ALLOW_LOOPBACK_GIT_URLS", env.ALLOW_LOOPBACK_GIT_URLS || "false", ["true", "false"] as const, "false") === "true",
    keepSnapshots: oneOf("KEEP_SNAPSHOTS", env.KEEP_SNAPSHOTS || "false", ["true", "false"] as const, "false") === "true",
    historyDepth: parseHistoryDepth(env.HISTORY_DEPTH),
    historyBudget: historyBudgetFrom(env.HISTORY_PACK_MIB),
    generation: {
      provider: oneOf("GENERATION_PROVIDER", env.GENERATION_PROVIDER || undefined, ["auto", "anthropic", "workers-ai"] as const, "auto"),
      model: env.GENERATION_MODEL ?? "",
      timeoutMs: positiveInt("GENERATION_TIMEOUT_MS", env.GENERATION_TIMEOUT_MS, 60_000),
      maxOutputTokens: positiveInt("ASK_MAX_OUTPUT_TOKENS", env.ASK_MAX_OUTPUT_TOKENS, 1500),
      dailyTokenBudget: positiveInt("ASK_DAILY_TOKEN_BUDGET", env.ASK_DAILY_TOKEN_BUDGET, 1_000_000),
      promptVersion: env.ASK_PROMPT_VERSION ? positiveInt("ASK_PROMPT_VERSION", env.ASK_PROMPT_VERSION, 1) : undefined,
      effort: oneOf("ANTHROPIC_EFFORT", env.ANTHROPIC_EFFORT || undefined, ["low", "medium", "high"] as const, "low"),
    },
    review: {
      maxModelCalls: positiveInt("REVIEW_MAX_MODEL_CALLS", env.REVIEW_MAX_MODEL_CALLS, 8),
      maxOutputTokens: positiveInt("REVIEW_MAX_OUTPUT_TOKENS", env.REVIEW_MAX_OUTPUT_TOKENS, 4096),
    },
  };
}
