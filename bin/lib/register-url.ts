/**
 * `codebase-copilot index <url> [--ref X]` against the API (issue #49): registers the URL, or,
 * when the repo exists, refreshes it (no ref, or its default ref) or tracks `X` on it besides
 * its default branch (`PATCH /api/repos/{id} {refs}`) so that X gets its own snapshot
 * (docs/refs.md). Never reports a refresh of the default branch as X indexed.
 */
import type { ApiClient } from "./api-client.ts";
import { ApiError } from "./api-error.ts";
import type { RefSync, RepoStatus } from "./api-types.ts";

/** The repo's status, and when `--ref` added or named an extra ref, the refs it tracks for it. */
export type RegisterOutcome = RepoStatus & {
  /** The extra refs `--ref` tracks (one for a name, several for a glob), each with its commit and whether a job was queued. */
  tracked?: RefSync["refs"];
};

/** Whether `asked` (as typed) names the full ref `full`, as git would resolve a short name. */
export function namesRef(asked: string, full: string): boolean {
  const a = asked.trim();
  return a === full || `refs/heads/${a}` === full || `refs/tags/${a}` === full || `refs/${a}` === full;
}

/** Whether `asked` is the repo's default ref (its `refs` default row, or its stored ref, or HEAD). */
function isDefaultRef(asked: string, s: RepoStatus): boolean {
  const a = asked.trim();
  if (a === "HEAD") return !s.ref;
  const def = s.refs?.find((r) => r.default);
  if (def && namesRef(a, def.name)) return true;
  return !!s.ref && (a === s.ref || namesRef(a, s.ref.startsWith("refs/") ? s.ref : `refs/heads/${s.ref}`));
}

function repoOf(data: unknown): RepoStatus {
  return (data as { repo?: RepoStatus }).repo ?? (data as RepoStatus);
}

/**
 * `POST /api/repos {url, ref?, name?}`; on `repo_exists`, finds the repo (by `name`, else by URL)
 * and refreshes it when `ref` is absent or its default ref, else adds `ref` to its tracked refs
 * and returns them in `tracked`. Rejects with `ApiError`: the API's (a ref that matches nothing is
 * 400 `invalid_input`, past the refs limit too), and 400 for `ref` on an archive repo.
 */
export async function registerUrl(api: ApiClient, url: string, o: { ref?: string; name?: string }): Promise<RegisterOutcome> {
  try {
    return repoOf(await api.call("POST", "/api/repos", { json: { url, ...(o.ref ? { ref: o.ref } : {}), ...(o.name ? { name: o.name } : {}) } }));
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "repo_exists") throw err;
    const repos = await api.listRepos();
    // The 409 names the id asked for: `name` when given (two repos may share a URL), else the URL's.
    const existing = repos.find((r) => (o.name !== undefined ? r.id === o.name : r.url === url));
    if (!existing) throw err;
    if (!o.ref || isDefaultRef(o.ref, existing)) return api.refresh(existing.id);
    if (existing.refsNote) {
      throw new ApiError(400, "invalid_input", `Repo "${existing.id}" has no refs (${existing.refsNote}): nothing was indexed for "${o.ref}".`);
    }
    const before = existing.refPatterns ?? [];
    const sync = await api.setRefs(existing.id, [...before, o.ref]);
    const added = sync.patterns.filter((p) => !before.includes(p));
    const tracked = sync.refs.filter((r) => added.includes(r.pattern) || namesRef(o.ref!, r.name));
    return { ...(await api.status(existing.id)), tracked };
  }
}

/** One line saying what `--ref` did on an existing repo (`outcome.tracked` set). */
export function describeTracked(outcome: RegisterOutcome): string {
  const refs = outcome.tracked ?? [];
  if (!refs.length) return `Repo "${outcome.id}" now tracks the ref pattern, but no ref on the remote matches it yet: nothing was indexed.`;
  const parts = refs.map((r) => `${r.name} at ${r.commit.slice(0, 12)} (${r.action === "queued" ? "indexing" : "already indexed"})`);
  return `Repo "${outcome.id}" tracks ${parts.join(", ")} besides its default branch.`;
}
