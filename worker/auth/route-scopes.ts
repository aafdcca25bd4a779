/**
 * @module worker/auth/route-scopes
 *
 * The scope floor every REST route gets from the auth middleware, so a route that forgets its
 * own `requireScope` still cannot leak: token management needs `admin`; searching and reading
 * indexed content (every GET, and /search, /grep, /ask, /source-links) need `search`; other writes need
 * `index`; deleting a repo needs `admin`. Routes may demand more, never less. The auth-matrix test uses
 * the same rule.
 */
import type { Scope } from "../services/context";

/** Minimum scope for `method path` (path relative to /api, e.g. `/repos/x/files/a.ts`). */
export function requiredScopeFor(method: string, path: string): Scope {
  if (path === "/tokens" || path.startsWith("/tokens/")) return "admin";
  // Deleting a repo destroys an index others rely on (worker/services/repos.ts deleteRepo).
  if (method === "DELETE" && /^\/repos\/[^/]+\/?$/.test(path)) return "admin";
  if (/^\/(search|grep|ask|source-links)(\/|$)/.test(path)) return "search";
  return method === "GET" || method === "HEAD" ? "search" : "index";
}
