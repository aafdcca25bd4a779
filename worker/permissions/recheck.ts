/**
 * @module worker/permissions/recheck
 *
 * The one membership re-check of a GitHub person, shared by the OAuth refresh
 * (worker/permissions/refresh.ts) and web sessions (worker/permissions/session-recheck.ts):
 * the person's GitHub token still works, they are still in an allowed organisation, team or
 * user list, with the same role; and, when they are, the repos they read are synced again.
 */
import type { Env } from "../../kernel/env";
import type { Caller } from "../services/context";
import type { GitHubAuthConfig } from "../auth/config";
import { githubTokenState, roleFor } from "../auth/github";
import { syncGithubPerson } from "./github-person";

/**
 * Outcome of a re-check: `ok` with the person's current teams; `refused` with a reason a person
 * can read (the sign-in must end); `unreachable` when GitHub did not answer (nothing proven
 * either way: the caller decides how long to trust the last passing check).
 */
export type RecheckResult = { kind: "ok"; teams: string[] } | { kind: "refused"; why: string } | { kind: "unreachable" };

/**
 * Re-checks `caller` (a `github:` person) with their GitHub `token` as `login`. Three to five
 * GitHub calls plus the `/user/repos` sync when the person passes. Never throws for GitHub's
 * answers; D1 errors propagate.
 */
export async function recheckGithubPerson(
  env: Env,
  gh: GitHubAuthConfig,
  caller: Caller,
  token: string,
  login: string,
  now: number,
  fetchFn: typeof fetch = fetch,
): Promise<RecheckResult> {
  const state = await githubTokenState(gh, token, fetchFn);
  if (state === "revoked") return { kind: "refused", why: "GitHub no longer accepts the sign-in's token" };
  if (state === "unreachable") return { kind: "unreachable" };
  const role = await roleFor(gh, token, login, fetchFn);
  if (!role) return { kind: "refused", why: "no longer in an allowed organisation, team or user list" };
  if (caller.person && role !== caller.person.role) return { kind: "refused", why: `role changed to ${role}` };
  const { teams } = await syncGithubPerson(env, gh, token, login, now, fetchFn);
  return { kind: "ok", teams };
}
