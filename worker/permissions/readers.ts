/**
 * @module worker/permissions/readers
 *
 * The `repo_readers` table (migrations/0027_repo_permissions.sql): who may read a restricted
 * repo. Both sync directions write it and the latest proof wins: a connection sync replaces one
 * repo's readers (`replaceRepoReaders`), a person's sync at sign-in or token refresh replaces the
 * repos that person reads among those a scope covers (`replacePersonRepos`). Each change that
 * moves someone's access is written to the audit log (`permissions_changed`).
 */
import type { Env } from "../../kernel/env";
import { recordAudit } from "../services/audit";

/**
 * How long a code-host grant (`source = 'host'`) is honoured after the sync that proved it:
 * 3 hours, three hourly connection syncs (POLL_INTERVAL_SECONDS default) or many token refreshes.
 * A sync that keeps failing never refreshes it, so the repo is hidden from that person after this
 * long rather than served on stale grants (fail closed).
 */
export const PERMISSION_MAX_AGE_MS = 3 * 3600_000;

/** Most principals kept per repo and most repos per person; more fails closed (the rest are not granted). */
export const READERS_MAX = 5000;

/** What one replacement changed, principals or repos by id. */
export interface ReadersChange {
  added: string[];
  removed: string[];
}

/** Runs D1 statements in batches under D1's per-batch comfort (50). */
async function runBatches(db: D1Database, stmts: D1PreparedStatement[]): Promise<void> {
  for (let i = 0; i < stmts.length; i += 50) await db.batch(stmts.slice(i, i + 50));
}

/**
 * Makes `principals` the code-host readers of `repo` at `now` (lower-cased; admin rows kept).
 * Returns who gained and who lost access; the audit entry names the repo and the counts and
 * up to 20 principals of each.
 */
export async function replaceRepoReaders(env: Env, repo: string, principals: readonly string[], now: number, actor: string): Promise<ReadersChange> {
  const db = env.DB;
  const want = new Set(principals.slice(0, READERS_MAX).map((p) => p.toLowerCase()));
  const { results } = await db
    .prepare("SELECT principal, synced_at FROM repo_readers WHERE repo = ? AND source = 'host'")
    .bind(repo)
    .all<{ principal: string; synced_at: number }>();
  const had = new Set(results.filter((r) => r.synced_at >= now - PERMISSION_MAX_AGE_MS).map((r) => r.principal));
  const stmts: D1PreparedStatement[] = [];
  for (const r of results)
    if (!want.has(r.principal)) stmts.push(db.prepare("DELETE FROM repo_readers WHERE repo = ? AND principal = ?").bind(repo, r.principal));
  for (const p of want)
    stmts.push(
      db
        .prepare(
          "INSERT INTO repo_readers (repo, principal, source, synced_at) VALUES (?, ?, 'host', ?) ON CONFLICT (repo, principal) DO UPDATE SET synced_at = excluded.synced_at WHERE repo_readers.source = 'host'",
        )
        .bind(repo, p, now),
    );
  await runBatches(db, stmts);
  const change = { added: [...want].filter((p) => !had.has(p)).sort(), removed: [...had].filter((p) => !want.has(p)).sort() };
  await auditChange(env, actor, repo, { direction: "repo" }, change, now);
  return change;
}

/**
 * Makes `readable` the repos `principal` may read among `scope` (restricted repos of one code
 * host), at `now`. Rows for repos outside `scope` are left alone. Returns the repos gained and lost.
 */
export async function replacePersonRepos(
  env: Env,
  principal: string,
  scope: readonly string[],
  readable: readonly string[],
  now: number,
): Promise<ReadersChange> {
  const db = env.DB;
  const p = principal.toLowerCase();
  const inScope = new Set(scope);
  const want = new Set(readable.filter((r) => inScope.has(r)).slice(0, READERS_MAX));
  const { results } = await db
    .prepare("SELECT repo, synced_at FROM repo_readers WHERE principal = ? AND source = 'host'")
    .bind(p)
    .all<{ repo: string; synced_at: number }>();
  const mine = results.filter((r) => inScope.has(r.repo));
  const had = new Set(mine.filter((r) => r.synced_at >= now - PERMISSION_MAX_AGE_MS).map((r) => r.repo));
  const stmts: D1PreparedStatement[] = [];
  for (const r of mine) if (!want.has(r.repo)) stmts.push(db.prepare("DELETE FROM repo_readers WHERE repo = ? AND principal = ?").bind(r.repo, p));
  for (const repo of want)
    stmts.push(
      db
        .prepare(
          "INSERT INTO repo_readers (repo, principal, source, synced_at) VALUES (?, ?, 'host', ?) ON CONFLICT (repo, principal) DO UPDATE SET synced_at = excluded.synced_at WHERE repo_readers.source = 'host'",
        )
        .bind(repo, p, now),
    );
  await runBatches(db, stmts);
  const change = { added: [...want].filter((r) => !had.has(r)).sort(), removed: [...had].filter((r) => !want.has(r)).sort() };
  await auditChange(env, p, p, { direction: "person" }, change, now);
  return change;
}

/** Drops every code-host reader of `repo` (its connection cannot prove who may read it). */
export async function clearRepoReaders(env: Env, repo: string, now: number, actor: string): Promise<ReadersChange> {
  return replaceRepoReaders(env, repo, [], now, actor);
}

async function auditChange(env: Env, actor: string, target: string, detail: Record<string, string>, change: ReadersChange, now: number): Promise<void> {
  if (!change.added.length && !change.removed.length) return;
  await recordAudit(
    env,
    {
      actor,
      event: "permissions_changed",
      target,
      detail: {
        ...detail,
        added: change.added.length,
        removed: change.removed.length,
        addedNames: change.added.slice(0, 20).join(","),
        removedNames: change.removed.slice(0, 20).join(","),
      },
    },
    now,
  );
}
