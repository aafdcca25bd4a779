import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fileId, type ChunkedFile } from "../indexer/store/contract";
import { writeFiles } from "../indexer/store/d1/write-files";
import { repoDb, repoWriteDb } from "../indexer/store/shards";
import { finalizeJob } from "./finalize";

const chunked = (body: string): ChunkedFile => ({
  language: "python",
  imports: [],
  chunks: [{ startLine: 1, endLine: 1, kind: "module", content: body }],
  symbols: [],
});

/** Indexes `a.py` with `body` as a snapshot of `repo` at `commit`, through the job's final step. */
async function indexAt(jobEnv: typeof env, repo: string, commit: string, body: string): Promise<void> {
  const blobSha = commit.padEnd(40, "0");
  const id = await fileId(repo, "a.py", blobSha);
  await writeFiles(await repoWriteDb(jobEnv, repo), [{ repo, path: "a.py", blobSha, fileId: id, text: body, chunked: chunked(body) }]);
  await finalizeJob(jobEnv, repo, commit, [{ path: "a.py", fileId: id }], Date.now());
}

async function snapshotsOf(repo: string): Promise<string[]> {
  const { results } = await (
    await repoDb(env, repo)
  )
    .prepare("SELECT DISTINCT commit_sha AS c FROM snapshot_files WHERE repo = ? ORDER BY c")
    .bind(repo)
    .all<{ c: string }>();
  return results.map((r) => r.c);
}

describe("finalizeJob", () => {
  it("collects the previous snapshot and its file versions", async () => {
    await env.DB.prepare("INSERT INTO repos (id, name, source_kind, status, created_at, updated_at) VALUES ('gc', 'gc', 'archive', 'indexing', 0, 0)").run();
    await indexAt(env, "gc", "c1", "first = 1");
    await indexAt(env, "gc", "c2", "second = 2");
    expect(await snapshotsOf("gc")).toEqual(["c2"]);
    expect((await (await repoDb(env, "gc")).prepare("SELECT count(*) AS n FROM files WHERE repo = 'gc'").first<{ n: number }>())?.n).toBe(1);
    // The flip reached the catalog too, and the shard's mirror row.
    for (const db of [env.DB, await repoDb(env, "gc")])
      expect(await db.prepare("SELECT active_commit AS c FROM repos WHERE id = 'gc'").first()).toEqual({ c: "c2" });
  });

  it("keeps every snapshot with KEEP_SNAPSHOTS=true (the replay state of scripts/replay-swebench.ts)", async () => {
    await env.DB.prepare(
      "INSERT INTO repos (id, name, source_kind, status, created_at, updated_at) VALUES ('kept', 'kept', 'archive', 'indexing', 0, 0)",
    ).run();
    const keeping = { ...env, KEEP_SNAPSHOTS: "true" };
    await indexAt(keeping, "kept", "c1", "first = 1");
    await indexAt(keeping, "kept", "c2", "second = 2");
    expect(await snapshotsOf("kept")).toEqual(["c1", "c2"]);
    const stats = await (await repoDb(env, "kept")).prepare("SELECT commit_sha AS c, chunks FROM snapshot_stats WHERE repo = 'kept' ORDER BY c").all<{
      c: string;
      chunks: number;
    }>();
    expect(stats.results).toEqual([
      { c: "c1", chunks: 1 },
      { c: "c2", chunks: 1 },
    ]);
    expect((await env.DB.prepare("SELECT active_commit AS c FROM repos WHERE id = 'kept'").first<{ c: string }>())?.c).toBe("c2");
  });
});
