/**
 * @module worker/api/audit-trail
 *
 * Middleware on /api that appends to the audit log (worker/services/audit.ts): each successful
 * change (tokens, grants, repos, connections; `AUDITED` below) with the caller, the target id
 * and the client address, and refused requests (401, 403, 429) above a rate: refusals are
 * counted per identity per minute in this isolate, and logged once when the count reaches
 * AUDIT_REFUSALS_PER_MINUTE. Request bodies are never read and response bodies only for the new
 * object's id, so no token, secret or code reaches the log.
 */
import type { MiddlewareHandler } from "hono";
import { LRUCache } from "lru-cache";
import { clientAddress } from "../auth/client-address";
import { recordAudit, type AuditEvent } from "../services/audit";
import type { Env } from "../../kernel/env";
import type { ApiEnv } from "./env";

/** Refusals per identity per minute that get logged (once per minute). */
export const AUDIT_REFUSALS_PER_MINUTE = 20;

/** Successful changes the log records: method, path under /api (target id in group 1), event. */
const AUDITED: [string, RegExp, AuditEvent][] = [
  ["POST", /^\/tokens\/?$/, "token_created"],
  ["DELETE", /^\/tokens\/([^/]+)\/?$/, "token_revoked"],
  ["DELETE", /^\/grants\/?$/, "grants_revoked_all"],
  ["DELETE", /^\/grants\/([^/]+)\/?$/, "grant_revoked"],
  ["POST", /^\/repos\/?$/, "repo_registered"],
  ["POST", /^\/repos\/([^/]+)\/archive\/?$/, "repo_uploaded"],
  ["POST", /^\/repos\/([^/]+)\/refresh\/?$/, "repo_refreshed"],
  ["DELETE", /^\/repos\/([^/]+)\/?$/, "repo_deleted"],
  ["PATCH", /^\/repos\/([^/]+)\/?$/, "access_list_changed"],
  ["PUT", /^\/repos\/([^/]+)\/schedule\/?$/, "repo_schedule_changed"],
  ["*", /^\/repos\/([^/]+)\/webhook\/?$/, "repo_webhook_changed"],
  ["POST", /^\/connections\/?$/, "connection_created"],
  ["POST", /^\/connections\/([^/]+)\/sync\/?$/, "connection_synced"],
  ["DELETE", /^\/connections\/([^/]+)\/?$/, "connection_deleted"],
];

/** Refusals by identity in the current minute (per isolate; bounded). */
const refusals = new LRUCache<string, { minute: number; n: number }>({ max: 10_000 });

/** The client address of `request` for the log, or null when unknown or CLIENT_IP_SOURCE is misconfigured. */
export function auditAddress(env: Env, request: Request): string | null {
  try {
    return clientAddress(env, request);
  } catch {
    return null;
  }
}

/** The id of an object a create answered with: only `id`, `repo` or `connection.id`, nothing else of the body. */
async function createdId(res: Response): Promise<string | null> {
  if (!res.headers.get("content-type")?.includes("json")) return null;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { id?: unknown; repo?: unknown; connection?: { id?: unknown } } | null;
  const id = body?.id ?? body?.connection?.id ?? body?.repo;
  return typeof id === "string" ? id : null;
}

/**
 * `PATCH /api/repos/{id}` sets access, refs or both: each is its own entry, read from the answer
 * (never the request body). Refs: `repo_refs_changed` with the stored patterns (ref names, not
 * secrets); access: `access_list_changed`.
 */
async function recordRepoPatch(env: Env, res: Response, e: { actor: string; target: string | null; ip: string | null; status: number }): Promise<void> {
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { access?: unknown; refs?: { patterns?: unknown } } | null;
  const base = { actor: e.actor, target: e.target, ip: e.ip };
  const patterns = body?.refs?.patterns;
  if (Array.isArray(patterns)) {
    await recordAudit(env, { ...base, event: "repo_refs_changed", detail: { status: e.status, refs: patterns.map(String).join(" ").slice(0, 2000) } });
  }
  if (!body || body.access !== undefined || !Array.isArray(patterns))
    await recordAudit(env, { ...base, event: "access_list_changed", detail: { status: e.status } });
}

/** The /api audit middleware; mount before `restAuth` so it sees the refusals restAuth answers. */
export function auditTrail(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    await next();
    const status = c.res.status;
    const path = c.req.path.replace(/^\/api(?=\/|$)/, "");
    const caller = c.get("caller") as ApiEnv["Variables"]["caller"] | undefined;
    const ip = auditAddress(c.env, c.req.raw);
    if (status === 401 || status === 403 || status === 429) {
      const identity = caller?.id ?? `anonymous@${ip ?? "unknown"}`;
      const minute = Math.floor(Date.now() / 60_000);
      const seen = refusals.get(identity);
      const n = seen && seen.minute === minute ? seen.n + 1 : 1;
      refusals.set(identity, { minute, n });
      if (n === AUDIT_REFUSALS_PER_MINUTE) {
        await recordAudit(c.env, { actor: identity, event: "requests_refused", ip, detail: { perMinute: n, lastStatus: status } });
      }
      return;
    }
    if (!caller || status < 200 || status >= 300) return;
    for (const [method, re, event] of AUDITED) {
      const m = (method === "*" ? c.req.method !== "GET" && c.req.method !== "HEAD" : c.req.method === method) ? re.exec(path) : null;
      if (!m) continue;
      const target = m[1] ? decodeURIComponent(m[1]) : await createdId(c.res);
      if (event === "access_list_changed") {
        await recordRepoPatch(c.env, c.res, { actor: caller.id, target, ip, status });
        return;
      }
      await recordAudit(c.env, { actor: caller.id, event, target, ip, detail: { status } });
      return;
    }
  };
}
