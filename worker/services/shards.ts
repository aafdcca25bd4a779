/**
 * @module worker/services/shards
 *
 * Shard administration (docs/storage.md, "Shards"), shared by REST: moving a repo to another
 * shard (`POST /api/repos/{id}/move`) and the shards' fill, D1 and vector index
 * (`GET /api/health/shards`). Both need
 * the `admin` scope. A move sets `repos.moving_to` and starts a job that re-indexes the repo
 * into the target; the old shard keeps serving until that job's flip
 * (durable-objects/finalize.ts), which then deletes the old copy.
 */
import { z } from "zod";
import { shardFills, highWaterBytes, type ShardFill } from "../../indexer/store/shard-placement";
import { placementOf, shardCount } from "../../indexer/store/shards";
import { VECTOR_INDEX_WARN_VECTORS, vectorIndexName, vectorIndexSize, VECTORIZE_MAX_VECTORS_PER_INDEX } from "../../indexer/store/vectors";
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
        vectorIndex: z
          .string()
          .describe(
            "The vector index holding the shard's vectors: the Vectorize binding (VECTORIZE_BINDINGS), or locally the shard's D1 binding (its local_vectors).",
          ),
        vectors: z.number().int().describe("Vectors in that index, every repo's (Vectorize: describe().vectorCount)."),
      }),
    ),
    vectorIndexWarnVectors: z.number().int().describe("An index holding this many vectors is reported (80% of Vectorize's 10,000,000 per index)."),
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

/** One line per vector index at or past `warnAt` vectors (an index shared by shards is named once). */
export function vectorIndexWarnings(shards: readonly { shard: number; vectorIndex: string; vectors: number }[], warnAt: number): string[] {
  const byIndex = new Map<string, (typeof shards)[number][]>();
  for (const s of shards) byIndex.set(s.vectorIndex, [...(byIndex.get(s.vectorIndex) ?? []), s]);
  return [...byIndex].flatMap(([name, of]) =>
    of[0].vectors < warnAt
      ? []
      : [
          `vector index ${name} (shard ${of.map((s) => s.shard).join(", ")}) holds ${of[0].vectors.toLocaleString("en-US")} vectors, past ${warnAt.toLocaleString("en-US")} of Vectorize's ${VECTORIZE_MAX_VECTORS_PER_INDEX.toLocaleString("en-US")} per index: ` +
            (of.length > 1 ? "give these shards an index each (npm run deploy -- --shards N) and move repos." : "move repos to another shard."),
        ],
  );
}

/** Each shard's size, repos, whether it is full, and its vector index's size. Needs `admin`. */
export async function shardHealth(ctx: ServiceContext): Promise<ShardHealth> {
  requireScope(ctx.caller, "admin");
  const mark = highWaterBytes(ctx.env);
  const fills = await shardFills(ctx.env);
  const names = fills.map((f) => vectorIndexName(ctx.env, ctx.config, f.shard));
  // One size read per index: shards sharing `VECTORIZE` would otherwise ask it once each.
  const sizes = new Map<string, Promise<number>>();
  for (const [i, name] of names.entries()) if (!sizes.has(name)) sizes.set(name, vectorIndexSize(ctx.env, ctx.config, fills[i].shard));
  const shards = await Promise.all(fills.map(async (f, i) => ({ ...f, vectorIndex: names[i], vectors: await sizes.get(names[i])! })));
  return {
    highWaterBytes: mark,
    shards,
    vectorIndexWarnVectors: VECTOR_INDEX_WARN_VECTORS,
    warnings: [...shardWarnings(fills, mark), ...vectorIndexWarnings(shards, VECTOR_INDEX_WARN_VECTORS)],
  };
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
