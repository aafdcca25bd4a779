/**
 * @module worker/services/context
 *
 * What every service function receives: bindings, validated config and the caller. REST routes
 * and MCP tools build one per request and pass it to the same service functions.
 */
import { z } from "zod";
import { loadConfig, type Config, type Env } from "../../kernel/env";
import { CodeSearchError } from "../../kernel/errors";

/**
 * Permission scopes, each including the ones before it (search < index < admin): `search`
 * reads, `index` also adds and refreshes repos, `admin` also manages tokens, connections and
 * webhooks. `scopeCovers` is the one place that order is applied.
 */
export const scopeSchema = z.enum(["search", "index", "admin"]);
export type Scope = z.infer<typeof scopeSchema>;

/** Every scope, lowest first (the order of `scopeSchema`). */
export const SCOPES_LOW_TO_HIGH: readonly Scope[] = scopeSchema.options;

/**
 * Whether holding `held` grants `needed`: some held scope is `needed` or above it.
 * @example scopeCovers(["index"], "search") // true
 * @example scopeCovers(["search"], "index") // false
 */
export function scopeCovers(held: readonly string[], needed: Scope): boolean {
  const rank = SCOPES_LOW_TO_HIGH.indexOf(needed);
  return held.some((s) => SCOPES_LOW_TO_HIGH.indexOf(s as Scope) >= rank);
}

/** Every scope `held` grants, lowest first: `["index"]` -> `["search", "index"]`. */
export function impliedScopes(held: readonly string[]): Scope[] {
  return SCOPES_LOW_TO_HIGH.filter((s) => scopeCovers(held, s));
}

/** The authenticated caller. `repos` is an allowlist of repo ids, or "*" for every repo. */
export interface Caller {
  id: string;
  kind: "admin-token" | "api-token" | "oauth" | "session";
  scopes: Scope[];
  repos: string[] | "*";
  /** When this credential stops working (ms since epoch), when known (API tokens); absent: no expiry known. */
  expiresAt?: number;
  /**
   * The credential this caller presented, never its secret: `token:<api token id>`,
   * `grant:<oauth grant id>:<user id>`, `session:<sha-256 of the session id>` or
   * `admin:<first 16 hex of sha-256 of ADMIN_TOKEN>`. Source links are bound to it
   * (worker/auth/link-credential.ts) so revoking it ends them.
   */
  credential?: string;
  /**
   * For a person signed in through the code host: their principal (`github:<login>`), their role
   * there, and the access-list teams (`team:<org>/<slug>`) they were found in at sign-in or at
   * the last token refresh. Absent for the local admin, API tokens and local sign-ins.
   */
  person?: { principal: string; role: "reader" | "admin"; teams?: string[] };
  /**
   * Restricted repos (visibility `private`, `internal`, `listed`) this caller may read, as loaded
   * for this request by `withReadable` (worker/auth/permissions.ts), or "*" for every one. Absent:
   * none (a caller whose set was never loaded sees no restricted repo: fail closed).
   */
  reads?: string[] | "*";
}

/** Per-request context handed to service functions. */
export interface ServiceContext {
  env: Env;
  config: Config;
  caller: Caller;
}

/** The local admin: every scope, every repo. */
export const LOCAL_ADMIN: Caller = { id: "local-admin", kind: "admin-token", scopes: ["search", "index", "admin"], repos: "*", reads: "*" };

/** Builds a context; `loadConfig` throws naming a bad variable. */
export function serviceContext(env: Env, caller: Caller): ServiceContext {
  return { env, config: loadConfig(env), caller };
}

/**
 * Whether the caller's credential names `repo` (its token allowlist). This alone decides only
 * who may manage a repo (register, upload, schedule, webhook); reading code goes through `canSee`.
 */
export function callerAllows(caller: Caller, repo: string): boolean {
  return caller.repos === "*" || caller.repos.includes(repo);
}

/**
 * Repo visibilities shown to every caller the credential allows (migrations/0027_repo_permissions.sql);
 * any other value (`private`, `internal`, `listed`, or a row read without the column) is restricted.
 */
export const OPEN_VISIBILITIES: readonly string[] = ["everyone", "public"];

/** The columns of a `repos` row that decide whether it serves and to whom (migrations 0022, 0027). */
export interface RepoVisibility {
  id: string;
  /** Set (ms) when the repo's connection can no longer see it upstream; null while it serves. */
  withdrawn_at: number | null;
  /** `everyone`, `public`, `private`, `internal` or `listed`; the last three are restricted. */
  visibility: string;
}

/**
 * The one visibility rule for reading a repo's code, names or statistics (search, grep, files,
 * symbols, ask evidence, review context, MCP resources, source links): the caller's credential
 * names it, it is not withdrawn, and, when its visibility is restricted (private or internal on
 * the code host, or an admin's access list), the caller's readable set (`Caller.reads`, loaded
 * per request from `repo_readers`) holds it. A withdrawn repo is invisible to every caller, admins
 * included, while its index is kept for the connection's grace period.
 */
export function canSee(caller: Caller, repo: RepoVisibility): boolean {
  if (repo.withdrawn_at !== null || !callerAllows(caller, repo.id)) return false;
  // Fail closed: a row read without its visibility counts as restricted.
  if (OPEN_VISIBILITIES.includes(repo.visibility)) return true;
  return caller.reads === "*" || (caller.reads?.includes(repo.id) ?? false);
}

/** Whether the caller holds `scope` or a higher one (`scopeCovers`: search < index < admin). */
export function hasScope(caller: Caller, scope: Scope): boolean {
  return scopeCovers(caller.scopes, scope);
}

/** Throws `forbidden` unless the caller holds `scope` or a higher one (`scopeCovers`). */
export function requireScope(caller: Caller, scope: Scope): void {
  if (!hasScope(caller, scope)) {
    throw new CodeSearchError("forbidden", `This needs the "${scope}" scope; ask an admin for a token that has it.`);
  }
}
