/**
 * @module worker/webhooks/extra-refs
 *
 * A push to a ref other than the repo's default (docs/refs.md): when the repo tracks that ref
 * (a `repo_refs` row) or one of its patterns matches it (a new branch under `release/*`), the
 * repo's coordinator syncs its tracked refs (`syncRefs`: one ls-remote), which queues a job for
 * the moved ref, tracks a new one, and removes a deleted one with its snapshot.
 */
import { matchesPattern } from "../../indexer/source/ref-patterns";
import type { Env } from "../../kernel/env";
import { parsePatterns } from "../services/repo-status";

/** Whether `repo` tracks `ref` (full name) as an extra ref, or would once it exists. */
export async function tracksExtraRef(env: Env, repo: string, ref: string): Promise<boolean> {
  const [row, patterns] = await Promise.all([
    env.DB.prepare("SELECT 1 AS x FROM repo_refs WHERE repo = ? AND name = ? AND is_default = 0").bind(repo, ref).first(),
    env.DB.prepare("SELECT ref_patterns FROM repos WHERE id = ?").bind(repo).first<{ ref_patterns: string | null }>(),
  ]);
  return row !== null || parsePatterns(patterns?.ref_patterns).some((p) => matchesPattern(p, ref));
}

/** What a push to an extra ref answers: the refs queued and removed, and those past MAX_REFS_PER_REPO (only when some are). */
export type PushRefSync = { queued: string[]; removed: string[]; overLimit?: { refs: string[]; note: string } } | { error: string };

/**
 * Syncs `repo`'s extra refs after a push to one of them. Returns what the webhook answers: the
 * refs now queued and removed, those a tracked glob matches past the limit (not tracked, so a
 * push to one is never indexed: said here rather than only logged), or the error's message (the
 * push is then picked up by the next scheduled check).
 */
export async function syncAfterPush(env: Env, repo: string): Promise<PushRefSync> {
  const result = await env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName(repo)).syncRefs(null);
  if ("error" in result) return { error: result.error.message };
  const out = { queued: result.refs.filter((r) => r.action === "queued").map((r) => r.name), removed: result.removed };
  if (!result.overLimit.length) return out;
  const note = `not tracked: past MAX_REFS_PER_REPO refs per repo; narrow the patterns (PATCH /api/repos/${repo} {"refs": [...]}) or untrack others`;
  return { ...out, overLimit: { refs: result.overLimit, note } };
}
