/**
 * @module worker/webhooks/verify
 *
 * Authenticity checks of webhook deliveries. GitHub: `X-Hub-Signature-256` is
 * `sha256=<hex HMAC-SHA-256 of the raw body under the secret>`, checked with
 * `@octokit/webhooks-methods` (Web Crypto's HMAC verify, which compares in constant time).
 * GitLab: `X-Gitlab-Token` carries the secret itself, compared in constant time.
 */
import { verify } from "@octokit/webhooks-methods";
import { timingSafeEqualText } from "../auth/crypto";

const GITHUB_SIGNATURE_RE = /^sha256=[0-9a-f]{64}$/;

/** Whether `signature` (the X-Hub-Signature-256 header) signs `body` (the raw body, as text) under `secret`. */
export async function verifyGitHubSignature(secret: string, body: string, signature: string | null | undefined): Promise<boolean> {
  // The library parses hex loosely; anything but the documented form is simply wrong.
  if (!signature || !GITHUB_SIGNATURE_RE.test(signature) || !body) return false;
  return verify(secret, body, signature);
}

/** Whether `token` (the X-Gitlab-Token header) is `secret`. */
export async function verifyGitLabToken(secret: string, token: string | null | undefined): Promise<boolean> {
  if (!token) return false;
  return timingSafeEqualText(secret, token);
}
