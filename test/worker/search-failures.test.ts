/**
 * A failing part of a search is reported by code, never by its internal message: the embedding
 * backend throwing (with a message that names internals) skips the vector channel with
 * `channel_failed: internal`, the other channels still answer, and the response carries none of
 * the internal text (which goes to the log only).
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createEmbeddingProvider } from "../../indexer/embed";
import { createVectorStore } from "../../indexer/store/vectors";
import { repoDb } from "../../indexer/store/shards";
import { loadConfig } from "../../kernel/env";
import { runSearch } from "../../worker/search/searcher";
import { chunk, indexFixture } from "./search-fixture";

const INTERNAL = "D1_ERROR: no such table: secret_internal_table_7731";

describe("search failures", () => {
  beforeAll(() =>
    indexFixture("fail-demo", "c1", [
      { path: "src/users.ts", chunks: [chunk("function", 1, "export function getUserById(id: string) {\n  return id;\n}", "getUserById")] },
    ]),
  );

  it("a throwing embedder skips the vector channel with a coded reason and leaks nothing", async () => {
    const config = loadConfig(env);
    const real = createEmbeddingProvider(env, config);
    const embedder = {
      model: real.model,
      dimensions: real.dimensions,
      lexical: real.lexical,
      maxBatch: real.maxBatch,
      embed: async () => Promise.reject(new Error(INTERNAL)),
    };
    const row = await env.DB.prepare("SELECT active_commit, active_indexed_at, embedding_model, embedding_dims FROM repos WHERE id = 'fail-demo'").first<
      Record<string, unknown>
    >();
    const target = {
      id: "fail-demo",
      commit: "c1",
      indexedAt: row!.active_indexed_at as number,
      embeddingModel: row!.embedding_model as string,
      embeddingDims: row!.embedding_dims as number,
      packages: [],
    };
    const db = await repoDb(env, "fail-demo");
    const r = await runSearch({ db, embedder, vectors: createVectorStore(env, config, db) }, [target], "getUserById", {
      k: 5,
      mode: "hybrid",
      filters: {},
      fileCap: 2,
    });
    expect(r.results[0]?.path).toBe("src/users.ts");
    expect(r.stats.skippedChannels).toContainEqual({ repo: "fail-demo", channel: "vector", reason: "channel_failed: internal" });
    expect(JSON.stringify(r)).not.toContain("secret_internal_table");
  });
});
