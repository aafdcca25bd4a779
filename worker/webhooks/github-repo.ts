/**
 * @module worker/webhooks/github-repo
 *
 * Which GitHub repository a pull-request delivery may act on: the one the verified repo was
 * registered from, read from its git URL, never the payload's `repository.full_name` (issue 43:
 * with one repo's secret, a delivery naming another repository made the server fetch that PR's
 * diff and post a review there with GITHUB_REVIEW_TOKEN). Pure: no I/O.
 */

/** `owner/name` as GitHub spells repositories (letters, digits, `.`, `-`, `_`). */
const FULL_NAME = /^[\w.-]+\/[\w.-]+$/;

/**
 * The host GitHub serves repositories on, for the API base `apiUrl`: `https://api.github.com`
 * -> `github.com`; GitHub Enterprise `https://ghe.example.com/api/v3` -> `ghe.example.com`.
 * Lower case, without a port. Null for something that is not a URL.
 */
export function githubWebHost(apiUrl: string): string | null {
  try {
    const host = new URL(apiUrl).hostname.toLowerCase();
    return host.startsWith("api.") ? host.slice(4) : host;
  } catch {
    return null;
  }
}

/**
 * The `owner/name` of a repo registered from `gitUrl` when that URL is a repository on the
 * GitHub at `apiUrl` (`https://github.com/acme/shop.git` -> `acme/shop`), else null: another
 * host, an archive (no URL), or a path that is not `owner/name`.
 */
export function githubRepoOf(gitUrl: string | null, apiUrl: string): string | null {
  if (!gitUrl) return null;
  let u: URL;
  try {
    u = new URL(gitUrl);
  } catch {
    return null;
  }
  if (u.hostname.toLowerCase() !== githubWebHost(apiUrl)) return null;
  const path = u.pathname
    .replace(/^\/+|\/+$/g, "")
    .replace(/\.git$/i, "")
    .replace(/\/+$/, "");
  return FULL_NAME.test(path) ? path : null;
}

/** Whether two `owner/name`s are the same repository (GitHub compares them without case). */
export function sameGitHubRepo(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
