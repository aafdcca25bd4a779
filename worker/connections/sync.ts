/**
 * @module worker/connections/sync
 *
 * Brings one connection's repo list in line with its code host: lists the owner's
 * repositories (github.ts, gitlab.ts), plans the diff (plan.ts) and applies it. New repos are
 * registered as git repos (worker/services/repos.ts `startGitRepo`, with the connection's token,
 * first job at the default branch) at most CONNECTION_MAX_REGISTRATIONS per sync; the rest wait
 * for the next tick. A repo gone upstream (deleted, or the token lost access) or dropped by the
 * filter is marked `missing` and withdrawn at once (`repos.withdrawn_at`: `canSee` hides it from
 * every caller); its index is kept for the connection's grace period, so a repo listed again is
 * unmarked and serves again without re-indexing, and after the grace period it is removed with
 * its whole index. A repo id
 * already used by a repo registered by hand is not touched (`skip_reason` id_taken).
 *
 * The connection's token goes only to its own git host (`connectionGitOrigin`): a clone URL the
 * host's API lists on another origin is registered without it (a public repository still
 * indexes; a private one fails its first fetch with the host's auth error, shown on the repo).
 * Otherwise an API answer naming an attacker's host would receive the token.
 */
import { parseGitUrl } from "../../indexer/source/git";
import { loadConfig, type Env } from "../../kernel/env";
import { CodeSearchError } from "../../kernel/errors";
import { removeRepo, startGitRepo } from "../services/repos";
import { parsePatterns } from "../services/repo-status";
import { compileFilter } from "./filter";
import { githubClient } from "./github";
import { gitlabClient } from "./gitlab";
import { planSync } from "./plan";
import { syncConnectionReaders, type ReadersReport } from "./readers-sync";
import { connectionRepoRows, connectionToken, toKnown, type ConnectionRow } from "./store";
import type { CodeHostClient, CodeHostAccess, UpstreamRepo } from "./types";

/**
 * Repos registered per sync. Each is one D1 insert and one Durable Object call (subrequests of
 * the invocation); the coordinators then fetch and index in their own invocations.
 */
export const CONNECTION_MAX_REGISTRATIONS = 25;
/** Default grace period before a repo gone or excluded upstream is removed: 72 h (a weekend's mistaken archive or rename can be undone). */
export const DEFAULT_GRACE_SECONDS = 72 * 3600;

/** What one sync did. */
export interface SyncReport {
  listed: number;
  added: string[];
  registered: string[];
  /** Repos known but not yet registered (per-sync cap): registered on the next ticks. */
  waiting: number;
  marked: { repo: string | null; fullName: string; reason: string }[];
  unmarked: string[];
  removed: string[];
  skipped: { fullName: string; reason: string }[];
  /** The permission step (readers-sync.ts); absent when the sync stopped before it. */
  readers?: ReadersReport;
}

/**
 * The origin a connection's git clone URLs should be on: github.com for the GitHub API
 * (api.github.com), else the API's own origin (GitHub Enterprise `https://ghe/api/v3`, GitLab).
 */
export function connectionGitOrigin(row: Pick<ConnectionRow, "provider" | "base_url">): string {
  const api = new URL(row.base_url);
  return row.provider === "github" && api.hostname.toLowerCase() === "api.github.com" ? "https://github.com" : api.origin;
}

/** The client for a connection's provider. */
export function codeHostClient(access: CodeHostAccess, maxWaitMs: number): CodeHostClient {
  return access.provider === "github" ? githubClient(access, maxWaitMs) : gitlabClient(access, maxWaitMs);
}

/** Lists the connection's repositories (throws the client's coded errors). */
export async function listUpstream(env: Env, row: ConnectionRow, maxWaitMs: number): Promise<UpstreamRepo[]> {
  return (await connectionClient(env, row, maxWaitMs)).listRepos(row.owner, row.owner_kind);
}

/** The code-host client of connection `row`, with its token. */
async function connectionClient(env: Env, row: ConnectionRow, maxWaitMs: number): Promise<CodeHostClient> {
  const access: CodeHostAccess = {
    provider: row.provider,
    baseUrl: row.base_url,
    token: await connectionToken(env, row),
    allowLoopback: loadConfig(env).allowLoopbackGitUrls,
  };
  return codeHostClient(access, maxWaitMs);
}

/**
 * Syncs `row` at `now` (ms) from `listed` (the host's answer, or listed here when omitted).
 * Records `last_synced_at`, or `last_error` (and rethrows) when the listing failed.
 */
export async function syncConnection(env: Env, row: ConnectionRow, now: number, maxWaitMs: number, listed?: UpstreamRepo[]): Promise<SyncReport> {
  let upstream: UpstreamRepo[];
  try {
    upstream = listed ?? (await listUpstream(env, row, maxWaitMs));
  } catch (err) {
    const message = err instanceof CodeSearchError ? err.message : "the listing failed; see the server log";
    await env.DB.prepare("UPDATE connections SET last_error = ? WHERE id = ?").bind(message, row.id).run();
    throw err;
  }
  const config = loadConfig(env);
  const rows = await connectionRepoRows(env, row.id);
  const byUpstream = new Map(rows.map((r) => [r.upstream_id, r]));
  const drop = compileFilter({ include: JSON.parse(row.include_json), exclude: JSON.parse(row.exclude_json), forks: !!row.forks, archived: !!row.archived });
  const plan = planSync(rows.map(toKnown), upstream, drop, now, row.grace_seconds * 1000, CONNECTION_MAX_REGISTRATIONS);
  const report: SyncReport = { listed: upstream.length, added: [], registered: [], waiting: 0, marked: [], unmarked: [], removed: [], skipped: [] };

  const db = env.DB;
  const writes: D1PreparedStatement[] = [];
  for (const a of plan.added) {
    writes.push(
      db
        .prepare("INSERT INTO connection_repos (connection_id, upstream_id, full_name, clone_url, repo) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
        .bind(row.id, a.upstream.id, a.upstream.fullName, a.upstream.cloneUrl, a.repo || null),
    );
    report.added.push(a.upstream.fullName);
  }
  for (const r of plan.renamed)
    writes.push(
      db
        .prepare("UPDATE connection_repos SET full_name = ?, clone_url = ? WHERE connection_id = ? AND upstream_id = ?")
        .bind(r.fullName, r.cloneUrl, row.id, r.upstreamId),
    );
  for (const m of plan.marked) {
    writes.push(
      db
        .prepare("UPDATE connection_repos SET missing_since = ?, missing_reason = ? WHERE connection_id = ? AND upstream_id = ?")
        .bind(now, m.reason, row.id, m.upstreamId),
    );
    // Withdraw only the repo this connection registered (never a hand-registered one of the same id).
    writes.push(
      db
        .prepare(
          "UPDATE repos SET withdrawn_at = ? WHERE id = (SELECT repo FROM connection_repos WHERE connection_id = ? AND upstream_id = ? AND registered_at IS NOT NULL)",
        )
        .bind(now, row.id, m.upstreamId),
    );
    const known = byUpstream.get(m.upstreamId);
    report.marked.push({ repo: known?.repo ?? null, fullName: known?.full_name ?? m.upstreamId, reason: m.reason });
  }
  for (const id of plan.unmarked) {
    writes.push(
      db
        .prepare(
          "UPDATE repos SET withdrawn_at = NULL WHERE id = (SELECT repo FROM connection_repos WHERE connection_id = ? AND upstream_id = ? AND registered_at IS NOT NULL)",
        )
        .bind(row.id, id),
    );
    writes.push(
      db.prepare("UPDATE connection_repos SET missing_since = NULL, missing_reason = NULL WHERE connection_id = ? AND upstream_id = ?").bind(row.id, id),
    );
    report.unmarked.push(byUpstream.get(id)?.full_name ?? id);
  }
  for (let i = 0; i < writes.length; i += 50) await db.batch(writes.slice(i, i + 50));

  for (const r of plan.removed) {
    if (r.repo) await removeRepo(env, config, r.repo);
    await db.prepare("DELETE FROM connection_repos WHERE connection_id = ? AND upstream_id = ?").bind(row.id, r.upstreamId).run();
    report.removed.push(r.repo ?? byUpstream.get(r.upstreamId)?.full_name ?? r.upstreamId);
  }

  const token = plan.register.length ? await connectionToken(env, row) : undefined;
  for (const r of plan.register) {
    const skip = async (reason: string, fullName: string) => {
      await db.prepare("UPDATE connection_repos SET skip_reason = ? WHERE connection_id = ? AND upstream_id = ?").bind(reason, row.id, r.upstreamId).run();
      report.skipped.push({ fullName, reason });
    };
    const fullName = plan.added.find((a) => a.upstream.id === r.upstreamId)?.upstream.fullName ?? byUpstream.get(r.upstreamId)?.full_name ?? r.upstreamId;
    if (!r.repo) {
      await skip("no_usable_id", fullName);
      continue;
    }
    let url: string;
    try {
      url = parseGitUrl(r.cloneUrl, { allowLoopback: config.allowLoopbackGitUrls }).url;
    } catch {
      await skip("refused_url", fullName);
      continue;
    }
    // The token only to the connection's own git host; another origin gets none.
    const sent = token && new URL(url).origin === connectionGitOrigin(row) ? token : undefined;
    const job = await startGitRepo(env, {
      id: r.repo,
      name: r.repo,
      url,
      ref: null,
      token: sent,
      username: sent ? (row.provider === "gitlab" ? "oauth2" : "x-access-token") : undefined,
      checkedAt: now,
      // Registered with the host's visibility, so a private repo is never open before its readers are known.
      visibility: upstream.find((u) => u.id === r.upstreamId)?.visibility ?? "private",
      // The connection's default ref patterns (docs/refs.md); their jobs queue behind the first one.
      refPatterns: parsePatterns(row.ref_patterns),
    });
    if (!job) {
      await skip("id_taken", fullName);
      continue;
    }
    await db.prepare("UPDATE connection_repos SET registered_at = ? WHERE connection_id = ? AND upstream_id = ?").bind(now, row.id, r.upstreamId).run();
    report.registered.push(r.repo);
  }
  const waiting = await db
    .prepare("SELECT count(*) AS n FROM connection_repos WHERE connection_id = ? AND registered_at IS NULL AND skip_reason IS NULL AND missing_since IS NULL")
    .bind(row.id)
    .first<{ n: number }>();
  report.waiting = waiting?.n ?? 0;
  report.readers = await syncConnectionReaders(env, row, await connectionClient(env, row, maxWaitMs), upstream, now);
  await db.prepare("UPDATE connections SET last_synced_at = ?, last_error = NULL WHERE id = ?").bind(now, row.id).run();
  return report;
}

/** Interval between scheduled syncs of a connection: the repos' default check interval (POLL_INTERVAL_SECONDS, 0 = none). */
export function connectionDue(row: ConnectionRow, now: number, intervalSeconds: number, hasWaiting: boolean): boolean {
  if (hasWaiting) return true;
  if (intervalSeconds <= 0) return false;
  return row.last_synced_at === null || now - row.last_synced_at >= intervalSeconds * 1000;
}
