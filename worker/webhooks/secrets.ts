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
import { canSee, requireScope, type ServiceContext } from "../services/context";

const PURPOSE = "webhook-secret";

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
  const row = canSee(ctx.caller, repo)
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

/** A git repo that has a webhook secret, with the secret opened. */
export interface WebhookTarget {
  repo: string;
  url: string;
  ref: string | null;
  secret: string;
}

/** The repos with a webhook secret, optionally only `repo`; secrets that no longer open are skipped (logged). */
export async function webhookTargets(env: Env, repo: string | null): Promise<WebhookTarget[]> {
  const sql = "SELECT r.id, r.url, r.ref, w.secret_sealed FROM repo_webhooks w JOIN repos r ON r.id = w.repo WHERE r.source_kind = 'git' AND r.url IS NOT NULL";
  const stmt = repo === null ? env.DB.prepare(sql) : env.DB.prepare(`${sql} AND r.id = ?`).bind(repo);
  const { results } = await stmt.all<{ id: string; url: string; ref: string | null; secret_sealed: string }>();
  const material = secretKeyMaterial(env);
  const out: WebhookTarget[] = [];
  for (const r of results) {
    try {
      out.push({ repo: r.id, url: r.url, ref: r.ref, secret: await openSecret(material, PURPOSE, r.id, r.secret_sealed) });
    } catch (err) {
      console.error(`webhook secret of repo ${r.id} does not open; create a new one`, err);
    }
  }
  return out;
}
