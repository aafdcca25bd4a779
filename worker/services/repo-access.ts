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
import { parseOrThrow } from "../../kernel/validation";
import { callerAllows, requireScope, type ServiceContext } from "./context";

/** Most people and teams on one access list (each is a D1 row; bounded like a request body). */
export const ACCESS_LIST_MAX = 500;

const login = z
  .string()
  .regex(/^(?:(?:github|gitlab):)?[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, {
    error: (iss) => `${JSON.stringify(iss.input)} is not a GitHub login such as "octocat", or "gitlab:<username>"`,
  })
  .transform((s) => (s.includes(":") ? s : `github:${s}`).toLowerCase());
const team = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, {
    error: (iss) => `${JSON.stringify(iss.input)} is not a GitHub team written "org/team-slug"`,
  })
  .transform((s) => s.toLowerCase());

/**
 * The message of an `access` that fits neither form: for an object whose list is too long, the
 * limit (zod would say only the generic form); else the generic form.
 */
function unionMessage(iss: { input?: unknown; errors?: { path: PropertyKey[]; message: string; code?: string }[][] }): string {
  const listIssue = iss.input !== null && typeof iss.input === "object" && !Array.isArray(iss.input) ? iss.errors?.[1]?.[0] : undefined;
  if (listIssue && listIssue.code !== "unrecognized_keys") return `${listIssue.path.map(String).join(".")}: ${listIssue.message}`;
  return 'must be "everyone" or {"users": [...], "teams": [...]}';
}

/** Body of `PATCH /api/repos/{id}`: `access` is "everyone" or `{users, teams}`. */
export const repoAccessInput = z.object({
  access: z
    .union(
      [
        z.literal("everyone"),
        z
          .object({
            users: z.array(login).max(ACCESS_LIST_MAX, `at most ${ACCESS_LIST_MAX} users per access list`).default([]),
            teams: z.array(team).max(ACCESS_LIST_MAX, `at most ${ACCESS_LIST_MAX} teams per access list`).default([]),
          })
          .strict(),
      ],
      { error: unionMessage },
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

/** A repo's access as `GET /api/repos/{id}/access` answers it: PATCH's answer, and whether the code host decides. */
export const repoAccessReadSchema = repoAccessSchema
  .extend({
    access: repoAccessSchema.shape.access.nullable().describe('As PATCH sets it; null when the readers follow the code host (visibility other than "public").'),
    followsCodeHost: z.boolean().describe("The repo came through a connection: its readers are the code host's, and PATCH refuses an access list."),
  })
  .meta({ id: "RepoAccessRead" });
export type RepoAccessRead = z.infer<typeof repoAccessReadSchema>;

/** Checks the caller may manage `repo`'s access (admin, not limited to other repos) and that it exists; returns its visibility and whether a connection brought it. */
async function managedRepo(ctx: ServiceContext, repo: string): Promise<{ visibility: string; linked: boolean }> {
  requireScope(ctx.caller, "admin");
  if (!callerAllows(ctx.caller, repo)) throw new CodeSearchError("forbidden", `Your token is limited to other repos than "${repo}".`);
  const db = ctx.env.DB;
  const row = await db.prepare("SELECT visibility FROM repos WHERE id = ?").bind(repo).first<{ visibility: string }>();
  if (!row) throw new CodeSearchError("repo_not_found", `No repo "${repo}"; GET /api/repos lists the repos you can see.`);
  const linked = await db.prepare("SELECT 1 AS x FROM connection_repos WHERE repo = ? AND registered_at IS NOT NULL").bind(repo).first();
  return { visibility: row.visibility, linked: !!linked };
}

/**
 * Who may read `repo`, for the callers who may change it (admin; a caller limited to other repos
 * is refused). Throws `repo_not_found`, `forbidden`.
 */
export async function getRepoAccess(ctx: ServiceContext, repo: string): Promise<RepoAccessRead> {
  const { visibility, linked } = await managedRepo(ctx, repo);
  if (linked) return { repo, visibility, access: visibility === "public" ? "everyone" : null, followsCodeHost: true };
  if (visibility !== "listed") return { repo, visibility, access: "everyone", followsCodeHost: false };
  const rows = await ctx.env.DB.prepare("SELECT principal FROM repo_readers WHERE repo = ? AND source = 'admin' ORDER BY principal")
    .bind(repo)
    .all<{ principal: string }>();
  const principals = rows.results.map((r) => r.principal);
  return { repo, visibility, access: accessOf(principals), followsCodeHost: false };
}

/** The `{users, teams}` of stored principals (`github:octocat`, `team:acme/platform`), in the order given (GET and PATCH sort them). */
function accessOf(principals: string[]): { users: string[]; teams: string[] } {
  return {
    users: principals.filter((p) => !p.startsWith("team:")),
    teams: principals.filter((p) => p.startsWith("team:")).map((p) => p.slice("team:".length)),
  };
}

/**
 * Sets who may read `repo` (admin; a caller limited to other repos is refused). Throws
 * `repo_not_found`, `forbidden`, or `invalid_input` for a repo that follows its code host.
 */
export async function setRepoAccess(ctx: ServiceContext, repo: string, body: unknown, now = Date.now()): Promise<RepoAccess> {
  requireScope(ctx.caller, "admin");
  const parsed = { data: parseOrThrow(repoAccessInput, body, {}, "body") };
  const db = ctx.env.DB;
  const { linked } = await managedRepo(ctx, repo);
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
    access: access === "everyone" ? "everyone" : accessOf([...principals].sort()),
  };
}
