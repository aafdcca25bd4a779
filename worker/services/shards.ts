/**
 * @module worker/services/shards
 *
 * Shard administration (docs/storage.md, "Shards"), shared by REST: moving a repo to another
 * shard (`POST /api/repos/{id}/move`) and the shards' fill (`GET /api/health/shards`). Both need
 * the `admin` scope. A move sets `repos.moving_to` and starts a job that re-indexes the repo
 * into the target; the old shard keeps serving until that job's flip
 * (durable-objects/finalize.ts), which then deletes the old copy.
 */
import { z } from "zod";
import { shardFills, highWaterBytes, type ShardFill } from "../../indexer/store/shard-placement";
import { placementOf, shardCount } from "../../indexer/store/shards";
import { CodeSearchError } from "../../kernel/errors";
import { callerAllows, requireScope, type ServiceContext } from "./context";
import { refreshRepo, type RepoStatus } from "./repos";

/** Input of `moveRepo`. */
export const moveRepoInput = z.object({
  repo: z.string().min(1).max(64).describe('Repo id, e.g. "hono".'),
  shard: z.number().int().min(0).describe("The shard to move the repo into (0-based; GET /api/health/shards lists them)."),
});
export type MoveRepoInput = z.infer<typeof moveRepoInput>;

/** What `GET /api/health/shards` answers. */
export const shardHealthSchema = z
  .object({
    highWaterBytes: z.number().int().describe("A shard at or past this size takes no new repos (SHARD_HIGH_WATER_BYTES; default 8 GB)."),
    shards: z.array(
      z.object({
        shard: z.number().int(),
        binding: z.string().describe("The D1 binding (SHARD_BINDINGS)."),
        bytes: z.number().int().describe("Database size as D1 reports it (meta.size_after)."),
        repos: z.number().int().describe("Repos placed there (serving or moving in)."),
        full: z.boolean().describe("Past the high-water mark: new repos go elsewhere."),
      }),
    ),
    warnings: z.array(z.string()).describe("One line per full shard, and when every shard is full."),
  })
  .meta({ id: "ShardHealth" });
export type ShardHealth = z.infer<typeof shardHealthSchema>;

/** The warnings a person should read: full shards, and no room left at all. */
export function shardWarnings(fills: readonly ShardFill[], mark: number): string[] {
  const gb = (b: number) => `${(b / 1e9).toFixed(2)} GB`;
  const out = fills
    .filter((f) => f.full)
    .map((f) => `shard ${f.shard} (${f.binding}) holds ${gb(f.bytes)}, past the high-water mark of ${gb(mark)}: new repos go elsewhere.`);
  if (fills.length && fills.every((f) => f.full)) out.push("Every shard is past the high-water mark: add shards (npm run deploy -- --shards N) or move repos.");
  return out;
}

/** Each shard's size, repos and whether it is full. Needs `admin`. */
export async function shardHealth(ctx: ServiceContext): Promise<ShardHealth> {
  requireScope(ctx.caller, "admin");
  const mark = highWaterBytes(ctx.env);
  const fills = await shardFills(ctx.env);
  return { highWaterBytes: mark, shards: fills, warnings: shardWarnings(fills, mark) };
}

/**
 * Moves a git repo to shard `shard`: re-indexes it there while the current shard serves, flips,
 * then deletes the old copy. Needs `admin`. Throws `repo_not_found`; `invalid_input` for a shard
 * that does not exist, is full or already holds the repo, for an archive repo (its source cannot
 * be fetched again) and while a job runs.
 */
export async function moveRepo(ctx: ServiceContext, raw: { repo: string; shard?: unknown }): Promise<RepoStatus> {
  requireScope(ctx.caller, "admin");
  const row = callerAllows(ctx.caller, raw.repo)
    ? await ctx.env.DB.prepare("SELECT id, source_kind, shard, moving_to FROM repos WHERE id = ?")
        .bind(raw.repo)
        .first<{ id: string; source_kind: string; shard: number | null; moving_to: number | null }>()
    : null;
  if (!row) throw new CodeSearchError("repo_not_found", `No repo "${raw.repo}"; GET /api/repos lists the repos you can see.`);
  const parsed = moveRepoInput.safeParse(raw);
  if (!parsed.success) throw new CodeSearchError("invalid_input", 'shard: pass the shard to move to, a whole number from 0, e.g. {"shard": 1}.');
  const input: MoveRepoInput = parsed.data;
  const count = shardCount(ctx.env);
  if (input.shard >= count) throw new CodeSearchError("invalid_input", `shard: there is no shard ${input.shard}; shards are 0..${count - 1}.`);
  const { shard, writeShard } = placementOf(row);
  if (writeShard === input.shard) {
    throw new CodeSearchError(
      "invalid_input",
      `shard: repo "${row.id}" is ${shard === input.shard ? "already on" : "already moving to"} shard ${input.shard}.`,
    );
  }
  if (row.source_kind !== "git") {
    throw new CodeSearchError("invalid_input", `Repo "${row.id}" was uploaded as an archive, which cannot be fetched again; delete it and upload it anew.`);
  }
  const job = await ctx.env.REPO_COORDINATOR.get(ctx.env.REPO_COORDINATOR.idFromName(row.id)).status();
  if (job && job.status !== "ready" && job.status !== "failed")
    throw new CodeSearchError("invalid_input", `Repo "${row.id}" has a job running (${job.status}); move it once the job is done.`);
  const target = (await shardFills(ctx.env)).find((f) => f.shard === input.shard)!;
  if (target.full)
    throw new CodeSearchError("invalid_input", `shard: shard ${input.shard} is past its high-water mark; pick another (GET /api/health/shards).`);
  await ctx.env.DB.prepare("UPDATE repos SET moving_to = ? WHERE id = ?")
    .bind(input.shard === shard ? null : input.shard, row.id)
    .run();
  // Every extra tracked ref is re-indexed into the target first; the default ref's job, queued
  // last, ends the move (its flip deletes the old copy), so no ref's snapshot is lost (docs/refs.md).
  const extras = await ctx.env.DB.prepare("SELECT 1 AS x FROM repo_refs WHERE repo = ? AND is_default = 0").bind(row.id).first();
  if (extras) {
    const synced = await ctx.env.REPO_COORDINATOR.get(ctx.env.REPO_COORDINATOR.idFromName(row.id)).syncRefs(null, { reindexAll: true });
    if ("error" in synced) {
      await ctx.env.DB.prepare("UPDATE repos SET moving_to = ? WHERE id = ?").bind(row.moving_to, row.id).run();
      throw new CodeSearchError(synced.error.code, synced.error.message);
    }
  }
  return refreshRepo(ctx, { repo: row.id });
}
