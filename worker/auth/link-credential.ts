/**
 * @module worker/auth/link-credential
 *
 * Who a signed source link speaks for when it is opened: the credential it was minted under
 * (`Caller.credential`, signed into the link by source-links.ts), checked again now, so revoking
 * an API token, an OAuth grant or a web session, or changing ADMIN_TOKEN, ends its links at once
 * rather than when they expire (SOURCE_LINK_TTL_SECONDS).
 */
import type { Env } from "../../kernel/env";
import { LOCAL_ADMIN, scopeSchema, type Caller } from "../services/context";
import { apiTokenCallerById } from "./api-tokens";
import { adminCredential } from "./caller";
import { loadAuthConfig } from "./config";
import { oauthHelpersFor } from "./provider";
import { sessionRow } from "./sessions";
import { withReadable } from "../permissions/readable";

/** Most grants of one person read to find a link's grant (the provider's page limit). */
const GRANTS_READ_MAX = 1000;

/**
 * The credential a link minted by `caller` is bound to. A caller built without one (none of the
 * Worker's own paths) gets one that never opens: links fail closed.
 */
export function linkCredential(caller: Caller): string {
  return caller.credential ?? `unbound:${caller.id}`;
}

/** Why a link's credential no longer works, as shown on the page. */
export const CREDENTIAL_GONE =
  "The sign-in or token that made this link was revoked or has expired, so the link no longer works; ask for a fresh one from search.";

/**
 * The caller `credential` stands for now, or null when it was revoked, expired or is unknown.
 * `request` names the origin whose OAuth provider holds the grants.
 */
export async function callerForLink(env: Env, request: Request, credential: string, now: number): Promise<Caller | null> {
  const caller = await credentialCaller(env, request, credential, now);
  // The restricted repos it may read now, as for any request (worker/permissions/readable.ts).
  return caller && withReadable(env.DB, caller, now);
}

async function credentialCaller(env: Env, request: Request, credential: string, now: number): Promise<Caller | null> {
  const [kind, ...rest] = credential.split(":");
  const value = rest.join(":");
  if (kind === "token") {
    const r = await apiTokenCallerById(env.DB, value, now);
    return "caller" in r ? r.caller : null;
  }
  if (kind === "session") {
    const row = await sessionRow(env.DB, value, now);
    return row ? { ...(JSON.parse(row.caller) as Caller), credential } : null;
  }
  if (kind === "admin") {
    const token = loadAuthConfig(env).adminToken;
    return token && (await adminCredential(token)) === credential ? { ...LOCAL_ADMIN, credential } : null;
  }
  if (kind === "grant") {
    const [grantId, ...user] = rest;
    const userId = user.join(":");
    const grants = await oauthHelpersFor(request, env).listUserGrants(userId, { limit: GRANTS_READ_MAX });
    const grant = grants.items.find((g) => g.id === grantId);
    if (!grant || (grant.expiresAt !== undefined && grant.expiresAt * 1000 <= now)) return null;
    // Grants carry the scopes granted; repos follow the one visibility rule (`canSee`).
    const scopes = grant.scope.filter((s) => scopeSchema.safeParse(s).success) as Caller["scopes"];
    // The person is in the grant's metadata (worker/auth/routes/authorize.ts); without it, a
    // code-host user is a reader of nothing restricted (fail closed).
    const meta = (grant.metadata ?? {}) as { login?: unknown; role?: unknown; teams?: unknown };
    const person: Caller["person"] = userId.startsWith("github-")
      ? {
          principal: typeof meta.login === "string" ? `github:${meta.login.toLowerCase()}` : `unknown:${userId}`,
          role: meta.role === "admin" ? "admin" : "reader",
          teams: Array.isArray(meta.teams) ? meta.teams.filter((t): t is string => typeof t === "string") : [],
        }
      : undefined;
    return { id: userId, kind: "oauth", scopes, repos: "*", credential, ...(person ? { person } : {}) };
  }
  return null;
}
