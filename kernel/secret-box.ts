/**
 * @module kernel/secret-box
 *
 * Encryption at rest for the secrets the product keeps: repo access tokens (in each
 * RepoCoordinator's storage) and webhook secrets (in D1). AES-256-GCM (Web Crypto) with a
 * 96-bit random IV per message; the key is derived with HKDF-SHA-256 from one key secret and a
 * purpose string, and the purpose plus a context (the repo id) are bound in as additional
 * authenticated data, so a sealed value copied to another repo or field does not open.
 *
 * Sealed form: `v1.<iv base64url>.<ciphertext+tag base64url>`.
 */
import type { Env } from "./env";

/** Why a secret could not be opened: wrong key (the key secret changed) or a tampered value. */
export class SecretBoxError extends Error {
  override name = "SecretBoxError";
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const PREFIX = "v1";

function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromB64url(text: string): Uint8Array {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/**
 * The key secret: `TOKEN_ENCRYPTION_KEY`, else `SIGNING_SECRET`, else (AUTH_PROVIDER=local only)
 * one derived from `ADMIN_TOKEN`, as worker/auth/config.ts does for signing. Set
 * TOKEN_ENCRYPTION_KEY in production so that rotating the signing secret leaves stored tokens
 * readable. Throws TypeError naming the variable to set.
 */
export function secretKeyMaterial(env: Pick<Env, "SIGNING_SECRET" | "ADMIN_TOKEN" | "AUTH_PROVIDER"> & { TOKEN_ENCRYPTION_KEY?: string }): string {
  if (env.TOKEN_ENCRYPTION_KEY) return env.TOKEN_ENCRYPTION_KEY;
  if (env.SIGNING_SECRET) return env.SIGNING_SECRET;
  if ((env.AUTH_PROVIDER ?? "local") === "local" && env.ADMIN_TOKEN) return `derived-from-admin-token:${env.ADMIN_TOKEN}`;
  throw new TypeError("TOKEN_ENCRYPTION_KEY (or SIGNING_SECRET) must be set (a Worker secret, or .dev.vars locally) to store tokens and webhook secrets");
}

async function keyFor(material: string, purpose: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(material), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode("codebase-copilot secret-box v1"), info: encoder.encode(purpose) },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** Encrypts `plaintext` for `purpose` (e.g. "repo-token") and `context` (e.g. the repo id). */
export async function sealSecret(material: string, purpose: string, context: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(`${purpose}\n${context}`) },
    await keyFor(material, purpose),
    encoder.encode(plaintext),
  );
  return `${PREFIX}.${b64url(iv)}.${b64url(new Uint8Array(sealed))}`;
}

/** Decrypts a value from `sealSecret` with the same purpose and context; throws SecretBoxError. */
export async function openSecret(material: string, purpose: string, context: string, sealed: string): Promise<string> {
  const [prefix, iv, data] = sealed.split(".");
  if (prefix !== PREFIX || !iv || !data) throw new SecretBoxError("not a sealed secret");
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromB64url(iv), additionalData: encoder.encode(`${purpose}\n${context}`) },
      await keyFor(material, purpose),
      fromB64url(data),
    );
    return decoder.decode(plain);
  } catch {
    throw new SecretBoxError("the secret does not open with the configured key (was TOKEN_ENCRYPTION_KEY or SIGNING_SECRET changed?)");
  }
}
