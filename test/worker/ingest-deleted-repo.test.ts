/**
 * A repo deleted while the queue consumer indexes one of its batches keeps no rows: the consumer
 * took the batch's files before the delete and writes after it, into a shard that `removeRepo`
 * already cleared (or shard 0, once the catalog no longer places the repo). Its ack then finds
 * no job, and the consumer removes what it wrote. A batch delivered again after the delete
 * writes nothing (the coordinator has no files for it).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { listShards } from "../../indexer/store/shards";
import { createPipelineDeps, type PipelineDeps } from "../../indexer/pipeline";
import { loadConfig } from "../../kernel/env";
import { removeRepo } from "../../worker/services/repos";
import { deliver, startCapturedJob } from "./queue-capture";

/** Rows of `repo` in the catalog and every shard, by table (only tables that hold any). */
async function rowsOf(repo: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, db] of [["DB", env.DB], ...listShards(env).map((s) => [s.binding, s.db])] as [string, D1Database][]) {
    for (const [table, column] of [
      ["repos", "id"],
      ["files", "repo"],
      ["chunks", "repo"],
      ["symbols", "repo"],
      ["local_vectors", "repo"],
    ]) {
      const n = (await db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`).bind(repo).first<number>("n")) ?? 0;
      if (n) out[`${name}.${table}`] = n;
    }
  }
  return out;
}

describe("a repo deleted while a batch of it is indexed", () => {
  it("keeps none of the batch's rows, and a later delivery of the batch writes none", async () => {
    const repo = "deleted-mid-batch";
    const { messages } = await startCapturedJob(repo);
    expect(messages).toHaveLength(1);
    const real = await createPipelineDeps(env, loadConfig(env), repo);
    let deleted = false;
    // The admin deletes the repo after the consumer took the batch, before it writes.
    const deps: PipelineDeps = {
      ...real,
      embedder: {
        ...real.embedder,
        embed: async (texts, kind) => {
          if (!deleted) {
            deleted = true;
            await removeRepo(env, loadConfig(env), repo);
          }
          return real.embedder.embed(texts, kind);
        },
      },
    };
    const first = await deliver(messages, deps);
    expect(deleted).toBe(true);
    expect(first.explicitAcks).toEqual(["m0-1"]);
    expect(await rowsOf(repo)).toEqual({});

    const again = await deliver(messages, undefined, 2);
    expect(again.explicitAcks).toEqual(["m0-2"]);
    expect(await rowsOf(repo)).toEqual({});
  });
});
