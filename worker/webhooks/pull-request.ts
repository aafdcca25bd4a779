/**
 * @module worker/webhooks/pull-request
 *
 * Reviews of GitHub pull requests. A `pull_request` delivery (actions opened, synchronize) is
 * handled in this order, so that an unauthenticated request changes nothing: configuration
 * (503 `not_configured` without GITHUB_REVIEW_TOKEN), size limit (413), signature
 * (`X-Hub-Signature-256`, worker/webhooks/verify.ts; 401) under the same secrets as pushes: the
 * repo's own (`?repo=`, POST /api/repos/{id}/webhook) or its connection's (matched by the
 * payload's repository URL, POST /api/connections), event and action (202 ignored), the indexed
 * repo (400/404), the GitHub repository (worker/webhooks/github-repo.ts: the one the repo was
 * registered from; 400 when it has none on this GitHub, 403 when the payload names another),
 * then a claim of
 * (GitHub repo, PR, head commit) in D1 (`pr_reviews`, migrations/0011): a head already claimed
 * answers 200 `duplicate` and posts nothing. The review itself runs after the answer
 * (`waitUntil`, since GitHub gives a delivery 10 s): the PR's diff is fetched through
 * @octokit/rest, reviewed by `review()` (worker/services/review.ts) and posted as one review
 * (event COMMENT) on the head commit, one line comment per grounded finding of a diff file
 * (`side: RIGHT`, valid because grounding put every such finding on a new-side line of a hunk);
 * grounded findings on other files go into the review body. A failure marks the claim `failed`,
 * so a redelivery may try again.
 *
 * The preferred URL is the push webhook's, `POST /api/webhooks/github` (worker/webhooks/handle.ts),
 * subscribed to both `push` and `pull_request`: one URL and one secret per repo or organisation.
 * `POST /api/webhooks/github/pull-request` stays for existing installs, and so does the global
 * GITHUB_WEBHOOK_SECRET (deprecated): checked only when no per-repo or connection secret matches,
 * and then `?repo=` is required.
 */
import { Octokit } from "@octokit/rest";
import { z } from "zod";
import type { Env } from "../../kernel/env";
import { CodeSearchError } from "../../kernel/errors";
import { serviceContext, type Caller } from "../services/context";
import { review } from "../services/review";
import type { ReviewOutput } from "../services/review-schema";
import { githubRepoOf, githubWebHost, sameGitHubRepo } from "./github-repo";
import { repoUrlKey } from "./payloads";
import { readDelivery } from "./read-delivery";
import { secretsOfRepo, webhookTargets } from "./secrets";
import { verifyGitHubSignature } from "./verify";

/** Largest delivery accepted, bytes (a pull_request payload is a few tens of KB). */
export const PR_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;
/** Actions that get a review: a new PR and new commits pushed to it. */
export const REVIEWED_ACTIONS = ["opened", "synchronize"] as const;

const pullRequestEvent = z.object({
  action: z.string(),
  number: z.number().int().positive(),
  pull_request: z.object({ head: z.object({ sha: z.string().regex(/^[0-9a-f]{40}$/) }), draft: z.boolean().optional() }),
  repository: z.object({ full_name: z.string().regex(/^[\w.-]+\/[\w.-]+$/) }),
});

/** What the route answers. */
export interface PullRequestWebhookResult {
  status: 200 | 202;
  body: Record<string, unknown>;
}

/** Schedules work past the response (`ExecutionContext.waitUntil`). */
export interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

/** Whether `signature` signs `text` under one of `candidates`' secrets: the ones that do. */
async function signedBy(candidates: { repo: string; secret: string }[], text: string, signature: string | null): Promise<string[]> {
  const out: string[] = [];
  for (const c of candidates) if (await verifyGitHubSignature(c.secret, text, signature)) out.push(c.repo);
  return out;
}

/** The repository URLs a pull_request payload names (to match a connection's repos). */
function payloadRepoUrls(text: string): string[] {
  try {
    const r = (JSON.parse(text) as { repository?: Record<string, unknown> }).repository;
    return ["clone_url", "html_url", "url", "git_url"].map((k) => r?.[k]).filter((v): v is string => typeof v === "string");
  } catch {
    return [];
  }
}

/**
 * Handles one delivery on the compatibility path `POST /api/webhooks/github/pull-request`
 * (see module note). Throws coded errors for 400/401/404/413/503.
 */
export async function handlePullRequestWebhook(
  env: Env,
  req: Request,
  repoParam: string | null,
  ctx: WaitUntil,
  connectionParam: string | null = null,
): Promise<PullRequestWebhookResult> {
  if (!env.GITHUB_REVIEW_TOKEN) {
    throw new CodeSearchError("not_configured", "Pull-request reviews are not configured: set the secret GITHUB_REVIEW_TOKEN (docs/review.md).");
  }
  const text = await readDelivery(req, PR_WEBHOOK_MAX_BODY_BYTES);
  const signature = req.headers.get("x-hub-signature-256");
  let repos: string[];
  if (repoParam !== null) repos = await signedBy(await secretsOfRepo(env, repoParam), text, signature);
  else {
    const named = new Set(payloadRepoUrls(text).map(repoUrlKey).filter(Boolean));
    repos = await signedBy(
      (await webhookTargets(env, { repo: null, connection: connectionParam })).filter((t) => named.has(repoUrlKey(t.url))),
      text,
      signature,
    );
  }
  // Deprecated: one global secret for every repo (before per-repo secrets); it still needs ?repo=.
  const legacy = repos.length === 0 && !!env.GITHUB_WEBHOOK_SECRET && (await verifyGitHubSignature(env.GITHUB_WEBHOOK_SECRET, text, signature));
  if (repos.length === 0 && !legacy) {
    throw new CodeSearchError(
      "unauthorized",
      "X-Hub-Signature-256 does not match the webhook secret of the repo (POST /api/repos/{id}/webhook) or of its connection (POST /api/connections).",
    );
  }
  return acceptPullRequest(env, req.headers.get("x-github-event"), text, repos[0] ?? repoParam, ctx);
}

/**
 * Acts on a delivery whose signature was verified for `repo` (null: not known, 400 for a
 * pull_request): ping, event and action filters, the claim of the head commit, then the review
 * after the answer. Also called by the push webhook (worker/webhooks/handle.ts), so one GitHub
 * webhook with one secret can carry both events.
 */
export async function acceptPullRequest(env: Env, event: string | null, text: string, repo: string | null, ctx: WaitUntil): Promise<PullRequestWebhookResult> {
  if (event === "ping") return { status: 200, body: { ok: true, event: "ping" } };
  if (event !== "pull_request") return { status: 202, body: { ignored: `event ${event ?? "(none)"} is not pull_request` } };
  if (!env.GITHUB_REVIEW_TOKEN) return { status: 202, body: { ignored: "pull-request reviews are not configured (GITHUB_REVIEW_TOKEN)" } };
  let payload: z.infer<typeof pullRequestEvent>;
  try {
    payload = pullRequestEvent.parse(JSON.parse(text));
  } catch {
    throw new CodeSearchError("invalid_input", "body: not a pull_request event payload (number, pull_request.head.sha, repository.full_name).");
  }
  if (!(REVIEWED_ACTIONS as readonly string[]).includes(payload.action))
    return { status: 202, body: { ignored: `action ${payload.action} is not reviewed (only ${REVIEWED_ACTIONS.join(", ")})` } };
  if (payload.pull_request.draft) return { status: 202, body: { ignored: "draft pull request" } };
  if (!repo) throw new CodeSearchError("invalid_input", "repo: add ?repo=<indexed repo id> to the webhook's payload URL.");
  const repoRow = await env.DB.prepare("SELECT id, url FROM repos WHERE id = ?").bind(repo).first<{ id: string; url: string | null }>();
  if (!repoRow) throw new CodeSearchError("repo_not_found", `Unknown repo "${repo}" in ?repo=; register it first (POST /api/repos).`);
  // The secret verified the delivery for this repo only: act on the GitHub repository it was
  // registered from, and refuse a payload naming any other (the sender chooses full_name).
  const apiUrl = env.GITHUB_API_URL || "https://api.github.com";
  const githubRepo = githubRepoOf(repoRow.url, apiUrl);
  if (!githubRepo)
    throw new CodeSearchError(
      "invalid_input",
      `repo "${repoRow.id}" was not registered from a repository URL on ${githubWebHost(apiUrl)} (https://${githubWebHost(apiUrl)}/<owner>/<name>); pull-request reviews need one.`,
    );
  if (!sameGitHubRepo(githubRepo, payload.repository.full_name))
    throw new CodeSearchError(
      "forbidden",
      `The delivery names ${payload.repository.full_name}, but it was signed with the secret of repo "${repoRow.id}" (${githubRepo}); a secret acts only for its own repository.`,
    );
  const pr = { githubRepo, number: payload.number, headSha: payload.pull_request.head.sha, repo: repoRow.id };
  const now = Date.now();
  const claim = await env.DB.prepare(
    "INSERT INTO pr_reviews (github_repo, pr_number, head_sha, repo, status, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?5) " +
      "ON CONFLICT (github_repo, pr_number, head_sha) DO UPDATE SET status = 'pending', updated_at = ?5 WHERE pr_reviews.status = 'failed'",
  )
    .bind(pr.githubRepo, pr.number, pr.headSha, pr.repo, now)
    .run();
  if (!claim.meta.changes) return { status: 200, body: { duplicate: true, pullRequest: pr.number, head: pr.headSha } };
  ctx.waitUntil(runPullRequestReview(env, pr));
  return { status: 202, body: { accepted: { pullRequest: pr.number, head: pr.headSha, repo: pr.repo } } };
}

/** The pull request a review is for. */
export interface PullRequestRef {
  githubRepo: string;
  number: number;
  headSha: string;
  repo: string;
}

/** The review as GitHub takes it: a body and line comments on the new side. */
export function toGitHubReview(
  r: ReviewOutput,
  prFiles: ReadonlySet<string>,
): { body: string; comments: { path: string; line: number; side: "RIGHT"; body: string }[] } {
  const inDiff = r.findings.filter((f) => prFiles.has(f.file));
  const elsewhere = r.findings.filter((f) => !prFiles.has(f.file));
  const body = [
    `**Codebase Copilot review** (${r.findings.length} finding(s); every one checked against a real line)`,
    "",
    r.summary,
    ...(elsewhere.length
      ? ["", "Findings outside this diff:", ...elsewhere.map((f) => `- \`${f.file}:${f.line}\` [${f.severity}] ${f.issue} Suggestion: ${f.suggestion}`)]
      : []),
    ...(r.rejectedFindings.length ? ["", `${r.rejectedFindings.length} finding(s) were dropped because they did not point at a real line.`] : []),
    "",
    `<sub>${r.model}, prompts ${r.prompts.system.id} v${r.prompts.system.version}; ${r.modelCalls} model call(s).</sub>`,
  ].join("\n");
  const comments = inDiff.map((f) => ({
    path: f.file,
    line: f.line,
    side: "RIGHT" as const,
    body: `**${f.severity}** (${f.category}): ${f.issue}\n\nSuggestion: ${f.suggestion}`,
  }));
  return { body, comments };
}

/** Fetches the diff, reviews it, posts one review, records the outcome. Never throws (runs after the response). */
export async function runPullRequestReview(env: Env, pr: PullRequestRef): Promise<void> {
  const [owner, name] = pr.githubRepo.split("/");
  const octokit = new Octokit({
    auth: env.GITHUB_REVIEW_TOKEN,
    baseUrl: env.GITHUB_API_URL || "https://api.github.com",
    userAgent: "codebase-copilot",
    request: { fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init) },
  });
  const mark = (status: "posted" | "failed", reviewId: number | null, findings: number) =>
    env.DB.prepare(
      "UPDATE pr_reviews SET status = ?1, review_id = ?2, findings = ?3, updated_at = ?4 WHERE github_repo = ?5 AND pr_number = ?6 AND head_sha = ?7",
    )
      .bind(status, reviewId, findings, Date.now(), pr.githubRepo, pr.number, pr.headSha)
      .run();
  try {
    const { data } = await octokit.rest.pulls.get({ owner, repo: name, pull_number: pr.number, mediaType: { format: "diff" } });
    const diff = data as unknown as string;
    // The webhook acts for the GitHub repository: it may read and review this one indexed repo only.
    // Charged to the indexed repo (not a name from the payload): one daily budget per repo.
    // It reads that repo whatever its visibility (`reads`, worker/permissions/readable.ts): the code host sent the PR.
    const caller: Caller = { id: `github-pr:${pr.repo}`, kind: "api-token", scopes: ["search", "index"], repos: [pr.repo], reads: [pr.repo] };
    const out = await review(serviceContext(env, caller), { repo: pr.repo, diff });
    if (out.status !== "reviewed") {
      console.error(JSON.stringify({ event: "pr_review_not_posted", pr: pr.number, status: out.status }));
      await mark("failed", null, 0);
      return;
    }
    const { body, comments } = toGitHubReview(out, new Set(out.scope.files));
    const posted = await octokit.rest.pulls.createReview({
      owner,
      repo: name,
      pull_number: pr.number,
      commit_id: pr.headSha,
      event: "COMMENT",
      body,
      comments,
    });
    await mark("posted", posted.data.id, out.findings.length);
  } catch (err) {
    const cls = err instanceof CodeSearchError ? err.code : (err as { status?: number }).status ? `http_${(err as { status: number }).status}` : "unexpected";
    console.error(JSON.stringify({ event: "pr_review_failed", pr: pr.number, error: cls }));
    await mark("failed", null, 0).catch(() => {});
  }
}
