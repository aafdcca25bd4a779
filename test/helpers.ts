/**
 * Test helpers shared by test files that run in workerd.
 */
import { env, SELF } from "cloudflare:test";

/** Authorization header of the local admin (ADMIN_TOKEN is set in vitest.config.mts). */
export function adminHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${env.ADMIN_TOKEN}`, ...extra };
}

/** Calls the Worker as the admin: `api("/api/repos", {method: "POST", json: {...}})`. */
export async function api(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, headers, ...rest } = init;
  const h: Record<string, string> = adminHeaders(headers as Record<string, string> | undefined);
  if (json !== undefined) h["content-type"] = "application/json";
  return SELF.fetch(`http://localhost${path}`, { ...rest, headers: h, body: json !== undefined ? JSON.stringify(json) : rest.body });
}
