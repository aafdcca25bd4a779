/**
 * @module worker/auth/github
 *
 * GitHub as the upstream identity provider (a GitHub OAuth app): the authorize URL, the code
 * exchange (with PKCE), and the allowlist decision. Base URLs come from configuration, so
 * GitHub Enterprise works and tests answer with a fake. GitHub's token is used only to learn
 * who the user is, their memberships and the repositories they can read (permission sync,
 * worker/permissions/github-person.ts). It is never logged nor written to D1; an OAuth grant
 * keeps it inside its encrypted props so a token refresh can check membership again.
 *
 * API: https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 * (web flow, `code_verifier` for PKCE), GET /user, GET /user/memberships/orgs/{org},
 * GET /orgs/{org}/teams/{team_slug}/memberships/{username}.
 */
import type { Caller } from "../services/context";
import { scopesForRole, type Role } from "./caller";
import type { GitHubAuthConfig } from "./config";

/** Callback path registered in the GitHub OAuth app ("Authorization callback URL"). */
export const GITHUB_CALLBACK_PATH = "/oauth/callback/github";
/**
 * GitHub scopes requested: `read:org` lets membership checks see private memberships; `repo` lets
 * `GET /user/repos` list the private repositories the person can read (an OAuth app has no
 * read-only scope for that; Sourcegraph's GitHub sign-in asks for the same).
 */
export const GITHUB_SCOPES = "read:org repo";

/** A signed-in GitHub user that passed the allowlist. */
export interface GitHubIdentity {
  id: number;
  login: string;
  role: Role;
}

/**
 * Result of the upstream login: an identity and the person's GitHub token (for permission sync
 * and refresh checks; never logged), or why it was refused (shown to the user).
 */
export type GitHubLoginResult = { ok: true; identity: GitHubIdentity; token: string } | { ok: false; reason: string };

/** The URL to send the browser to. `codeChallenge` is the S256 PKCE challenge (RFC 7636). */
export function githubAuthorizeUrl(gh: GitHubAuthConfig, redirectUri: string, state: string, codeChallenge: string): string {
  const u = new URL(`${gh.baseUrl}/login/oauth/authorize`);
  u.searchParams.set("client_id", gh.clientId);
  u.searchParams.set("redirect_uri", redirectUri);
  u.searchParams.set("scope", GITHUB_SCOPES);
  u.searchParams.set("state", state);
  u.searchParams.set("code_challenge", codeChallenge);
  u.searchParams.set("code_challenge_method", "S256");
  u.searchParams.set("allow_signup", "false");
  return u.toString();
}

/** The fields read from GitHub API answers (`/user`, membership endpoints); each is checked before use. */
interface GitHubBody {
  state?: unknown;
  login?: unknown;
  id?: unknown;
}

async function ghJson(gh: GitHubAuthConfig, token: string, path: string, fetchFn: typeof fetch): Promise<{ status: number; body: GitHubBody | null }> {
  const res = await fetchFn(`${gh.apiUrl}${path}`, {
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/vnd.github+json",
      "user-agent": "codebase-copilot",
      "x-github-api-version": "2022-11-28",
    },
  });
  const raw: unknown = res.headers.get("content-type")?.includes("json") ? await res.json() : await res.text();
  return { status: res.status, body: raw && typeof raw === "object" ? (raw as GitHubBody) : null };
}

async function activeOrgMember(gh: GitHubAuthConfig, token: string, org: string, fetchFn: typeof fetch): Promise<boolean> {
  const r = await ghJson(gh, token, `/user/memberships/orgs/${encodeURIComponent(org)}`, fetchFn);
  return r.status === 200 && r.body?.state === "active";
}

async function activeTeamMember(gh: GitHubAuthConfig, token: string, team: string, login: string, fetchFn: typeof fetch): Promise<boolean> {
  const [org, slug] = team.split("/");
  const r = await ghJson(gh, token, `/orgs/${encodeURIComponent(org)}/teams/${encodeURIComponent(slug)}/memberships/${encodeURIComponent(login)}`, fetchFn);
  return r.status === 200 && r.body?.state === "active";
}

/**
 * Decides the role of a GitHub user from the allowlists: admin if listed in GITHUB_ADMIN_USERS
 * or an active member of a GITHUB_ADMIN_TEAMS team; reader if in GITHUB_ALLOWED_USERS or an
 * active member of an allowed org or team; otherwise refused.
 */
export async function roleFor(gh: GitHubAuthConfig, token: string, login: string, fetchFn: typeof fetch = fetch): Promise<Role | undefined> {
  const l = login.toLowerCase();
  if (gh.adminUsers.includes(l)) return "admin";
  for (const team of gh.adminTeams) if (await activeTeamMember(gh, token, team, login, fetchFn)) return "admin";
  if (gh.allowedUsers.includes(l)) return "reader";
  for (const org of gh.allowedOrgs) if (await activeOrgMember(gh, token, org, fetchFn)) return "reader";
  for (const team of gh.allowedTeams) if (await activeTeamMember(gh, token, team, login, fetchFn)) return "reader";
  return undefined;
}

/** Exchanges the callback `code` and identifies the user against the allowlists. */
export async function githubLogin(
  gh: GitHubAuthConfig,
  code: string,
  codeVerifier: string,
  redirectUri: string,
  fetchFn: typeof fetch = fetch,
): Promise<GitHubLoginResult> {
  const res = await fetchFn(`${gh.baseUrl}/login/oauth/access_token`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded", "user-agent": "codebase-copilot" },
    body: new URLSearchParams({ client_id: gh.clientId, client_secret: gh.clientSecret, code, redirect_uri: redirectUri, code_verifier: codeVerifier }),
  });
  const tokenBody = (await res.json().catch(() => ({}))) as { access_token?: string; error?: string };
  if (!res.ok || !tokenBody.access_token)
    return { ok: false, reason: `GitHub did not accept the sign-in (${tokenBody.error ?? `HTTP ${res.status}`}); start again.` };
  const token = tokenBody.access_token;
  const user = await ghJson(gh, token, "/user", fetchFn);
  if (user.status !== 200 || typeof user.body?.login !== "string" || typeof user.body?.id !== "number") {
    return { ok: false, reason: "GitHub did not say who you are; start again." };
  }
  const login: string = user.body.login;
  const role = await roleFor(gh, token, login, fetchFn);
  if (!role) return { ok: false, reason: `GitHub user ${login} is not in an allowed organisation, team or user list; ask an admin to add you.` };
  return { ok: true, identity: { id: user.body.id, login, role }, token };
}

/**
 * The Caller of a GitHub identity: the person `github:<login>` with their role and the
 * access-list teams they belong to (`canSee` then shows public repos and the restricted ones
 * `repo_readers` grants them; worker/permissions/readable.ts).
 */
export function githubCaller(identity: GitHubIdentity, teams: string[] = []): Caller {
  const id = `github:${identity.login.toLowerCase()}`;
  return { id, kind: "oauth", scopes: scopesForRole(identity.role), repos: "*", person: { principal: id, role: identity.role, teams } };
}

/**
 * Whether GitHub still knows the token (`GET /user`): "ok", "revoked" (401: the person revoked
 * the app or the token), or "unreachable" (any other answer or no answer).
 */
export async function githubTokenState(gh: GitHubAuthConfig, token: string, fetchFn: typeof fetch = fetch): Promise<"ok" | "revoked" | "unreachable"> {
  const r = await ghJson(gh, token, "/user", fetchFn).catch(() => null);
  if (!r) return "unreachable";
  return r.status === 200 ? "ok" : r.status === 401 ? "revoked" : "unreachable";
}

/** S256 PKCE challenge of a verifier: base64url(SHA-256(verifier)). */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  let s = "";
  for (const b of digest) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
