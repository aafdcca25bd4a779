/**
 * @module worker/services/repo-access
 *
 * Who may read a repo registered by URL or upload: everyone signed in (the default) or an
 * admin's access list of people and teams (`repos.visibility = 'listed'`, `repo_readers` rows
 * with `source = 'admin'`; migrations/0027_repo_permissions.sql). `canSee`
 * (worker/services/context.ts) applies it like the code host's permissions. A repo registered
 * through a connection follows its code host and refuses a list.
 */
import { z } from "zod";
import { CodeSearchError } from "../../kernel/errors";
import { callerAllows, requireScope, type ServiceContext } from "./context";

/** Most people and teams on one access list (each is a D1 row; bounded like a request body). */
export const ACCESS_LIST_MAX = 500;

const login = z
  .string()
  .regex(/^(?:(?:github|gitlab):)?[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'a GitHub login such as "octocat", or "gitlab:<username>"')
  .transform((s) => (s.includes(":") ? s : `github:${s}`).toLowerCase());
const team = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'a GitHub team written "org/team-slug"')
  .transform((s) => s.toLowerCase());

/** Body of `PATCH /api/repos/{id}`: `access` is "everyone" or `{users, teams}`. */
export const repoAccessInput = z.object({
  access: z
    .union(
      [
        z.literal("everyone"),
        z
          .object({
            users: z.array(login).max(ACCESS_LIST_MAX).default([]),
            teams: z.array(team).max(ACCESS_LIST_MAX).default([]),
          })
          .strict(),
      ],
      { error: 'must be "everyone" or {"users": [...], "teams": [...]}' },
    )
    .describe(
      '"everyone": every signed-in reader (the default). {users, teams}: only these GitHub logins (or "gitlab:<username>") and members of these GitHub teams ("org/team-slug"); admins always see every repo.',
    ),
});
export type RepoAccessInput = z.input<typeof repoAccessInput>;

/** A repo's access as `PATCH /api/repos/{id}` answers it. */
export const repoAccessSchema = z
  .object({
    repo: z.string(),
    visibility: z.string().describe("everyone | listed (set here), or public | private | internal (from the code host)"),
    access: z.union([z.literal("everyone"), z.object({ users: z.array(z.string()), teams: z.array(z.string()) })]),
  })
  .meta({ id: "RepoAccess" });
export type RepoAccess = z.infer<typeof repoAccessSchema>;

/**
 * Sets who may read `repo` (admin; a caller limited to other repos is refused). Throws
 * `repo_not_found`, `forbidden`, or `invalid_input` for a repo that follows its code host.
 */
export async function setRepoAccess(ctx: ServiceContext, repo: string, body: unknown, now = Date.now()): Promise<RepoAccess> {
  requireScope(ctx.caller, "admin");
  const parsed = repoAccessInput.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CodeSearchError("invalid_input", `${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  if (!callerAllows(ctx.caller, repo)) throw new CodeSearchError("forbidden", `Your token is limited to other repos than "${repo}".`);
  const db = ctx.env.DB;
  const row = await db.prepare("SELECT id FROM repos WHERE id = ?").bind(repo).first();
  if (!row) throw new CodeSearchError("repo_not_found", `No repo "${repo}"; GET /api/repos lists the repos you can see.`);
  const linked = await db.prepare("SELECT 1 AS x FROM connection_repos WHERE repo = ? AND registered_at IS NOT NULL").bind(repo).first();
  if (linked)
    throw new CodeSearchError(
      "invalid_input",
      `access: "${repo}" was registered through a connection, so its readers follow the code host; change them there (docs/auth.md).`,
    );
  const access = parsed.data.access;
  const principals = access === "everyone" ? [] : [...new Set([...access.users, ...access.teams.map((t) => `team:${t}`)])];
  await db.batch([
    db.prepare("DELETE FROM repo_readers WHERE repo = ?").bind(repo),
    db.prepare("UPDATE repos SET visibility = ? WHERE id = ?").bind(access === "everyone" ? "everyone" : "listed", repo),
    ...principals.map((p) => db.prepare("INSERT INTO repo_readers (repo, principal, source, synced_at) VALUES (?, ?, 'admin', ?)").bind(repo, p, now)),
  ]);
  return {
    repo,
    visibility: access === "everyone" ? "everyone" : "listed",
    access: access === "everyone" ? "everyone" : { users: principals.filter((p) => !p.startsWith("team:")), teams: access.teams },
  };
}
