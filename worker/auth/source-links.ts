/**
 * @module worker/auth/source-links
 *
 * Signed, expiring links to source a browser opens without a bearer header:
 * `/source/{repo}/{path}?exp=<unix s>&cred=<credential>&sig=<base64url>#L10-L20`. The signature
 * is HMAC-SHA-256 (key SIGNING_SECRET) over a domain-separated string of repo, path, expiry and
 * the minting credential (`Caller.credential`, never a secret), so none can be changed, the link
 * stops working at `exp`, and the page checks the credential is still valid and still sees the
 * repo when the link is opened (worker/auth/link-credential.ts). The line range is a URL
 * fragment: browsers never send it, so it is not signed and only scrolls the page.
 */
import { hmacSha256, timingSafeEqualText } from "./crypto";

/** What a link points at. Lines are 1-based and inclusive. */
export interface SourceLinkTarget {
  repo: string;
  path: string;
  startLine?: number;
  endLine?: number;
}

function message(repo: string, path: string, exp: number, credential: string): string {
  return `codebase-copilot source-link v2\n${repo}\n${path}\n${exp}\n${credential}`;
}

/** Encodes a repo-relative path segment by segment, keeping the slashes. */
function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/**
 * Builds a signed link bound to `credential` (`Caller.credential`), valid for `ttlSeconds` from
 * `nowMs`. Returns the absolute URL and its expiry (ms since epoch).
 */
export async function signSourceLink(
  secret: string,
  origin: string,
  target: SourceLinkTarget,
  credential: string,
  nowMs: number,
  ttlSeconds: number,
): Promise<{ url: string; expiresAt: number }> {
  const exp = Math.floor(nowMs / 1000) + ttlSeconds;
  const sig = await hmacSha256(secret, message(target.repo, target.path, exp, credential));
  let fragment = "";
  if (target.startLine) fragment = target.endLine && target.endLine !== target.startLine ? `#L${target.startLine}-L${target.endLine}` : `#L${target.startLine}`;
  return {
    url: `${origin}/source/${encodeURIComponent(target.repo)}/${encodePath(target.path)}?exp=${exp}&cred=${encodeURIComponent(credential)}&sig=${sig}${fragment}`,
    expiresAt: exp * 1000,
  };
}

/** Why a link was refused. */
export type SourceLinkRejection = "missing" | "expired" | "bad_signature";

/**
 * Checks a link's `exp`, `cred` and `sig` for `repo` and `path` (decoded). On success returns the
 * credential it was minted under, which the caller must still check (link-credential.ts).
 */
export async function verifySourceLink(
  secret: string,
  repo: string,
  path: string,
  exp: string | undefined,
  credential: string | undefined,
  sig: string | undefined,
  nowMs: number,
): Promise<{ ok: true; credential: string } | { ok: false; reason: SourceLinkRejection }> {
  if (!exp || !sig || !credential || !/^\d{1,12}$/.test(exp)) return { ok: false, reason: "missing" };
  const expected = await hmacSha256(secret, message(repo, path, Number(exp), credential));
  // Check the signature before the expiry, so a forged link never learns anything from timing.
  if (!(await timingSafeEqualText(sig, expected))) return { ok: false, reason: "bad_signature" };
  if (Number(exp) * 1000 <= nowMs) return { ok: false, reason: "expired" };
  return { ok: true, credential };
}
