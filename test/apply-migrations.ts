/**
 * Setup file of the Workers test project, run before each test file. The project shares one
 * workerd runtime between the files a vitest worker runs (`isolate: false` in
 * vitest.config.mts), so each file first deletes every Durable Object, which in Miniflare
 * holds D1, KV and the RepoCoordinators' storage too (test/reset-storage.ts: also the ones an
 * earlier file stopped with abortAllDurableObjects), then applies migrations/ to the empty D1
 * databases (the catalog and every shard, docs/storage.md "Shards"): every file starts from the
 * storage a fresh runtime would have.
 */
import { applyD1Migrations, env } from "cloudflare:test";
import { listShards } from "../indexer/store/shards";
import { resetAllStorage } from "./reset-storage";

await resetAllStorage();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
for (const { db } of listShards(env)) if (db !== env.DB) await applyD1Migrations(db, env.TEST_MIGRATIONS);
