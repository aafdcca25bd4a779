/**
 * @module worker/services/audit
 *
 * The append-only audit log (migrations/0023_audit_log.sql): who (the caller id, never a secret),
 * what (an event of `auditEventSchema` and its target id), when (ms), from where (client address).
 * Written by the /api audit trail (worker/api/audit-trail.ts) and the sign-in routes; read by
 * `GET /api/audit` (admin), pruned after AUDIT_RETENTION_DAYS by the scheduled handler.
 */
import { z } from "zod";
import type { Env } from "../../kernel/env";
import { CodeSearchError } from "../../kernel/errors";
import { requireScope, type ServiceContext } from "./context";

/** Every event the log records. */
export const auditEventSchema = z.enum([
  "sign_in",
  "sign_out",
  "token_created",
  "token_revoked",
  "grant_revoked",
  "grants_revoked_all",
  "repo_registered",
  "repo_uploaded",
  "repo_refreshed",
  "repo_deleted",
  "repo_schedule_changed",
  "repo_webhook_changed",
  "connection_created",
  "connection_synced",
  "connection_deleted",
  "requests_refused",
  "permissions_changed",
  "access_list_changed",
  "repo_refs_changed",
  "sign_in_refused_on_refresh",
  "sign_in_refused_on_recheck",
]);
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** One entry to append. `detail` holds small facts (a status, a count): never tokens, secrets, queries or code. */
export interface AuditEntry {
  actor: string;
  event: AuditEvent;
  target?: string | null;
  ip?: string | null;
  detail?: Record<string, string | number | boolean | null>;
}

/** Default retention of audit entries, days (AUDIT_RETENTION_DAYS overrides; 0 keeps them forever). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;
/** Most entries one `GET /api/audit` page returns. */
export const AUDIT_PAGE_MAX = 200;

/** Appends one entry at `now` (ms). */
export async function recordAudit(env: Env, entry: AuditEntry, now = Date.now()): Promise<void> {
  await env.DB.prepare("INSERT INTO audit_log (at, actor, event, target, ip, detail) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(now, entry.actor, entry.event, entry.target ?? null, entry.ip ?? null, entry.detail ? JSON.stringify(entry.detail) : null)
    .run();
}

/** Query of `GET /api/audit`. `cursor` is the `nextCursor` of the previous page. */
export const listAuditInput = z
  .object({
    actor: z.string().min(1).max(300).optional().describe("Only this person or credential, e.g. github:alice or token:<id>"),
    event: auditEventSchema.optional(),
    cursor: z
      .string()
      .regex(/^\d{1,15}$/, "cursor: pass the nextCursor of the previous page")
      .optional(),
    limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
  })
  .strict();

/** One entry as `GET /api/audit` shows it. */
export const auditEntrySchema = z
  .object({
    id: z.number().int(),
    at: z.number().int().describe("ms since epoch"),
    actor: z.string(),
    event: auditEventSchema,
    target: z.string().nullable(),
    ip: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: "AuditEntry" });

/** A page of entries, newest first. */
export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPageSchema>;

/** Lists entries newest first, filtered by actor and event, a page at a time. Needs `admin`. */
export async function listAudit(ctx: ServiceContext, raw: unknown): Promise<AuditPage> {
  requireScope(ctx.caller, "admin");
  const parsed = listAuditInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CodeSearchError("invalid_input", `${String(issue?.path[0] ?? "input")}: ${issue?.message}`);
  }
  const { actor, event, cursor, limit } = parsed.data;
  const where: string[] = [];
  const binds: (string | number)[] = [];
  if (actor) {
    where.push("actor = ?");
    binds.push(actor);
  }
  if (event) {
    where.push("event = ?");
    binds.push(event);
  }
  if (cursor) {
    where.push("id < ?");
    binds.push(Number(cursor));
  }
  const sql = `SELECT id, at, actor, event, target, ip, detail FROM audit_log ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT ?`;
  const { results } = await ctx.env.DB.prepare(sql)
    .bind(...binds, limit + 1)
    .all<{ id: number; at: number; actor: string; event: AuditEvent; target: string | null; ip: string | null; detail: string | null }>();
  const page = results.slice(0, limit).map((r) => ({ ...r, detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null }));
  return { entries: page, nextCursor: results.length > limit ? String(page[page.length - 1].id) : null };
}

/** AUDIT_RETENTION_DAYS as a number of days (0: keep forever). Throws naming the variable when it is not a whole number. */
export function auditRetentionDays(env: Env): number {
  const raw = env.AUDIT_RETENTION_DAYS;
  if (raw === undefined || raw === "") return DEFAULT_AUDIT_RETENTION_DAYS;
  if (!/^\d{1,5}$/.test(raw)) throw new TypeError(`AUDIT_RETENTION_DAYS must be a whole number of days (0 keeps entries forever); got "${raw}"`);
  return Number(raw);
}

/** Deletes entries older than the retention at `now` (ms); returns how many. */
export async function pruneAudit(env: Env, now: number): Promise<number> {
  const days = auditRetentionDays(env);
  if (days === 0) return 0;
  const r = await env.DB.prepare("DELETE FROM audit_log WHERE at < ?")
    .bind(now - days * 86_400_000)
    .run();
  return r.meta.changes ?? 0;
}
