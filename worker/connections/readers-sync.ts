/**
 * @module worker/connections/readers-sync
 *
 * The repository direction of permission sync, run at the end of every connection sync
 * (sync.ts): each registered repo takes the visibility the code host lists
 * (`repos.visibility`), and each private or internal one gets its readers from the host
 * (`listReaders`: GitHub collaborators, GitLab members including inherited ones), replacing the
 * `host` rows of `repo_readers` (worker/permissions/readers.ts; changes are audited).
 *
 * Fail closed: a private or internal repo whose readers the connection cannot list (the token
 * lacks the permission, the host refuses) loses its readers and is withdrawn at once
 * (`withdrawn_at`: nobody sees it), its index kept; a later sync that proves its readers serves it
 * again. Internal repos get only their listed members, narrower than "every user of the instance".
 */
import type { Env } from "../../kernel/env";
import { CodeSearchError } from "../../kernel/errors";
import { replaceRepoReaders } from "../permissions/readers";
import type { ConnectionRow } from "./store";
import type { CodeHostClient, UpstreamRepo } from "./types";

/**
 * Private or internal repos whose readers one sync lists, oldest-proved first: each costs at least
 * one code-host request (a subrequest of the invocation). The rest keep their rows, which expire
 * after PERMISSION_MAX_AGE_MS.
 */
export const READER_SYNCS_PER_SYNC = 100;

/** What the readers step did. */
export interface ReadersReport {
  /** Repos whose readers were proved (restricted) this sync. */
  proved: string[];
  /** Repos withdrawn because the connection could not prove who may read them. */
  unprovable: { repo: string; reason: string }[];
}

interface Registered {
  repo: string;
  upstream_id: string;
  readers_synced_at: number | null;
  readers_error: string | null;
  missing_since: number | null;
}

/** Runs the readers step for connection `row` over the repos it just listed (see the module note). */
export async function syncConnectionReaders(env: Env, row: ConnectionRow, client: CodeHostClient, listed: UpstreamRepo[], now: number): Promise<ReadersReport> {
  const db = env.DB;
  const { results } = await db
    .prepare(
      "SELECT repo, upstream_id, readers_synced_at, readers_error, missing_since FROM connection_repos WHERE connection_id = ? AND registered_at IS NOT NULL AND repo IS NOT NULL",
    )
    .bind(row.id)
    .all<Registered>();
  const byId = new Map(listed.map((u) => [u.id, u]));
  const present = results.filter((r) => r.missing_since === null && byId.has(r.upstream_id));
  const writes = present.map((r) => db.prepare("UPDATE repos SET visibility = ? WHERE id = ?").bind(byId.get(r.upstream_id)!.visibility, r.repo));
  for (let i = 0; i < writes.length; i += 50) await db.batch(writes.slice(i, i + 50));

  const actor = `connection:${row.id}`;
  const report: ReadersReport = { proved: [], unprovable: [] };
  const restricted = present.filter((r) => byId.get(r.upstream_id)!.visibility !== "public");
  for (const r of present) {
    if (byId.get(r.upstream_id)!.visibility !== "public") continue;
    const stmts = [db.prepare("DELETE FROM repo_readers WHERE repo = ? AND source = 'host'").bind(r.repo)];
    // Withdrawn only for want of readers, now public: serve again.
    if (r.readers_error !== null)
      stmts.push(
        db.prepare("UPDATE repos SET withdrawn_at = NULL WHERE id = ?").bind(r.repo),
        db.prepare("UPDATE connection_repos SET readers_error = NULL WHERE connection_id = ? AND upstream_id = ?").bind(row.id, r.upstream_id),
      );
    await db.batch(stmts);
  }
  restricted.sort((a, b) => (a.readers_synced_at ?? 0) - (b.readers_synced_at ?? 0));
  for (const r of restricted.slice(0, READER_SYNCS_PER_SYNC)) {
    let principals: string[];
    try {
      principals = await client.listReaders(byId.get(r.upstream_id)!);
    } catch (err) {
      const reason = err instanceof CodeSearchError ? err.message : "the host did not list the readers";
      if (!(err instanceof CodeSearchError)) console.warn(`connection ${row.id}: listing the readers of ${r.repo} failed: ${String(err)}`);
      await replaceRepoReaders(env, r.repo, [], now, actor);
      await db.batch([
        db.prepare("UPDATE repos SET withdrawn_at = coalesce(withdrawn_at, ?) WHERE id = ?").bind(now, r.repo),
        db.prepare("UPDATE connection_repos SET readers_error = ? WHERE connection_id = ? AND upstream_id = ?").bind(reason, row.id, r.upstream_id),
      ]);
      report.unprovable.push({ repo: r.repo, reason });
      continue;
    }
    await replaceRepoReaders(env, r.repo, principals, now, actor);
    const stmts = [
      db
        .prepare("UPDATE connection_repos SET readers_synced_at = ?, readers_error = NULL WHERE connection_id = ? AND upstream_id = ?")
        .bind(now, row.id, r.upstream_id),
    ];
    // Withdrawn only for want of readers (not missing upstream): serve again.
    if (r.readers_error !== null) stmts.push(db.prepare("UPDATE repos SET withdrawn_at = NULL WHERE id = ?").bind(r.repo));
    await db.batch(stmts);
    report.proved.push(r.repo);
  }
  return report;
}
