/**
 * @module worker/webhooks/handle
 *
 * Handles one webhook delivery, in this order, so that an unauthenticated request changes
 * nothing: size limit (413), parse, find the repos it may be for (`?repo=` or the payload's
 * repository URLs), verify the signature (GitHub) or token (GitLab) against each one's secret
 * (401 when none matches), skip a delivery id already handled (200 `duplicate`) and a push
 * already handled under another id (same repos, ref, before and after; 200 `duplicate`), then act:
 * `ping` is answered, a push to the default ref asks the repo's coordinator to re-index at the
 * pushed commit (202 `accepted`; a job already running gets one follow-up), a push (or a branch
 * deletion) to an extra tracked ref syncs the repo's tracked refs (extra-refs.ts), a GitHub
 * `pull_request` is reviewed (worker/webhooks/pull-request.ts, same secret), anything else is
 * 202 `ignored` with the reason. Only a delivery that was acted on counts as handled: an ignored
 * or refused one is forgotten, so it may be sent again. A push without `default_branch` is read
 * against the repo's stored default ref.
 */
import { CodeSearchError } from "../../kernel/errors";
import type { Env } from "../../kernel/env";
import type { RepoSettings } from "../../kernel/coordinator";
import { sha256Hex } from "../auth/crypto";
import { parseGitHubEvent, parseGitLabEvent, repoUrlKey, tracksRef, type PushEvent, type WebhookEvent } from "./payloads";
import { acceptPullRequest, type WaitUntil } from "./pull-request";
import { syncAfterPush, tracksExtraRef } from "./extra-refs";
import { readDelivery } from "./read-delivery";
import { webhookTargets, type WebhookTarget } from "./secrets";
import { verifyGitHubSignature, verifyGitLabToken } from "./verify";

/** Largest delivery body accepted (bytes). GitHub caps payloads at 25 MB, but a push that
 * large lists thousands of commits; the fields read here come first in any push. */
export const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;
/** Delivery ids, and the pushes themselves, are remembered this long (ms): GitHub lets one redeliver for 3 days. */
export const DELIVERY_TTL_MS = 7 * 24 * 3600_000;

export type Provider = "github" | "gitlab";

/** The outcome as the route sends it. */
export interface WebhookResult {
  status: 200 | 202;
  body: Record<string, unknown>;
}

function parseJson(text: string, contentType: string | null): unknown {
  try {
    // GitHub can also send `application/x-www-form-urlencoded` with the JSON in `payload`.
    if (contentType?.startsWith("application/x-www-form-urlencoded")) return JSON.parse(new URLSearchParams(text).get("payload") ?? "");
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The repository URLs a delivery names, whatever the event (a ping names its repository too). */
function payloadUrls(provider: Provider, body: unknown): string[] {
  const b = body as { repository?: Record<string, unknown>; project?: Record<string, unknown> } | undefined;
  const r = provider === "github" ? b?.repository : b?.project;
  const keys = provider === "github" ? ["clone_url", "html_url", "url", "git_url"] : ["git_http_url", "web_url", "http_url"];
  return keys.map((k) => r?.[k]).filter((v): v is string => typeof v === "string");
}

async function verified(provider: Provider, targets: WebhookTarget[], raw: string, headers: Headers): Promise<WebhookTarget[]> {
  const out: WebhookTarget[] = [];
  for (const t of targets) {
    const ok =
      provider === "github"
        ? await verifyGitHubSignature(t.secret, raw, headers.get("x-hub-signature-256"))
        : await verifyGitLabToken(t.secret, headers.get("x-gitlab-token"));
    if (ok) out.push(t);
  }
  return out;
}

/** Records the delivery id; false when it was seen before. Old ids are pruned on the way. */
/**
 * The key of a push's content: provider, the repos it verified for, ref, before and after. A
 * captured push re-sent under a new delivery id (or a GitLab push without X-Gitlab-Event-UUID)
 * has the same key; a real push never does, since `before` moves with every push to the ref.
 */
async function pushKey(provider: Provider, targets: WebhookTarget[], push: PushEvent): Promise<string> {
  const text = [provider, ...targets.map((t) => t.repo).sort(), push.ref, push.before ?? "", push.after].join("\n");
  return `push:${await sha256Hex(text)}`;
}

async function firstDelivery(env: Env, provider: Provider, id: string, now: number): Promise<boolean> {
  const [, inserted] = await env.DB.batch([
    env.DB.prepare("DELETE FROM webhook_deliveries WHERE received_at < ?").bind(now - DELIVERY_TTL_MS),
    env.DB.prepare("INSERT INTO webhook_deliveries (provider, delivery_id, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING").bind(provider, id, now),
  ]);
  return (inserted.meta.changes ?? 0) > 0;
}

/**
 * Handles a delivery. `repo` is the `?repo=` of the URL (or null to match by the payload's
 * repository URL). Throws `payload_too_large`, `unauthorized` (no secret matches: nothing was
 * done), `invalid_input` (a push that is not valid JSON of the documented shape).
 */
export async function handleWebhook(
  env: Env,
  provider: Provider,
  request: Request,
  repo: string | null,
  now = Date.now(),
  connection: string | null = null,
  ctx?: WaitUntil,
): Promise<WebhookResult> {
  const raw = await readDelivery(request, WEBHOOK_MAX_BODY_BYTES);
  const body = parseJson(raw, request.headers.get("content-type"));

  const named = new Set(payloadUrls(provider, body).map(repoUrlKey).filter(Boolean));
  // An organisation or group webhook's ping names no repository (GitHub sends the organisation
  // and the hook only): with ?connection= it is checked against the connection's secret, which
  // every one of its repos shares. Anything else must name the repo it is about.
  const orgPing = connection !== null && named.size === 0;
  const candidates = (await webhookTargets(env, { repo, connection })).filter((t) => repo !== null || orgPing || named.has(repoUrlKey(t.url)));
  const targets = await verified(provider, candidates, raw, request.headers);
  if (targets.length === 0) {
    const what = provider === "github" ? "X-Hub-Signature-256 does not match" : "X-Gitlab-Token does not match";
    throw new CodeSearchError(
      "unauthorized",
      `${what} the webhook secret of ${repo ? `repo "${repo}"` : connection ? `connection "${connection}"` : "any repo with this repository URL"}; paste the secret from POST /api/repos/{id}/webhook (or the one POST /api/connections showed).`,
    );
  }

  const deliveryId =
    provider === "github" ? request.headers.get("x-github-delivery") : (request.headers.get("x-gitlab-event-uuid") ?? request.headers.get("idempotency-key"));
  const deliveryKey = deliveryId ? deliveryId.slice(0, 200) : null;
  if (deliveryKey && !(await firstDelivery(env, provider, deliveryKey, now))) {
    return { status: 200, body: { duplicate: true, deliveryId } };
  }
  const remembered = deliveryKey ? [deliveryKey] : [];
  try {
    const result = await act(env, provider, request, raw, body, targets, now, remembered, ctx);
    // Only a delivery that was acted on counts as handled: an ignored one may be sent again.
    if (!("accepted" in result.body)) await forgetDeliveries(env, provider, remembered);
    return result;
  } catch (err) {
    await forgetDeliveries(env, provider, remembered);
    throw err;
  }
}

/** Forgets delivery ids and push keys recorded by `firstDelivery` for a delivery that changed nothing. */
async function forgetDeliveries(env: Env, provider: Provider, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const stmt = env.DB.prepare("DELETE FROM webhook_deliveries WHERE provider = ? AND delivery_id = ?");
  await env.DB.batch(ids.map((id) => stmt.bind(provider, id)));
}

/**
 * The branch `repo` treats as its default: the stored default ref's (repo_refs), when the payload
 * leaves out `default_branch` (GitLab system hooks, hand-made or trimmed payloads).
 */
async function storedDefaultBranch(env: Env, repo: string): Promise<string | null> {
  const row = await env.DB.prepare("SELECT name FROM repo_refs WHERE repo = ? AND is_default = 1").bind(repo).first<{ name: string }>();
  return row?.name.startsWith("refs/heads/") ? row.name.slice("refs/heads/".length) : null;
}

/** Acts on a verified, first-seen delivery; the push key it records is added to `remembered`. */
async function act(
  env: Env,
  provider: Provider,
  request: Request,
  raw: string,
  body: unknown,
  targets: WebhookTarget[],
  now: number,
  remembered: string[],
  ctx?: WaitUntil,
): Promise<WebhookResult> {
  const eventName = (provider === "github" ? request.headers.get("x-github-event") : request.headers.get("x-gitlab-event")) ?? "";
  // One GitHub webhook may carry pushes and pull requests under the same secret.
  if (provider === "github" && eventName === "pull_request" && ctx) return acceptPullRequest(env, eventName, raw, targets[0].repo, ctx);
  const event: WebhookEvent | null = body === undefined ? null : provider === "github" ? parseGitHubEvent(eventName, body) : parseGitLabEvent(eventName, body);
  if (event === null)
    throw new CodeSearchError("invalid_input", `body: not a ${provider} ${eventName || "push"} event (expected JSON with ref, after and the repository).`);
  if (event.kind === "ping") return { status: 200, body: { ok: true, event: "ping", repos: targets.map((t) => t.repo) } };
  if (event.kind === "other") return { status: 202, body: { ignored: `event "${event.name}" is not handled; only push events re-index` } };

  const { push } = event;
  // Deduplicated by content too: the signature covers the body, not the delivery id.
  const key = await pushKey(provider, targets, push);
  if (!(await firstDelivery(env, provider, key, now))) {
    return { status: 200, body: { duplicate: true, reason: `the same push (${push.ref} at ${push.after}) was handled within the last 7 days` } };
  }
  remembered.push(key);
  const accepted: Record<string, unknown>[] = [];
  const ignored: { repo: string; reason: string }[] = [];
  for (const t of targets) {
    const tracksDefault = tracksRef(t.ref, push.ref, push.defaultBranch ?? (t.ref === null ? await storedDefaultBranch(env, t.repo) : null));
    if (!tracksDefault && (await tracksExtraRef(env, t.repo, push.ref))) {
      // A tracked extra ref moved, appeared or was deleted: the coordinator syncs every tracked ref.
      accepted.push({ repo: t.repo, ref: push.ref, commit: push.deleted ? null : push.after, refs: await syncAfterPush(env, t.repo) });
    } else if (push.deleted) ignored.push({ repo: t.repo, reason: `the push deleted ${push.ref}` });
    else if (!tracksDefault) ignored.push({ repo: t.repo, reason: `repo tracks ${t.ref ?? "the default branch"}, not ${push.ref}` });
    else {
      const settings: RepoSettings = { repo: t.repo, sourceKind: "git", url: t.url, ref: t.ref };
      const job = await env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName(t.repo)).requestIndex(settings, { commit: push.after });
      accepted.push({ repo: t.repo, commit: push.after, job: { id: job.jobId, status: job.status }, pending: job.pending ?? null });
    }
  }
  if (accepted.length === 0) return { status: 202, body: { ignored: ignored.map((i) => i.reason).join("; "), repos: ignored } };
  return { status: 202, body: { accepted, ...(ignored.length ? { ignored: ignored } : {}) } };
}
