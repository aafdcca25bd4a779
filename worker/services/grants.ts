/**
 * @module worker/services/grants
 *
 * A person's sign-ins (OAuth grants held by @cloudflare/workers-oauth-provider), listed and
 * revoked by an admin: one, or all of a person's at once. Revoking a grant deletes it and its
 * refresh and access tokens, so the client's next request or refresh fails (401) and source
 * links minted under it stop opening. `user` is the grant's user id: `github-<numeric id>` for
 * GitHub sign-ins (the `sign_in` audit entry names it), `local-admin` for the local provider.
 */
import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { z } from "zod";
import { CodeSearchError } from "../../kernel/errors";
import { requireScope, type Caller, type ServiceContext } from "./context";

/** Most grants listed for one person (the provider's page limit). */
export const GRANTS_LIST_MAX = 1000;

/** `?user=` of the grants routes. */
export const grantUserInput = z.object({ user: z.string().min(1).max(300).describe("The grant's user id: github-<numeric id>, or local-admin") }).strict();

/** One sign-in as an admin sees it: never a token. Times in ms since epoch. */
export const grantSchema = z
  .object({
    id: z.string(),
    user: z.string(),
    login: z.string().nullable().describe("GitHub login or 'local admin', recorded at sign-in"),
    clientId: z.string().describe("The OAuth client (app) the person signed in to"),
    scopes: z.array(z.string()),
    createdAt: z.number().int(),
    expiresAt: z.number().int().nullable().describe("When the refresh token lapses unless used (30 days)"),
  })
  .meta({ id: "Grant" });
export type GrantView = z.infer<typeof grantSchema>;

function parseUser(raw: unknown): string {
  const parsed = grantUserInput.safeParse(raw);
  if (!parsed.success)
    throw new CodeSearchError("invalid_input", "user: pass ?user=<user id> (github-<numeric id>, or local-admin); GET /api/audit?event=sign_in names them.");
  return parsed.data.user;
}

/**
 * Throws `forbidden` unless the caller may manage sign-ins: `admin` scope and every repo (a sign-in
 * reaches every repo, so a token limited to some may not end or read others').
 */
export function requireGrantAdmin(caller: Caller): void {
  requireScope(caller, "admin");
  if (caller.repos !== "*") throw new CodeSearchError("forbidden", "Managing sign-ins needs an admin token that is not limited to some repos.");
}

/** The person's grants. Needs `requireGrantAdmin`. */
export async function listGrants(ctx: ServiceContext, oauth: OAuthHelpers, raw: unknown): Promise<{ grants: GrantView[] }> {
  requireGrantAdmin(ctx.caller);
  const user = parseUser(raw);
  const { items } = await oauth.listUserGrants(user, { limit: GRANTS_LIST_MAX });
  return {
    grants: items.map((g) => ({
      id: g.id,
      user: g.userId,
      login: typeof g.metadata?.login === "string" ? g.metadata.login : null,
      clientId: g.clientId,
      scopes: g.scope,
      createdAt: g.createdAt * 1000,
      expiresAt: g.expiresAt !== undefined ? g.expiresAt * 1000 : null,
    })),
  };
}

/** Revokes one of the person's grants. Throws `not_found` for a grant they do not hold. Needs `admin`. */
export async function revokeGrant(ctx: ServiceContext, oauth: OAuthHelpers, id: string, raw: unknown): Promise<{ revoked: string[] }> {
  const { grants } = await listGrants(ctx, oauth, raw);
  const grant = grants.find((g) => g.id === id);
  if (!grant) throw new CodeSearchError("not_found", `No sign-in "${id}" for that user; GET /api/grants?user=<id> lists theirs.`);
  await oauth.revokeGrant(grant.id, grant.user);
  return { revoked: [grant.id] };
}

/** Revokes every grant of the person. Needs `admin`. */
export async function revokeAllGrants(ctx: ServiceContext, oauth: OAuthHelpers, raw: unknown): Promise<{ revoked: string[] }> {
  const { grants } = await listGrants(ctx, oauth, raw);
  for (const g of grants) await oauth.revokeGrant(g.id, g.user);
  return { revoked: grants.map((g) => g.id) };
}
