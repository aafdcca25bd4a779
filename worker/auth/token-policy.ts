/**
 * @module worker/auth/token-policy
 *
 * What a caller may do with API tokens (least privilege; README "Authentication"):
 *   - mint only within its own reach: scopes it holds (`admin` implies `index`, which implies `search`),
 *     repos it may see (omitting `repos` means "all the repos I may see", never more), and, when
 *     the caller is itself an API token, no later expiry than its own (omitting it inherits it);
 *   - a token minted by an API token is revoked with it (worker/auth/api-tokens.ts cascades);
 *     tokens minted by a person (web session, OAuth sign-in, local admin token) stand alone;
 *   - see and revoke every token only as an admin over every repo; any other caller sees and
 *     revokes only the tokens it minted, directly or through tokens it minted.
 * Pure: no I/O, the time is an argument.
 */
import { CodeSearchError } from "../../kernel/errors";
import { impliedScopes, scopeCovers, type Caller, type Scope } from "../services/context";

/** What an admin asks for. `expiresAt` is ms since epoch; absent means no expiry. */
export interface NewApiToken {
  name: string;
  scopes: Scope[];
  /** Repo ids the token may see; absent for every repo. */
  repos?: string[];
  expiresAt?: number;
}

/** Scopes a caller effectively holds: each scope implies those below it (search < index < admin). */
export function effectiveScopes(caller: Caller): Scope[] {
  return impliedScopes(caller.scopes);
}

/** Whether the caller manages every token (an admin over every repo) or only those it minted. */
export function managesAllTokens(caller: Caller): boolean {
  return caller.repos === "*" && scopeCovers(caller.scopes, "admin");
}

/**
 * The token to create for `input` when `creator` asks, narrowed to the creator's reach.
 * @throws CodeSearchError `forbidden` naming the scope, repo or expiry beyond the creator's reach
 */
export function boundToCreator(input: NewApiToken, creator: Caller, now: number): NewApiToken {
  const held = effectiveScopes(creator);
  const extra = input.scopes.filter((s) => !held.includes(s));
  if (extra.length) throw new CodeSearchError("forbidden", `You cannot grant scopes you do not hold: ${extra.join(", ")}.`);
  let repos = input.repos;
  if (creator.repos !== "*") {
    const allowed = creator.repos;
    if (repos === undefined) repos = [...allowed];
    const outside = repos.filter((r) => !allowed.includes(r));
    if (outside.length) throw new CodeSearchError("forbidden", `You cannot grant repos you may not see: ${outside.join(", ")}.`);
  }
  let expiresAt = input.expiresAt;
  if (creator.expiresAt !== undefined) {
    if (expiresAt === undefined) expiresAt = creator.expiresAt;
    if (expiresAt > creator.expiresAt)
      throw new CodeSearchError("forbidden", `The new token cannot outlive yours: expiresAt must be at most ${new Date(creator.expiresAt).toISOString()}.`);
  }
  if (expiresAt !== undefined && expiresAt <= now)
    throw new CodeSearchError("invalid_input", "expiresAt is in the past; give a future time or omit it for no expiry.");
  return { ...input, repos, expiresAt };
}
