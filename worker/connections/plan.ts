/**
 * @module worker/connections/plan
 *
 * One sync of a connection as a pure diff: what the code host listed now against what the
 * connection knew, giving the rows to add, the renamed ones, the repos to register (at most
 * `maxRegistrations`, the rest on later syncs), the ones to mark missing (gone upstream, or
 * dropped by the filter), to unmark (back again) and to remove (missing for the grace period).
 */
import { slugRepoId } from "../services/repos";
import type { FilterReason } from "./filter";
import type { UpstreamRepo } from "./types";

/** A connection_repos row as the plan reads it. Times in ms since epoch. */
export interface KnownRepo {
  upstreamId: string;
  fullName: string;
  cloneUrl: string;
  repo: string | null;
  registeredAt: number | null;
  skipReason: string | null;
  missingSince: number | null;
}

/** Why a known repo is marked missing. */
export type MissingReason = "deleted" | FilterReason;

/** The diff of one sync. */
export interface SyncPlan {
  /** Listed, kept and new: rows to insert, with the repo id proposed for them. */
  added: { upstream: UpstreamRepo; repo: string }[];
  /** Known rows whose name or clone URL changed upstream (a rename or transfer). */
  renamed: { upstreamId: string; fullName: string; cloneUrl: string; repo: string | null }[];
  /** Rows to register now (new ones first, then older ones waiting), at most `maxRegistrations`. */
  register: { upstreamId: string; repo: string; cloneUrl: string }[];
  /** Rows newly missing upstream or filtered out, with the reason. */
  marked: { upstreamId: string; reason: MissingReason }[];
  /** Rows that were missing and are listed and kept again. */
  unmarked: string[];
  /** Rows missing for at least the grace period (or never registered): delete them and their repo. */
  removed: { upstreamId: string; repo: string | null }[];
}

/** The repo id a connection gives an upstream repo: its full name with `/` as `-`, as a repo id. */
export function repoIdFor(fullName: string): string {
  return slugRepoId(fullName.replace(/\//g, "-"));
}

/**
 * Plans one sync at `now`. `listed` is every repository the host returned; `drop` is the
 * connection's filter (filter.ts); `graceMs` how long a missing repo is kept.
 */
export function planSync(
  known: readonly KnownRepo[],
  listed: readonly UpstreamRepo[],
  drop: (r: UpstreamRepo) => FilterReason | null,
  now: number,
  graceMs: number,
  maxRegistrations: number,
): SyncPlan {
  const plan: SyncPlan = { added: [], renamed: [], register: [], marked: [], unmarked: [], removed: [] };
  const byId = new Map(known.map((k) => [k.upstreamId, k]));
  const listedIds = new Set<string>();
  const waiting: { upstreamId: string; repo: string; cloneUrl: string }[] = [];
  for (const u of listed) {
    listedIds.add(u.id);
    const reason = drop(u);
    const k = byId.get(u.id);
    if (!k) {
      if (reason === null) {
        const repo = repoIdFor(u.fullName);
        plan.added.push({ upstream: u, repo });
        waiting.push({ upstreamId: u.id, repo, cloneUrl: u.cloneUrl });
      }
      continue;
    }
    if (k.fullName !== u.fullName || k.cloneUrl !== u.cloneUrl)
      plan.renamed.push({ upstreamId: u.id, fullName: u.fullName, cloneUrl: u.cloneUrl, repo: k.repo });
    if (reason !== null) {
      if (k.missingSince === null) plan.marked.push({ upstreamId: k.upstreamId, reason });
      else if (expired(k, now, graceMs)) plan.removed.push({ upstreamId: k.upstreamId, repo: k.registeredAt !== null ? k.repo : null });
      continue;
    }
    if (k.missingSince !== null) plan.unmarked.push(k.upstreamId);
    if (k.registeredAt === null && k.repo !== null && k.skipReason === null) waiting.push({ upstreamId: k.upstreamId, repo: k.repo, cloneUrl: u.cloneUrl });
  }
  for (const k of known) {
    if (listedIds.has(k.upstreamId)) continue;
    if (k.missingSince === null) plan.marked.push({ upstreamId: k.upstreamId, reason: "deleted" });
    else if (expired(k, now, graceMs)) plan.removed.push({ upstreamId: k.upstreamId, repo: k.registeredAt !== null ? k.repo : null });
  }
  plan.register = waiting.slice(0, maxRegistrations);
  return plan;
}

/** Missing for the whole grace period, or never registered (nothing indexed to keep). */
function expired(k: KnownRepo, now: number, graceMs: number): boolean {
  return k.registeredAt === null || now - (k.missingSince ?? now) >= graceMs;
}
