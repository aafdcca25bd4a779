/**
 * @module worker/schedule/due
 *
 * Which git repos the scheduled check looks at in one tick: those whose interval has passed
 * since their last check, least recently checked first, at most `max`. Pure.
 */

/** Default seconds between two checks of a repo's remote ref (`POLL_INTERVAL_SECONDS` overrides it). */
export const DEFAULT_POLL_INTERVAL_SECONDS = 3600;
/**
 * Most repos checked per tick. Each check is one Durable Object call plus one ls-remote made by
 * the coordinator; a Worker invocation may make 1000 subrequests (paid plan), so this leaves
 * room. Repos beyond it are checked on the next tick, oldest first.
 */
export const POLL_MAX_REPOS_PER_TICK = 100;

/** What `dueRepos` reads of a repo row. Times in ms since epoch. */
export interface PollRow {
  id: string;
  /** NULL: the default interval; 0: never checked on a schedule. */
  pollIntervalSeconds: number | null;
  lastCheckedAt: number | null;
}

/** The ids to check at `now` (ms), oldest check first. */
export function dueRepos(rows: readonly PollRow[], now: number, defaultSeconds = DEFAULT_POLL_INTERVAL_SECONDS, max = POLL_MAX_REPOS_PER_TICK): string[] {
  return rows
    .filter((r) => {
      const interval = r.pollIntervalSeconds ?? defaultSeconds;
      return interval > 0 && (r.lastCheckedAt === null || now - r.lastCheckedAt >= interval * 1000);
    })
    .sort((a, b) => (a.lastCheckedAt ?? 0) - (b.lastCheckedAt ?? 0) || a.id.localeCompare(b.id))
    .slice(0, max)
    .map((r) => r.id);
}
