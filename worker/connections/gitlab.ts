/**
 * @module worker/connections/gitlab
 *
 * Lists a GitLab group's (with its subgroups) or user's projects over the REST API v4 with
 * plain fetch (gitlab.com or a self-managed instance: `baseUrl` is the instance root, e.g.
 * `https://gitlab.example.com`). Offset pagination, 100 per page, following `x-next-page`
 * (or `Link: rel="next"` on the same origin); rate limits are handled by http.ts.
 * The token goes in `Authorization: Bearer` (personal, group and OAuth tokens all take it).
 */
import { CodeSearchError } from "../../kernel/errors";
import { READERS_MAX } from "../permissions/readers";
import { codeHostFetch } from "./http";
import { CONNECTION_MAX_REPOS, type CodeHostAccess, type CodeHostClient, type OwnerKind, type UpstreamRepo } from "./types";

interface GitLabProject {
  id: number;
  path: string;
  path_with_namespace: string;
  http_url_to_repo: string;
  archived?: boolean;
  forked_from_project?: unknown;
  visibility?: string;
}

/** A member as `/projects/:id/members/all` lists them (inherited group members included). */
interface GitLabMember {
  username: string;
  state?: string;
  access_level: number;
}

/** Reporter: the lowest GitLab role that may read a private project's code (Guests may not). */
const GITLAB_REPORTER = 20;

/** The next page's URL from `x-next-page` or a same-origin `Link: <...>; rel="next"`, or null. */
export function nextPageUrl(res: Response, current: URL): URL | null {
  const next = res.headers.get("x-next-page");
  if (next) {
    const u = new URL(current);
    u.searchParams.set("page", next);
    return u;
  }
  const link = res.headers.get("link") ?? "";
  const m = /<([^>]+)>;\s*rel="next"/.exec(link);
  if (!m) return null;
  const u = new URL(m[1], current);
  return u.origin === current.origin ? u : null;
}

/** A GitLab client for `access` (`maxWaitMs`: longest rate-limit wait slept, see http.ts). */
export function gitlabClient(access: CodeHostAccess, maxWaitMs: number): CodeHostClient {
  const root = access.baseUrl.replace(/\/+$/, "");
  const api = `${root}/api/v4`;
  const doFetch = codeHostFetch({ apiOrigin: new URL(root).origin, allowLoopback: access.allowLoopback, maxWaitMs });
  const headers: Record<string, string> = { accept: "application/json", ...(access.token ? { authorization: `Bearer ${access.token}` } : {}) };
  const get = async (url: URL | string): Promise<Response> => {
    const res = await doFetch(url.toString(), { headers });
    if (res.status === 401)
      throw new CodeSearchError("source_unreachable", "GitLab rejected the token (401 Unauthorized); pass a token with the read_api scope.");
    if (res.status === 403) throw new CodeSearchError("source_unreachable", "GitLab refused the request (403); the token lacks the read_api scope or access.");
    return res;
  };
  return {
    async resolveOwner(owner) {
      if (access.token) await (await get(`${api}/user`)).body?.cancel(); // a bad token is told apart from a missing owner
      const group = await get(`${api}/groups/${encodeURIComponent(owner)}?with_projects=false`);
      await group.body?.cancel();
      if (group.ok) return "group";
      const users = await get(`${api}/users?username=${encodeURIComponent(owner)}`);
      const list = users.ok ? ((await users.json()) as unknown[]) : [];
      if (list.length) return "user";
      throw new CodeSearchError("invalid_input", `owner: GitLab at ${root} has no group or user "${owner}"${access.token ? " that this token can see" : ""}.`);
    },
    async listRepos(owner: string, kind: OwnerKind) {
      const path = kind === "group" ? `groups/${encodeURIComponent(owner)}/projects?include_subgroups=true&` : `users/${encodeURIComponent(owner)}/projects?`;
      let url: URL | null = new URL(`${api}/${path}per_page=100&order_by=id&sort=asc`);
      const out: UpstreamRepo[] = [];
      while (url) {
        const res = await get(url);
        if (!res.ok) throw new CodeSearchError("source_unreachable", `GitLab answered ${res.status} while listing the projects of "${owner}".`);
        for (const p of (await res.json()) as GitLabProject[]) {
          out.push({
            id: String(p.id),
            fullName: p.path_with_namespace,
            name: p.path,
            cloneUrl: p.http_url_to_repo,
            fork: p.forked_from_project != null,
            archived: p.archived ?? false,
            // Anything GitLab does not spell out counts as private (fail closed).
            visibility: p.visibility === "public" || p.visibility === "internal" ? p.visibility : "private",
          });
        }
        if (out.length > CONNECTION_MAX_REPOS)
          throw new CodeSearchError(
            "invalid_input",
            `include: the owner has more than ${CONNECTION_MAX_REPOS} projects; narrow the connection with "include" globs.`,
          );
        url = nextPageUrl(res, url);
      }
      return out;
    },
    // GET /projects/:id/members/all: direct, inherited (group and ancestor groups) and invited
    // members; Reporter and above read code. Needs `read_api`.
    async listReaders(repo) {
      let url: URL | null = new URL(`${api}/projects/${encodeURIComponent(repo.id)}/members/all?per_page=100`);
      const out: string[] = [];
      while (url && out.length < READERS_MAX) {
        const res = await get(url);
        if (!res.ok) throw new CodeSearchError("source_unreachable", `GitLab answered ${res.status} while listing the members of "${repo.fullName}".`);
        for (const m of (await res.json()) as GitLabMember[]) {
          if (m.access_level >= GITLAB_REPORTER && (m.state ?? "active") === "active") out.push(`gitlab:${m.username.toLowerCase()}`);
        }
        url = nextPageUrl(res, url);
      }
      return out.slice(0, READERS_MAX);
    },
  };
}
