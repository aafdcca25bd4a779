/**
 * @module worker/webhooks/payloads
 *
 * What the webhook handler needs from a GitHub or GitLab delivery, parsed from the JSON body:
 * the event kind, and for a push the ref, the pushed commit, whether the ref was deleted, the
 * repository's URLs (to find the repos that track it) and its default branch. Pure functions.
 *
 * Sources: GitHub "Webhook events and payloads" (`push`: ref, after, deleted, repository.
 * clone_url/html_url/default_branch; `ping`: zen, hook_id) and GitLab "Webhook events" (Push
 * Hook / Tag Push Hook: object_kind, ref, after, checkout_sha, project.git_http_url/web_url/
 * default_branch).
 */
import { z } from "zod";

/** A push, reduced to what matters here. */
export interface PushEvent {
  /** Full ref name, e.g. `refs/heads/main`. */
  ref: string;
  /** The commit the ref pointed at before the push (40 hex digits; zeros for a new ref), null when not sent. */
  before: string | null;
  /** The commit the ref points at after the push (40 hex digits). */
  after: string;
  /** The push deleted the ref. */
  deleted: boolean;
  /** URLs naming the repository (clone and web URLs), as the host sent them. */
  repoUrls: string[];
  defaultBranch: string | null;
}

/** A parsed delivery. */
export type WebhookEvent = { kind: "ping" } | { kind: "push"; push: PushEvent } | { kind: "other"; name: string };

const ZERO_SHA = /^0{40}$/;
const url = z.string().max(2048).optional().nullable();

const githubPush = z.object({
  ref: z.string().min(1).max(1024),
  before: z.string().max(64).optional().nullable(),
  after: z.string().regex(/^[0-9a-f]{40}$/),
  deleted: z.boolean().optional(),
  repository: z.object({ clone_url: url, html_url: url, url, git_url: url, default_branch: z.string().max(255).optional().nullable() }),
});

const gitlabPush = z.object({
  object_kind: z.enum(["push", "tag_push"]),
  ref: z.string().min(1).max(1024),
  before: z.string().max(64).optional().nullable(),
  after: z.string().regex(/^[0-9a-f]{40}$/),
  project: z.object({ git_http_url: url, web_url: url, http_url: url, default_branch: z.string().max(255).optional().nullable() }),
});

function urls(...values: (string | null | undefined)[]): string[] {
  return values.filter((v): v is string => !!v);
}

/** Parses a GitHub delivery (`X-GitHub-Event` = `event`); null when a push body is malformed. */
export function parseGitHubEvent(event: string, body: unknown): WebhookEvent | null {
  if (event === "ping") return { kind: "ping" };
  if (event !== "push") return { kind: "other", name: event };
  const p = githubPush.safeParse(body);
  if (!p.success) return null;
  const r = p.data.repository;
  return {
    kind: "push",
    push: {
      ref: p.data.ref,
      before: p.data.before ?? null,
      after: p.data.after,
      deleted: p.data.deleted === true || ZERO_SHA.test(p.data.after),
      repoUrls: urls(r.clone_url, r.html_url, r.url, r.git_url),
      defaultBranch: r.default_branch ?? null,
    },
  };
}

/** Parses a GitLab delivery (`X-Gitlab-Event` = `event`, e.g. "Push Hook"); null when a push body is malformed. */
export function parseGitLabEvent(event: string, body: unknown): WebhookEvent | null {
  if (event !== "Push Hook" && event !== "Tag Push Hook") return { kind: "other", name: event };
  const p = gitlabPush.safeParse(body);
  if (!p.success) return null;
  const r = p.data.project;
  return {
    kind: "push",
    push: {
      ref: p.data.ref,
      before: p.data.before ?? null,
      after: p.data.after,
      deleted: ZERO_SHA.test(p.data.after),
      repoUrls: urls(r.git_http_url, r.web_url, r.http_url),
      defaultBranch: r.default_branch ?? null,
    },
  };
}

/**
 * A URL reduced for comparison: host (lower case, default port dropped) and path without a
 * trailing `/` or `.git`, case-folded; scheme and credentials ignored. `https://GitHub.com/O/R.git`
 * and `https://github.com/o/r` compare equal. Null for something that is not a URL.
 */
export function repoUrlKey(raw: string): string | null {
  try {
    const u = new URL(raw.startsWith("git@") ? `ssh://${raw.replace(":", "/")}` : raw);
    return `${u.host.toLowerCase()}${u.pathname.replace(/\/+$/, "").replace(/\.git$/i, "")}`.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Whether a push to `pushRef` moves what a repo tracking `trackedRef` indexes: a branch or tag
 * name, a full ref name, or null for the remote's HEAD (the default branch; unknown means no).
 * A repo pinned to a commit SHA tracks no ref.
 */
export function tracksRef(trackedRef: string | null, pushRef: string, defaultBranch: string | null): boolean {
  if (trackedRef === null) return defaultBranch !== null && pushRef === `refs/heads/${defaultBranch}`;
  if (/^[0-9a-f]{40}$/.test(trackedRef)) return false;
  if (trackedRef.startsWith("refs/")) return pushRef === trackedRef;
  return pushRef === `refs/heads/${trackedRef}` || pushRef === `refs/tags/${trackedRef}`;
}
