/**
 * @module worker/services/schedule
 *
 * A repo's scheduled ref check (worker/schedule): read and set its interval. Setting it needs
 * `index`, reading it `search`.
 */
import { z } from "zod";
import { CodeSearchError } from "../../kernel/errors";
import { defaultPollSeconds } from "../schedule/run";
import { callerAllows, canSee, requireScope, type ServiceContext } from "./context";

/** Input of `setRepoSchedule` (`PUT /api/repos/{id}/schedule`). */
export const repoScheduleInput = z.object({
  intervalSeconds: z
    .number()
    .int()
    .min(0)
    .max(30 * 24 * 3600)
    .nullable()
    .describe(
      "Seconds between checks of the remote ref; 0 turns scheduled checks off, null returns to the default. The Cron Trigger runs every 5 minutes, so shorter intervals act as 5 minutes.",
    ),
});

/** A repo's schedule. Times in ms since epoch. */
export const repoScheduleSchema = z.object({
  repo: z.string(),
  intervalSeconds: z.number().nullable().describe("The repo's own interval, null when it uses the default"),
  effectiveSeconds: z.number().describe("The interval that applies (0: never checked on a schedule)"),
  lastCheckedAt: z.number().nullable(),
});
export type RepoSchedule = z.infer<typeof repoScheduleSchema>;

async function row(ctx: ServiceContext, repo: string) {
  const r = callerAllows(ctx.caller, repo)
    ? await ctx.env.DB.prepare("SELECT id, visibility, source_kind, poll_interval_seconds, last_checked_at FROM repos WHERE id = ?")
        .bind(repo)
        .first<{ id: string; visibility: string; source_kind: string; poll_interval_seconds: number | null; last_checked_at: number | null }>()
    : null;
  // Who may read it (`canSee`); a withdrawn repo's schedule stays manageable by who may manage it.
  if (!r || !canSee(ctx.caller, { ...r, withdrawn_at: null }))
    throw new CodeSearchError("repo_not_found", `No repo "${repo}"; GET /api/repos lists the repos you can see.`);
  if (r.source_kind !== "git")
    throw new CodeSearchError("invalid_input", `Repo "${repo}" was uploaded as an archive; only git repos are checked on a schedule.`);
  return r;
}

function view(ctx: ServiceContext, repo: string, interval: number | null, lastCheckedAt: number | null): RepoSchedule {
  return { repo, intervalSeconds: interval, effectiveSeconds: interval ?? defaultPollSeconds(ctx.env), lastCheckedAt };
}

/** The repo's schedule. Throws `repo_not_found`, `invalid_input` (archive repo). */
export async function getRepoSchedule(ctx: ServiceContext, repo: string): Promise<RepoSchedule> {
  requireScope(ctx.caller, "search");
  const r = await row(ctx, repo);
  return view(ctx, repo, r.poll_interval_seconds, r.last_checked_at);
}

/** Sets the repo's interval. Throws `invalid_input` (naming the field), `repo_not_found`. */
export async function setRepoSchedule(ctx: ServiceContext, repo: string, raw: unknown): Promise<RepoSchedule> {
  requireScope(ctx.caller, "index");
  const r = await row(ctx, repo); // visibility before validation: nothing is said about a repo the caller cannot see
  const parsed = repoScheduleInput.safeParse(raw);
  if (!parsed.success)
    throw new CodeSearchError(
      "invalid_input",
      `intervalSeconds: ${parsed.error.issues[0]?.message}; send {"intervalSeconds": 3600}, 0 (off) or null (default).`,
    );
  await ctx.env.DB.prepare("UPDATE repos SET poll_interval_seconds = ? WHERE id = ?").bind(parsed.data.intervalSeconds, repo).run();
  return view(ctx, repo, parsed.data.intervalSeconds, r.last_checked_at);
}
