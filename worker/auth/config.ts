/**
 * @module worker/auth/config
 *
 * Authentication settings read from variables and secrets (wrangler.toml `[vars]`, Worker
 * secrets, or `.dev.vars` locally). `loadAuthConfig(env)` checks them once per request and
 * throws a TypeError naming the variable that is wrong. Secrets never come from the repository.
 */
import type { Env } from "../../kernel/env";

/** Which upstream identity provider signs people in. */
export type AuthProviderKind = "local" | "github";

/** GitHub OAuth app settings and the allowlists that decide who may sign in and as what. */
export interface GitHubAuthConfig {
  clientId: string;
  clientSecret: string;
  /** `https://github.com` unless overridden (GitHub Enterprise, or a fake in tests). */
  baseUrl: string;
  /** `https://api.github.com` unless overridden. */
  apiUrl: string;
  /** Lower-case logins allowed to sign in as readers. */
  allowedUsers: string[];
  /** Lower-case organisation logins whose members may sign in as readers. */
  allowedOrgs: string[];
  /** `org/team-slug`, lower-case, whose members may sign in as readers. */
  allowedTeams: string[];
  /** Logins that get the admin role. */
  adminUsers: string[];
  /** `org/team-slug` whose members get the admin role. */
  adminTeams: string[];
}

/** Validated authentication configuration. */
export interface AuthConfig {
  provider: AuthProviderKind;
  github?: GitHubAuthConfig;
  /** The local admin token (`npm start` writes it to .dev.vars), if configured. */
  adminToken?: string;
  /**
   * Key material for session cookies' CSRF tokens and signed source links: `SIGNING_SECRET`,
   * or, with `AUTH_PROVIDER=local` only, derived from `ADMIN_TOKEN`.
   */
  signingSecret: string;
  /** Public origin, e.g. `https://copilot.example.com`; undefined means "the request's origin". */
  publicUrl?: string;
  /** Lifetime of a web session (seconds). */
  sessionTtlSeconds: number;
  /** How often a web session re-checks its person at the code host (worker/permissions/session-recheck.ts). */
  sessionRecheckSeconds: number;
  /** Lifetime of a signed source link (seconds). */
  sourceLinkTtlSeconds: number;
}

/** Minimum length of SIGNING_SECRET: 32 characters, i.e. 256 bits of hex or ~190 of base64. */
export const SIGNING_SECRET_MIN_CHARS = 32;
/** Default web session lifetime: 8 hours. */
export const SESSION_TTL_SECONDS = 8 * 3600;
/**
 * Default re-check interval of a web session, in seconds: the OAuth access-token lifetime
 * (ACCESS_TOKEN_TTL_SECONDS, worker/auth/provider.ts), so that a person removed upstream loses the
 * web page within the same bound as an MCP client.
 */
export const SESSION_RECHECK_SECONDS = 600;
/** Default signed source link lifetime: 15 minutes. */
export const SOURCE_LINK_TTL_SECONDS = 15 * 60;

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(/[,\s]+/)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

function required(name: string, value: string | undefined): string {
  if (!value) throw new TypeError(`${name} must be set (a Worker secret, or .dev.vars locally) when AUTH_PROVIDER=github`);
  return value;
}

function baseUrl(name: string, value: string | undefined, fallback: string): string {
  const v = (value || fallback).replace(/\/+$/, "");
  try {
    new URL(v);
  } catch {
    throw new TypeError(`${name} must be an absolute URL; got "${value}"`);
  }
  return v;
}

function teams(name: string, value: string | undefined): string[] {
  const out = list(value);
  for (const t of out) if (!/^[^/]+\/[^/]+$/.test(t)) throw new TypeError(`${name} entries must look like "org/team-slug"; got "${t}"`);
  return out;
}

function seconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 60) throw new TypeError(`${name} must be a whole number of seconds, at least 60; got "${value}"`);
  return n;
}

/** Reads and checks the authentication variables. Throws TypeError naming the bad variable. */
export function loadAuthConfig(env: Env): AuthConfig {
  const provider = (env.AUTH_PROVIDER || "local") as AuthProviderKind;
  if (provider !== "local" && provider !== "github") throw new TypeError(`AUTH_PROVIDER must be "local" or "github"; got "${env.AUTH_PROVIDER}"`);
  let signingSecret = env.SIGNING_SECRET;
  if (!signingSecret) {
    if (provider !== "local" || !env.ADMIN_TOKEN) {
      throw new TypeError(`SIGNING_SECRET must be set as a Worker secret (at least ${SIGNING_SECRET_MIN_CHARS} random characters)`);
    }
    // Local mode only: the admin token is a random secret known only to this machine.
    signingSecret = `derived-from-admin-token:${env.ADMIN_TOKEN}`;
  } else if (signingSecret.length < SIGNING_SECRET_MIN_CHARS) {
    throw new TypeError(`SIGNING_SECRET must have at least ${SIGNING_SECRET_MIN_CHARS} characters`);
  }
  const github: GitHubAuthConfig | undefined =
    provider === "github"
      ? {
          clientId: required("GITHUB_CLIENT_ID", env.GITHUB_CLIENT_ID),
          clientSecret: required("GITHUB_CLIENT_SECRET", env.GITHUB_CLIENT_SECRET),
          baseUrl: baseUrl("GITHUB_BASE_URL", env.GITHUB_BASE_URL, "https://github.com"),
          apiUrl: baseUrl("GITHUB_API_URL", env.GITHUB_API_URL, "https://api.github.com"),
          allowedUsers: list(env.GITHUB_ALLOWED_USERS),
          allowedOrgs: list(env.GITHUB_ALLOWED_ORGS),
          allowedTeams: teams("GITHUB_ALLOWED_TEAMS", env.GITHUB_ALLOWED_TEAMS),
          adminUsers: list(env.GITHUB_ADMIN_USERS),
          adminTeams: teams("GITHUB_ADMIN_TEAMS", env.GITHUB_ADMIN_TEAMS),
        }
      : undefined;
  if (
    github &&
    github.allowedUsers.length + github.allowedOrgs.length + github.allowedTeams.length + github.adminUsers.length + github.adminTeams.length === 0
  ) {
    throw new TypeError("GITHUB_ALLOWED_ORGS, GITHUB_ALLOWED_TEAMS or GITHUB_ALLOWED_USERS must name someone; nobody could sign in");
  }
  let publicUrl: string | undefined;
  if (env.PUBLIC_URL) {
    try {
      publicUrl = new URL(env.PUBLIC_URL).origin;
    } catch {
      throw new TypeError(`PUBLIC_URL must be an absolute URL such as https://copilot.example.com; got "${env.PUBLIC_URL}"`);
    }
  }
  return {
    provider,
    github,
    adminToken: env.ADMIN_TOKEN || undefined,
    signingSecret,
    publicUrl,
    sessionTtlSeconds: seconds("SESSION_TTL_SECONDS", env.SESSION_TTL_SECONDS, SESSION_TTL_SECONDS),
    sessionRecheckSeconds: seconds("SESSION_RECHECK_SECONDS", env.SESSION_RECHECK_SECONDS, SESSION_RECHECK_SECONDS),
    sourceLinkTtlSeconds: seconds("SOURCE_LINK_TTL_SECONDS", env.SOURCE_LINK_TTL_SECONDS, SOURCE_LINK_TTL_SECONDS),
  };
}
