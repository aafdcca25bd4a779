/**
 * @module worker/permissions/github-person
 *
 * The person direction of permission sync for GitHub sign-ins, run at sign-in and at every
 * OAuth token refresh: with the person's own GitHub token it lists the repositories they can
 * read (`GET /user/repos`, owner, collaborator and organisation-member affiliations, which needs
 * the `repo` scope for private ones) and the access-list teams they belong to
 * (`GET /orgs/{org}/teams/{slug}/memberships/{login}`, `read:org`). Restricted repos registered
 * through a GitHub connection on the same API host are granted or taken away to match
 * (readers.ts `replacePersonRepos`).
 *
 * Fail closed: when GitHub does not answer the listing, nothing is granted or removed and the
 * person's earlier grants age out after PERMISSION_MAX_AGE_MS; a team check that fails counts as
 * not a member.
 */
import type { Env } from "../../kernel/env";
import type { GitHubAuthConfig } from "../auth/config";
import { replacePersonRepos, type ReadersChange } from "./readers";

/** Most pages of 100 read from `/user/repos` (10,000 repositories); more fails closed. */
export const USER_REPOS_MAX_PAGES = 100;
/** Most access-list teams checked per sync (one GitHub request each). */
export const TEAM_CHECKS_MAX = 20;

/** What a person's sync found. `repos` is null when GitHub could not list them (nothing changed). */
export interface PersonSync {
  teams: string[];
  repos: ReadersChange | null;
}

async function ghGet(gh: GitHubAuthConfig, token: string, path: string, fetchFn: typeof fetch): Promise<Response> {
  return fetchFn(`${gh.apiUrl}${path}`, {
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/vnd.github+json",
      "user-agent": "codebase-copilot",
      "x-github-api-version": "2022-11-28",
    },
  });
}

/** The ids of every repository the token's user can read, or null when GitHub did not list them all. */
export async function listUserRepoIds(gh: GitHubAuthConfig, token: string, fetchFn: typeof fetch = fetch): Promise<Set<string> | null> {
  const ids = new Set<string>();
  for (let page = 1; page <= USER_REPOS_MAX_PAGES; page++) {
    const res = await ghGet(gh, token, `/user/repos?affiliation=owner,collaborator,organization_member&per_page=100&page=${page}`, fetchFn).catch(() => null);
    if (!res || res.status !== 200) return null;
    const body = (await res.json().catch(() => null)) as { id?: unknown }[] | null;
    if (!Array.isArray(body)) return null;
    for (const r of body) if (typeof r.id === "number") ids.add(String(r.id));
    if (!/rel="next"/.test(res.headers.get("link") ?? "")) return ids;
  }
  return null;
}

/** Teams (`org/slug`) named by some access list that `login` actively belongs to. */
async function accessListTeams(env: Env, gh: GitHubAuthConfig, token: string, login: string, fetchFn: typeof fetch): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT DISTINCT substr(principal, 6) AS team FROM repo_readers WHERE source = 'admin' AND principal LIKE 'team:%' ORDER BY team LIMIT ?",
  )
    .bind(TEAM_CHECKS_MAX)
    .all<{ team: string }>();
  const out: string[] = [];
  for (const { team } of results) {
    const [org, slug] = team.split("/");
    const res = await ghGet(
      gh,
      token,
      `/orgs/${encodeURIComponent(org)}/teams/${encodeURIComponent(slug)}/memberships/${encodeURIComponent(login)}`,
      fetchFn,
    ).catch(() => null);
    const body = res?.status === 200 ? ((await res.json().catch(() => null)) as { state?: unknown } | null) : null;
    if (body?.state === "active") out.push(team);
  }
  return out;
}

/** Restricted repos registered through GitHub connections on `apiUrl`, with their upstream ids. */
async function connectionRepos(env: Env, apiUrl: string): Promise<{ repo: string; upstream_id: string }[]> {
  const { results } = await env.DB.prepare(
    `SELECT cr.repo AS repo, cr.upstream_id AS upstream_id FROM connection_repos cr
       JOIN connections c ON c.id = cr.connection_id JOIN repos r ON r.id = cr.repo
     WHERE c.provider = 'github' AND rtrim(c.base_url, '/') = ? AND cr.registered_at IS NOT NULL AND r.visibility IN ('private', 'internal')`,
  )
    .bind(apiUrl.replace(/\/+$/, ""))
    .all<{ repo: string; upstream_id: string }>();
  return results;
}

/** Runs the person's sync (see the module note) at `now`. */
export async function syncGithubPerson(
  env: Env,
  gh: GitHubAuthConfig,
  token: string,
  login: string,
  now: number,
  fetchFn: typeof fetch = fetch,
): Promise<PersonSync> {
  const teams = await accessListTeams(env, gh, token, login, fetchFn);
  const ids = await listUserRepoIds(gh, token, fetchFn);
  if (!ids) return { teams, repos: null };
  const scope = await connectionRepos(env, gh.apiUrl);
  const readable = scope.filter((r) => ids.has(r.upstream_id)).map((r) => r.repo);
  const repos = await replacePersonRepos(
    env,
    `github:${login.toLowerCase()}`,
    scope.map((r) => r.repo),
    readable,
    now,
  );
  return { teams, repos };
}
