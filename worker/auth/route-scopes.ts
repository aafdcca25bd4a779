/**
 * @module worker/auth/route-scopes
 *
 * The scope floor every REST route gets from the auth middleware, so a route that forgets its
 * own `requireScope` still cannot leak: token management needs `admin`; searching and reading
 * indexed content (every GET, and /search, /grep, /ask, /source-links, /suggest-tests) need `search`; other writes
 * need `index` (PATCH of a repo too: its `access` is checked for `admin` by the service), and so
 * does the list of skipped files; deleting a repo, reading who may read it, its webhook secret,
 * connections, moving a repo between shards and the shards' fill need `admin`. Scopes are ordered (search < index < admin, `scopeCovers`).
 *
 * This is also the scope the OpenAPI document declares for each operation
 * (worker/api/openapi/document.ts), so it must be exactly what the route enforces: a service
 * that demands more than this floor is listed here too (test/worker/openapi-scopes.test.ts
 * compares the two for every route). The auth-matrix test uses the same rule. `/webhooks/*` is
 * mounted before the middleware: deliveries are authenticated by their signature (worker/webhooks/handle.ts).
 */
import type { Scope } from "../services/context";

/** Minimum scope for `method path` (path relative to /api, e.g. `/repos/x/files/a.ts`). */
export function requiredScopeFor(method: string, path: string): Scope {
  if (path === "/tokens" || path.startsWith("/tokens/")) return "admin";
  // Who did what, and people's sign-ins: admins only (worker/services/audit.ts, grants.ts).
  if (/^\/(audit|grants)(\/|$)/.test(path)) return "admin";
  // Deleting a repo destroys an index others rely on (worker/services/repos.ts deleteRepo).
  if (method === "DELETE" && /^\/repos\/[^/]+\/?$/.test(path)) return "admin";
  // PATCH /repos/{id} falls to the write floor (index): its `refs` need index, its `access` (who
  // may read the repo) admin, which worker/services/repo-refs.ts checks before writing either.
  // Who may read a repo (worker/services/repo-access.ts).
  if (/^\/repos\/[^/]+\/access\/?$/.test(path)) return "admin";
  // A webhook secret lets its holder trigger re-indexing; connections hold code-host tokens.
  if (/^\/repos\/[^/]+\/webhook\/?$/.test(path)) return "admin";
  if (path === "/connections" || path.startsWith("/connections/")) return "admin";
  // Shards: moving a repo re-indexes it elsewhere; their fill is an operator's view (worker/services/shards.ts).
  if (method === "POST" && /^\/repos\/[^/]+\/move\/?$/.test(path)) return "admin";
  if (/^\/health\/shards\/?$/.test(path)) return "admin";
  // Skipped files name paths search never shows, such as credential files (worker/services/skipped.ts).
  if (/^\/repos\/[^/]+\/skipped\/?$/.test(path)) return "index";
  if (/^\/(search|grep|ask|source-links|suggest-tests)(\/|$)/.test(path)) return "search";
  return method === "GET" || method === "HEAD" ? "search" : "index";
}
