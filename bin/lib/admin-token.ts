/**
 * The local admin token: created once (32 random bytes, base64url), stored with mode 600.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Token length in random bytes (256 bits). */
export const ADMIN_TOKEN_BYTES = 32;

/**
 * Reads the token at `file`, or creates it (and its folder) when absent or empty.
 * @returns the token and whether it was created by this call (print it only then).
 */
export function ensureAdminToken(file: string): { token: string; created: boolean } {
  if (existsSync(file)) {
    const token = readFileSync(file, "utf8").trim();
    if (token) {
      chmodSync(file, 0o600);
      return { token, created: false };
    }
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const token = randomBytes(ADMIN_TOKEN_BYTES).toString("base64url");
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, created: true };
}
