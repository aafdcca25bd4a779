/**
 * @module worker/auth/caller
 *
 * Turns a credential into a `Caller` (worker/services/context.ts): the local admin token, an API
 * token, or an OAuth access token issued by this Worker. Also defines the `props` stored with
 * every OAuth grant, which the MCP handler receives as `ctx.props`.
 */
import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import type { Caller, Scope } from "../services/context";
import { LOCAL_ADMIN, scopeCovers } from "../services/context";
import { verifyApiToken, type ApiTokenRejection } from "./api-tokens";
import type { AuthConfig } from "./config";
import { sha256Hex, timingSafeEqualText } from "./crypto";

/** Roles an upstream login maps to. `reader` searches; `admin` also indexes and manages tokens. */
export type Role = "reader" | "admin";

/** Scopes a role grants. */
export function scopesForRole(role: Role): Scope[] {
  return role === "admin" ? ["search", "index", "admin"] : ["search"];
}

/** Scope granted when an authorization request names none: the least that MCP access needs. */
export const DEFAULT_OAUTH_SCOPES: readonly Scope[] = ["search"];

/**
 * Scopes an OAuth grant gets: those requested that the signing-in identity may have
 * (`requested ∩ allowed`), or `search` when the request names none (if the identity has it).
 * Unknown scope names are ignored. An empty result means nothing can be granted.
 * @example grantedScopes(["search"], ["search", "index", "admin"]) // ["search"]
 * @example grantedScopes([], ["search", "index", "admin"]) // ["search"]
 */
export function grantedScopes(requested: readonly string[], allowed: readonly Scope[]): Scope[] {
  const asked = requested.length ? requested : DEFAULT_OAUTH_SCOPES;
  return scopesForRole("admin").filter((s) => asked.includes(s) && allowed.includes(s));
}

/**
 * What an OAuth grant carries (`completeAuthorization({props})`), encrypted in KV by the provider.
 * `/mcp` handlers get it as `ctx.props`; use `callerFromProps(ctx.props)` rather than reading it.
 */
export interface AuthProps {
  v: 1;
  caller: Caller;
  /** Display name: GitHub login or "local admin". Never a secret. */
  login: string;
  /**
   * The person's GitHub token from sign-in, kept (encrypted with the grant) only so a token refresh
   * can check their membership and readable repos again (worker/permissions/refresh.ts).
   */
  upstream?: { githubToken: string };
}

function isScope(s: unknown): s is Scope {
  return s === "search" || s === "index" || s === "admin";
}

function isPerson(p: unknown): p is NonNullable<Caller["person"]> {
  const x = p as NonNullable<Caller["person"]>;
  return (
    typeof x === "object" &&
    x !== null &&
    typeof x.principal === "string" &&
    (x.role === "reader" || x.role === "admin") &&
    (x.teams === undefined || (Array.isArray(x.teams) && x.teams.every((t) => typeof t === "string")))
  );
}

/** Validates props handed over by the OAuth provider. Throws TypeError on anything unexpected. */
export function callerFromProps(props: unknown): Caller {
  const p = props as Partial<AuthProps> | null;
  const c = p?.caller;
  const ok =
    p?.v === 1 &&
    c !== undefined &&
    typeof c.id === "string" &&
    ["admin-token", "api-token", "oauth", "session"].includes(c.kind) &&
    Array.isArray(c.scopes) &&
    c.scopes.every(isScope) &&
    (c.repos === "*" || (Array.isArray(c.repos) && c.repos.every((r) => typeof r === "string"))) &&
    (c.expiresAt === undefined || typeof c.expiresAt === "number") &&
    (c.credential === undefined || typeof c.credential === "string") &&
    (c.person === undefined || isPerson(c.person));
  if (!ok) throw new TypeError("OAuth props are not AuthProps v1; the grant predates this version: sign in again");
  return c;
}

/** Narrows a caller's scopes to those an OAuth token was granted (a granted scope implies those below it). */
export function narrowScopes(caller: Caller, granted: readonly string[]): Caller {
  return { ...caller, scopes: caller.scopes.filter((s) => scopeCovers(granted, s)) };
}

/** Result of checking a bearer credential. */
export type BearerResult = { caller: Caller } | { rejected: ApiTokenRejection | "malformed" };

/** Shape of an access token this Worker's OAuth provider issues: `userId:grantId:secret`. */
export function isProviderToken(token: string): boolean {
  return token.split(":").length === 3;
}

/** `Caller.credential` of a provider-issued token: `grant:<grantId>:<userId>` (never its secret part). */
export function grantCredential(token: string): string {
  const [userId, grantId] = token.split(":");
  return `grant:${grantId}:${userId}`;
}

/** `Caller.credential` of the local admin token: a digest prefix, so changing ADMIN_TOKEN ends its links. */
export async function adminCredential(adminToken: string): Promise<string> {
  return `admin:${(await sha256Hex(adminToken)).slice(0, 16)}`;
}

/**
 * Checks a non-OAuth bearer token: the local admin token or an API token. `defer` receives
 * bookkeeping writes (ctx.waitUntil).
 */
export async function resolveStaticBearer(
  db: D1Database,
  config: AuthConfig,
  token: string,
  now: number,
  defer: (p: Promise<unknown>) => void,
): Promise<BearerResult> {
  if (!/^[\x21-\x7e]{8,512}$/.test(token)) return { rejected: "malformed" };
  if (config.adminToken && (await timingSafeEqualText(token, config.adminToken)))
    return { caller: { ...LOCAL_ADMIN, credential: await adminCredential(config.adminToken) } };
  return verifyApiToken(db, token, now, defer);
}

/**
 * Checks any bearer token presented to REST: an OAuth access token of this Worker (any audience
 * it issues: REST and MCP are one service with one permission model), or a static one.
 */
export async function resolveRestBearer(
  db: D1Database,
  config: AuthConfig,
  oauth: OAuthHelpers,
  token: string,
  now: number,
  defer: (p: Promise<unknown>) => void,
): Promise<BearerResult> {
  if (isProviderToken(token)) {
    // unwrapToken returns null for unknown, revoked and expired tokens alike.
    const summary = await oauth.unwrapToken<AuthProps>(token).catch(() => null);
    if (!summary) return { rejected: "unknown" };
    return { caller: { ...narrowScopes(callerFromProps(summary.grant.props), summary.scope), credential: grantCredential(token) } };
  }
  return resolveStaticBearer(db, config, token, now, defer);
}
