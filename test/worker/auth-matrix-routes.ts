/**
 * The REST routes of the auth matrix (auth-matrix.test.ts, auth-matrix-person.test.ts), enumerated
 * from the Hono app so new routes are covered automatically, with params aimed at the secret repo.
 */
import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { createApiApp } from "../../worker/api/app";
import { PUBLIC_PATHS } from "../../worker/api/openapi/document";

/** Marker inside the secret repo's code: must never appear in a refused response. */
export const SECRET_MARKER = "zebraquokka_secret_7781";
export const SECRET_PATH = "src/vault/keys.ts";

export type Scope = "search" | "index" | "admin";

/**
 * The scope a route needs, written out independently of worker/auth/route-scopes.ts (the spec,
 * not the implementation): /tokens admin; reads and searches search; other writes and the list
 * of skipped files index. Scopes are ordered: search < index < admin.
 */
export function requiredScope(method: string, path: string): Scope {
  if (path.startsWith("/tokens")) return "admin";
  // PATCH /repos/:id: refs need index, access admin (the matrix body carries neither: index).
  if (method === "DELETE" && path === "/repos/:id") return "admin";
  if (path === "/repos/:id/access") return "admin";
  if (path === "/repos/:id/webhook" || path.startsWith("/connections")) return "admin";
  if (path === "/repos/:id/skipped") return "index";
  if (/^\/(search|grep|ask|source-links|suggest-tests)(\/|$)/.test(path) || method === "GET") return "search";
  return "index";
}

/** Every REST route except the public ones (/health, the API index and its documentation), with params filled in to aim at the secret repo. */
export function routes(): { method: string; path: string; url: string; scope: Scope }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string; url: string; scope: Scope }[] = [];
  for (const r of createApiApp().routes) {
    if (r.method === "ALL" && r.path.endsWith("*")) continue; // middleware
    // Public, or authenticated by signature (webhooks: test/worker/webhooks.test.ts covers them).
    if (PUBLIC_PATHS.includes(r.path.replace(/:(\w+)/g, "{$1}"))) continue;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const filled = r.path.replace(/:(\w+)/g, (_, name: string) => (/^(id|repo)$/.test(name) ? "secret-repo" : "x")).replace(/\*$/, SECRET_PATH);
    out.push({
      method: r.method,
      path: r.path,
      url: `/api${filled}?q=zebraquokka&pattern=zebraquokka&repo=secret-repo&path=${SECRET_PATH}&symbol=vaultKey&name=vaultKey&line=2&start=1&end=3`,
      scope: requiredScope(r.method, r.path),
    });
  }
  return out;
}

/** Calls a route with a JSON body aimed at the secret repo; `authorization` or extra headers (a session cookie and CSRF token). */
export async function call(method: string, url: string, authorization?: string, extra: Record<string, string> = {}): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", ...extra };
  if (authorization !== undefined) headers.authorization = authorization;
  const hasBody = !["GET", "HEAD"].includes(method);
  const body = hasBody
    ? JSON.stringify({
        q: "zebraquokka",
        pattern: "zebraquokka",
        repo: "secret-repo",
        repos: ["secret-repo"],
        path: SECRET_PATH,
        name: "x",
        scopes: ["admin"],
        intervalSeconds: 600,
        question: "where is zebraquokka?",
        access: "everyone",
      })
    : undefined;
  return SELF.fetch(`http://localhost${url}`, { method, headers, body });
}

export function expectNoData(text: string): void {
  expect(text).not.toContain(SECRET_MARKER);
  expect(text).not.toContain("vault/keys");
  expect(text).not.toContain("ccp_");
}
