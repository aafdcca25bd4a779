/**
 * The wipe every Workers test file starts with (test/reset-storage.ts, run by
 * test/apply-migrations.ts) leaves nothing behind, even after `abortAllDurableObjects()`
 * stopped the objects holding the data. Plain `reset()` did not: the D1 databases, the KV
 * namespace and the coordinators that nothing used after the abort kept their data, and a
 * shard's rows from ingest-batch-crash (which simulates a runtime restart) showed up in the
 * next file, vector-shards-vectorize.
 */
import { abortAllDurableObjects, applyD1Migrations, env, runInDurableObject } from "cloudflare:test";
import { afterAll, expect, it } from "vitest";
import { listShards } from "../../indexer/store/shards";
import { resetAllStorage } from "../reset-storage";

const coordinator = () => env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName("reset-probe"));
const databases = (): [string, D1Database][] => [["DB", env.DB], ...listShards(env).map((s): [string, D1Database] => [s.binding, s.db])];

// The next test file starts from a wipe; this one's later readers (none today) get the tables back.
afterAll(async () => {
  for (const [, db] of databases()) await applyD1Migrations(db, env.TEST_MIGRATIONS);
});

it("deletes every database's rows, KV keys and coordinator storage that objects stopped by abortAllDurableObjects hold", async () => {
  const now = Date.now();
  for (const [, db] of databases()) {
    await db
      .prepare("INSERT INTO repos (id, name, source_kind, status, created_at, updated_at) VALUES ('reset-probe', 'reset-probe', 'archive', 'ready', ?, ?)")
      .bind(now, now)
      .run();
  }
  await env.OAUTH_KV.put("reset-probe", "x");
  await runInDurableObject(coordinator(), async (_i, state) => state.storage.put("reset-probe", 1));
  // A runtime restart, as ingest-batch-crash and freshness-crash simulate; nothing is used after it.
  await abortAllDurableObjects();

  await resetAllStorage();

  const left: string[] = [];
  for (const [name, db] of databases()) {
    if (await db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'repos'").first("n")) left.push(name);
  }
  if ((await env.OAUTH_KV.list()).keys.length) left.push("OAUTH_KV");
  if (await runInDurableObject(coordinator(), async (_i, state) => state.storage.get("reset-probe"))) left.push("REPO_COORDINATOR");
  expect(left).toEqual([]);
});
