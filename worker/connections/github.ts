/**
 * @module worker/connections/github
 *
 * Lists a GitHub organisation's or user's repositories with @octokit/rest (GitHub.com or
 * GitHub Enterprise Server: `baseUrl` is the API root, e.g. `https://ghe.example.com/api/v3`).
 * Pagination is Octokit's (`per_page` 100, `Link: rel="next"`); rate limits are handled by the
 * fetch it is given (http.ts). A user's own private repositories are listed when the token is
 * that user's (`GET /user/repos?affiliation=owner`); an organisation's `type=all` includes the
 * private ones the token may see.
 */
import { Octokit } from "@octokit/rest";
import { CodeSearchError } from "../../kernel/errors";
import { codeHostFetch } from "./http";
import { READERS_MAX } from "../permissions/readers";
import { CONNECTION_MAX_REPOS, type CodeHostAccess, type CodeHostClient, type OwnerKind, type RepoHostVisibility, type UpstreamRepo } from "./types";

interface GitHubRepo {
  id: number;
  full_name: string;
  name: string;
  clone_url?: string;
  fork: boolean;
  archived?: boolean;
  private?: boolean;
  visibility?: string;
}

/** GitHub's `visibility`, or `private` when it says nothing but `private: true` (fail closed on anything unknown). */
function visibilityOf(r: GitHubRepo): RepoHostVisibility {
  if (r.visibility === "public" || r.visibility === "private" || r.visibility === "internal") return r.visibility;
  return r.private === false ? "public" : "private";
}

function toUpstream(r: GitHubRepo): UpstreamRepo {
  return {
    id: String(r.id),
    fullName: r.full_name,
    name: r.name,
    cloneUrl: r.clone_url ?? "",
    fork: r.fork,
    archived: r.archived ?? false,
    visibility: visibilityOf(r),
  };
}

/** GitHub's HTTP errors as coded errors; anything else is rethrown. */
function githubError(err: unknown, owner: string, withToken: boolean): never {
  // Octokit wraps what its fetch threw (http.ts: rate_limited, a refused host) in a RequestError 500.
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof CodeSearchError) throw cause;
  const status = (err as { status?: number }).status;
  if (err instanceof CodeSearchError || status === undefined) throw err;
  if (status === 401)
    throw new CodeSearchError(
      "source_unreachable",
      "GitHub rejected the token (401 Bad credentials); pass a valid token with read access to the repositories.",
    );
  if (status === 404)
    throw new CodeSearchError("invalid_input", `owner: GitHub has no organisation or user "${owner}"${withToken ? " that this token can see" : ""}.`);
  if (status === 403) throw new CodeSearchError("source_unreachable", `GitHub refused to list the repositories of "${owner}" (403); the token lacks access.`);
  throw new CodeSearchError("source_unreachable", `GitHub answered ${status} while listing the repositories of "${owner}".`);
}

/** A GitHub client for `access` (`maxWaitMs`: longest rate-limit wait slept, see http.ts). */
export function githubClient(access: CodeHostAccess, maxWaitMs: number): CodeHostClient {
  const baseUrl = access.baseUrl.replace(/\/+$/, "");
  const octokit = new Octokit({
    ...(access.token ? { auth: access.token } : {}),
    baseUrl,
    userAgent: "codebase-copilot",
    request: { fetch: codeHostFetch({ apiOrigin: new URL(baseUrl).origin, allowLoopback: access.allowLoopback, maxWaitMs }) },
  });
  const withToken = !!access.token;
  const collect = async (iterator: AsyncIterable<{ data: GitHubRepo[] }>): Promise<UpstreamRepo[]> => {
    const out: UpstreamRepo[] = [];
    for await (const page of iterator) {
      for (const r of page.data) out.push(toUpstream(r));
      if (out.length > CONNECTION_MAX_REPOS)
        throw new CodeSearchError(
          "invalid_input",
          `include: the owner has more than ${CONNECTION_MAX_REPOS} repositories; narrow the connection with "include" globs.`,
        );
    }
    return out;
  };
  return {
    async resolveOwner(owner) {
      try {
        if (withToken) await octokit.rest.users.getAuthenticated(); // a bad token is told apart from a missing owner
        const { data } = await octokit.rest.users.getByUsername({ username: owner });
        return data.type === "Organization" ? "org" : "user";
      } catch (err) {
        githubError(err, owner, withToken);
      }
    },
    async listRepos(owner: string, kind: OwnerKind) {
      try {
        if (kind === "org") return await collect(octokit.paginate.iterator(octokit.rest.repos.listForOrg, { org: owner, type: "all", per_page: 100 }));
        if (withToken) {
          const me = (await octokit.rest.users.getAuthenticated()).data.login;
          if (me.toLowerCase() === owner.toLowerCase())
            return await collect(octokit.paginate.iterator(octokit.rest.repos.listForAuthenticatedUser, { affiliation: "owner", per_page: 100 }));
        }
        return await collect(octokit.paginate.iterator(octokit.rest.repos.listForUser, { username: owner, type: "owner", per_page: 100 }));
      } catch (err) {
        githubError(err, owner, withToken);
      }
    },
    // GET /repos/{owner}/{repo}/collaborators?affiliation=all: outside collaborators, direct and
    // team members and org owners (the token needs push access, or a fine-grained token's
    // "Metadata: read" on the repo). Every collaborator can read.
    async listReaders(repo) {
      const [owner, name] = repo.fullName.split("/");
      const out: string[] = [];
      try {
        const pages = octokit.paginate.iterator(octokit.rest.repos.listCollaborators, { owner, repo: name, affiliation: "all", per_page: 100 });
        for await (const page of pages) {
          for (const u of page.data) out.push(`github:${u.login.toLowerCase()}`);
          if (out.length >= READERS_MAX) break;
        }
      } catch (err) {
        const status = (err as { status?: number }).status;
        if (status === 403 || status === 404)
          throw new CodeSearchError(
            "source_unreachable",
            `GitHub refused to list the collaborators of "${repo.fullName}" (${status}); give the connection's token push access (classic) or "Metadata: read" (fine-grained) so it can prove who may read it.`,
          );
        githubError(err, repo.fullName, withToken);
      }
      return out.slice(0, READERS_MAX);
    },
  };
}
