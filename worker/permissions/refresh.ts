/**
 * @module worker/permissions/refresh
 *
 * Re-checks a GitHub person whenever their OAuth refresh token is used (the provider's
 * `tokenExchangeCallback`, worker/auth/provider.ts): removal from the allowed organisation or
 * team, a changed role, or a GitHub token the person revoked ends the grant there and then
 * (`invalid_grant`: the provider revokes the grant, its refresh and access tokens), so exposure
 * after a removal is bounded by one access-token lifetime (ACCESS_TOKEN_TTL_SECONDS). GitHub not
 * answering refuses this refresh (`temporarily_unavailable`) without revoking: no new token is
 * issued on an unproven membership. A passing check also re-syncs the repos the person reads.
 */
import { OAuthError } from "@cloudflare/workers-oauth-provider";
import type { Env } from "../../kernel/env";
import type { AuthProps } from "../auth/caller";
import { loadAuthConfig } from "../auth/config";
import { recordAudit } from "../services/audit";
import { recheckGithubPerson } from "./recheck";

async function refuse(env: Env, actor: string, why: string): Promise<never> {
  await recordAudit(env, { actor, event: "sign_in_refused_on_refresh", detail: { why } });
  throw new OAuthError("invalid_grant", { description: `Your sign-in ended: ${why}. Sign in again.` });
}

/**
 * New props for a refreshed grant, or undefined to keep them (local sign-ins). Throws OAuthError
 * as the module note says. `fetchFn` reaches GitHub (tests pass a fake).
 */
export async function recheckOnRefresh(env: Env, props: AuthProps, now: number, fetchFn: typeof fetch = fetch): Promise<{ newProps: AuthProps } | undefined> {
  const caller = props.caller;
  if (!caller.id.startsWith("github:")) return undefined;
  const gh = loadAuthConfig(env).github;
  const token = props.upstream?.githubToken;
  if (!gh || !token || !caller.person) return refuse(env, caller.id, "this sign-in predates membership checks at refresh");
  const result = await recheckGithubPerson(env, gh, caller, token, props.login, now, fetchFn);
  if (result.kind === "refused") return refuse(env, caller.id, result.why);
  if (result.kind === "unreachable")
    throw new OAuthError("temporarily_unavailable", { description: "GitHub did not answer the membership check; retry shortly.", statusCode: 503 });
  const { teams } = result;
  return { newProps: { ...props, caller: { ...caller, person: { ...caller.person, teams } } } };
}
