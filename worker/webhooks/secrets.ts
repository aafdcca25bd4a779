/**
 * @module worker/webhooks/secrets
 *
 * Per-repo webhook secrets: generated here (256 random bits), shown once by `createWebhook`,
 * stored sealed in D1 `repo_webhooks` (kernel/secret-box.ts), never returned again. Managing
 * them needs the `admin` scope (a secret lets its holder trigger re-indexing at will).
 */
import { z } from "zod";
import { CodeSearchError } from "../../kernel/errors";
import { openSecret, sealSecret, secretKeyMaterial } from "../../kernel/secret-box";
import type { Env } from "../../kernel/env";
import { randomToken } from "../auth/crypto";
import { callerAllows, requireScope, type ServiceContext } from "../services/context";

const PURPOSE = "webhook-secret";
/** worker/connections/store.ts WEBHOOK_PURPOSE. */
const CONNECTION_PURPOSE = "connection-webhook-secret";

/** What `POST /api/repos/{id}/webhook` answers: the secret (this once) and where to paste it. */
export const webhookCreatedSchema = z.object({
  repo: z.string(),
  secret: z.string().describe("Shown only now; paste it into the code host's webhook settings."),
  createdAt: z.number(),
  github: z.object({ payloadUrl: z.string(), contentType: z.literal("application/json"), events: z.array(z.string()) }),
  gitlab: z.object({ url: z.string(), secretToken: z.string(), trigger: z.string() }),
});
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

/** What `GET /api/repos/{id}/webhook` answers (never the secret). */
export const webhookInfoSchema = z.object({ repo: z.string(), configured: z.boolean(), createdAt: z.number().nullable() });
export type WebhookInfo = z.infer<typeof webhookInfoSchema>;

async function gitRepo(ctx: ServiceContext, repo: string): Promise<void> {
  const row = callerAllows(ctx.caller, repo)
    ? await ctx.env.DB.prepare("SELECT source_kind FROM repos WHERE id = ?").bind(repo).first<{ source_kind: string }>()
    : null;
  if (!row) throw new CodeSearchError("repo_not_found", `No repo "${repo}"; GET /api/repos lists the repos you can see.`);
  if (row.source_kind !== "git") throw new CodeSearchError("invalid_input", `Repo "${repo}" was uploaded as an archive; webhooks need a git repo.`);
}

/**
 * Creates (or rotates: the old secret stops working at once) the repo's webhook secret.
 * `origin` is the public origin the code host should call (PUBLIC_URL, else the request's).
 */
export async function createWebhook(ctx: ServiceContext, repo: string, origin: string, now = Date.now()): Promise<WebhookCreated> {
  requireScope(ctx.caller, "admin");
  await gitRepo(ctx, repo);
  const secret = randomToken(32);
  const sealed = await sealSecret(secretKeyMaterial(ctx.env), PURPOSE, repo, secret);
  await ctx.env.DB.prepare(
    "INSERT INTO repo_webhooks (repo, secret_sealed, created_at) VALUES (?, ?, ?) ON CONFLICT (repo) DO UPDATE SET secret_sealed = excluded.secret_sealed, created_at = excluded.created_at",
  )
    .bind(repo, sealed, now)
    .run();
  const base = (ctx.env.PUBLIC_URL || origin).replace(/\/+$/, "");
  const q = `?repo=${encodeURIComponent(repo)}`;
  return {
    repo,
    secret,
    createdAt: now,
    github: { payloadUrl: `${base}/api/webhooks/github${q}`, contentType: "application/json", events: ["push"] },
    gitlab: { url: `${base}/api/webhooks/gitlab${q}`, secretToken: secret, trigger: "Push events (and Tag push events for a repo that tracks a tag)" },
  };
}

/** Whether the repo has a webhook secret, and since when. */
export async function getWebhook(ctx: ServiceContext, repo: string): Promise<WebhookInfo> {
  requireScope(ctx.caller, "admin");
  await gitRepo(ctx, repo);
  const row = await ctx.env.DB.prepare("SELECT created_at FROM repo_webhooks WHERE repo = ?").bind(repo).first<{ created_at: number }>();
  return { repo, configured: !!row, createdAt: row?.created_at ?? null };
}

/** Removes the repo's webhook secret: deliveries for it get 401 from now on. */
export async function deleteWebhook(ctx: ServiceContext, repo: string): Promise<{ deleted: string }> {
  requireScope(ctx.caller, "admin");
  await gitRepo(ctx, repo);
  await ctx.env.DB.prepare("DELETE FROM repo_webhooks WHERE repo = ?").bind(repo).run();
  return { deleted: repo };
}

/** A git repo that has a webhook secret (its own, or its connection's), with the secret opened. */
export interface WebhookTarget {
  repo: string;
  url: string;
  ref: string | null;
  secret: string;
  /** The connection whose secret this is; absent for a repo's own secret. */
  connection?: string;
}

/** Which secrets a delivery may be checked against: `?repo=`, `?connection=`, or (both null) every one. */
export interface TargetScope {
  repo: string | null;
  connection: string | null;
}

/**
 * The repos a delivery may be for, each with a secret to check: repos' own secrets
 * (`repo_webhooks`) and, for repos a connection registered, the connection's secret
 * (worker/connections; one organisation or group webhook serves all of them). Secrets that no
 * longer open are skipped (logged).
 */
export async function webhookTargets(env: Env, scope: TargetScope): Promise<WebhookTarget[]> {
  const material = secretKeyMaterial(env);
  const out: WebhookTarget[] = [];
  if (scope.connection === null) {
    const sql =
      "SELECT r.id, r.url, r.ref, w.secret_sealed FROM repo_webhooks w JOIN repos r ON r.id = w.repo WHERE r.source_kind = 'git' AND r.url IS NOT NULL";
    const stmt = scope.repo === null ? env.DB.prepare(sql) : env.DB.prepare(`${sql} AND r.id = ?`).bind(scope.repo);
    const { results } = await stmt.all<{ id: string; url: string; ref: string | null; secret_sealed: string }>();
    for (const r of results) {
      try {
        out.push({ repo: r.id, url: r.url, ref: r.ref, secret: await openSecret(material, PURPOSE, r.id, r.secret_sealed) });
      } catch (err) {
        console.error(`webhook secret of repo ${r.id} does not open; create a new one`, err);
      }
    }
  }
  let sql =
    "SELECT r.id, r.url, r.ref, c.id AS connection_id, c.webhook_secret_sealed FROM connection_repos cr JOIN connections c ON c.id = cr.connection_id " +
    "JOIN repos r ON r.id = cr.repo WHERE cr.registered_at IS NOT NULL AND r.source_kind = 'git' AND r.url IS NOT NULL";
  const binds: string[] = [];
  if (scope.connection !== null) {
    sql += " AND c.id = ?";
    binds.push(scope.connection);
  }
  if (scope.repo !== null) {
    sql += " AND r.id = ?";
    binds.push(scope.repo);
  }
  const { results } = await env.DB.prepare(sql)
    .bind(...binds)
    .all<{ id: string; url: string; ref: string | null; connection_id: string; webhook_secret_sealed: string }>();
  const opened = new Map<string, string | null>();
  for (const r of results) {
    if (!opened.has(r.connection_id)) {
      try {
        opened.set(r.connection_id, await openSecret(material, CONNECTION_PURPOSE, r.connection_id, r.webhook_secret_sealed));
      } catch (err) {
        console.error(`webhook secret of connection ${r.connection_id} does not open`, err);
        opened.set(r.connection_id, null);
      }
    }
    const secret = opened.get(r.connection_id);
    if (secret) out.push({ repo: r.id, url: r.url, ref: r.ref, secret, connection: r.connection_id });
  }
  return out;
}

/**
 * Every secret a delivery for `repo` may be signed with, whatever its source kind: its own
 * (`repo_webhooks`) and that of the connection that registered it. Secrets that no longer open
 * are skipped (logged).
 */
export async function secretsOfRepo(env: Env, repo: string): Promise<{ repo: string; secret: string }[]> {
  const material = secretKeyMaterial(env);
  const own = await env.DB.prepare("SELECT secret_sealed FROM repo_webhooks WHERE repo = ?").bind(repo).first<{ secret_sealed: string }>();
  const conn = await env.DB.prepare(
    "SELECT c.id, c.webhook_secret_sealed FROM connection_repos cr JOIN connections c ON c.id = cr.connection_id WHERE cr.repo = ? AND cr.registered_at IS NOT NULL",
  )
    .bind(repo)
    .all<{ id: string; webhook_secret_sealed: string }>();
  const out: { repo: string; secret: string }[] = [];
  const sealed: [string, string, string][] = [
    ...(own ? [[PURPOSE, repo, own.secret_sealed] as [string, string, string]] : []),
    ...conn.results.map((c) => [CONNECTION_PURPOSE, c.id, c.webhook_secret_sealed] as [string, string, string]),
  ];
  for (const [purpose, context, value] of sealed) {
    try {
      out.push({ repo, secret: await openSecret(material, purpose, context, value) });
    } catch (err) {
      console.error(`a webhook secret of repo ${repo} does not open`, err);
    }
  }
  return out;
}
