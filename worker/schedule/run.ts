/**
 * @module worker/schedule/run
 *
 * The Cron Trigger's work (wrangler.toml `[triggers] crons`): for each git repo that is due
 * (due.ts), its coordinator runs an ls-remote and starts a job only when the remote commit
 * differs from the active snapshot (`RepoCoordinator.pollRemote`), so an unmoved repo costs one
 * `info/refs` request and no fetch. Checks run a few at a time; `last_checked_at` is written
 * after each. Before that, connections that are due are synced (worker/connections/sync.ts):
 * every POLL_INTERVAL_SECONDS, and on every tick while some of their repos wait to be registered.
 */
import type { PollResult } from "../../kernel/coordinator";
import type { Env } from "../../kernel/env";
import { connectionDue, syncConnection, type SyncReport } from "../connections/sync";
import { listConnectionRows } from "../connections/store";
import { DEFAULT_POLL_INTERVAL_SECONDS, dueRepos } from "./due";

/** Checks in flight at once (each holds one outgoing connection of the invocation's six). */
const POLL_CONCURRENCY = 4;

/** What one tick did, per repo. */
export interface ScheduleReport {
  checked: number;
  results: Record<string, PollResult>;
  /** Connections synced this tick: their report, or the error message. */
  connections: Record<string, SyncReport | { error: string }>;
}

/** Longest rate-limit wait a scheduled sync sleeps (ms); longer ones wait for a later tick. */
export const CRON_MAX_RATE_LIMIT_WAIT_MS = 30_000;

/** Syncs the connections due at `now`, one after another (each may list many pages). */
export async function syncDueConnections(env: Env, now: number): Promise<ScheduleReport["connections"]> {
  const out: ScheduleReport["connections"] = {};
  const rows = await listConnectionRows(env);
  if (rows.length === 0) return out;
  const { results: waiting } = await env.DB.prepare(
    "SELECT DISTINCT connection_id FROM connection_repos WHERE registered_at IS NULL AND skip_reason IS NULL AND missing_since IS NULL AND repo IS NOT NULL",
  ).all<{ connection_id: string }>();
  const hasWaiting = new Set(waiting.map((w) => w.connection_id));
  const interval = defaultPollSeconds(env);
  for (const row of rows) {
    if (!connectionDue(row, now, interval, hasWaiting.has(row.id))) continue;
    try {
      out[row.id] = await syncConnection(env, row, now, CRON_MAX_RATE_LIMIT_WAIT_MS);
    } catch (err) {
      console.error(`scheduled sync of connection ${row.id} failed`, err);
      out[row.id] = { error: err instanceof Error ? err.message : String(err) };
    }
  }
  return out;
}

/** Default interval from `POLL_INTERVAL_SECONDS`, else DEFAULT_POLL_INTERVAL_SECONDS. Throws TypeError naming the variable. */
export function defaultPollSeconds(env: Pick<Env, "POLL_INTERVAL_SECONDS">): number {
  const raw = env.POLL_INTERVAL_SECONDS;
  if (raw === undefined || raw === "") return DEFAULT_POLL_INTERVAL_SECONDS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new TypeError(`POLL_INTERVAL_SECONDS must be a whole number of seconds (0: no scheduled checks); got "${raw}"`);
  return n;
}

/** Runs one tick at `now` (ms). */
export async function runScheduledCheck(env: Env, now: number): Promise<ScheduleReport> {
  const connections = await syncDueConnections(env, now);
  const { results: rows } = await env.DB.prepare(
    "SELECT id, poll_interval_seconds, last_checked_at FROM repos WHERE source_kind = 'git' AND url IS NOT NULL",
  ).all<{
    id: string;
    poll_interval_seconds: number | null;
    last_checked_at: number | null;
  }>();
  const due = dueRepos(
    rows.map((r) => ({ id: r.id, pollIntervalSeconds: r.poll_interval_seconds, lastCheckedAt: r.last_checked_at })),
    now,
    defaultPollSeconds(env),
  );
  const results: Record<string, PollResult> = {};
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const id = due[next++];
      try {
        results[id] = await env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName(id)).pollRemote();
      } catch (err) {
        console.error(`scheduled check of repo ${id} failed`, err);
        results[id] = { kind: "error", message: "the check failed; see the server log" };
      }
      await env.DB.prepare("UPDATE repos SET last_checked_at = ? WHERE id = ?").bind(now, id).run();
    }
  };
  await Promise.all(Array.from({ length: Math.min(POLL_CONCURRENCY, due.length) }, worker));
  const summary = Object.values(results).reduce<Record<string, number>>((acc, r) => ((acc[r.kind] = (acc[r.kind] ?? 0) + 1), acc), {});
  if (due.length) console.log(`scheduled check: ${due.length} repos`, summary);
  return { checked: due.length, results, connections };
}
