/**
 * A connection's sync in words, for people (web/client/connections.ts): what a sync did, and
 * why a repository is missing or was not added. Pure.
 */
import type { SyncResult } from "../../worker/services/connections-schema";

type SyncReport = SyncResult["sync"];

/** Why a listed repository is missing (worker/connections/plan.ts) or was not registered (sync.ts). */
export const REASON_WORDS: Record<string, string> = {
  deleted: "deleted upstream",
  excluded: "left out by the filters",
  fork: "now a fork",
  archived: "archived",
  id_taken: "a repository with that name was added by hand",
  deleted_by_admin: "deleted here by an admin",
  refused_url: "its clone URL is not one this server may fetch",
  no_usable_id: "its name gives no usable repository name",
};

/** "1 repository", "3 repositories". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

/** "Listed 4; added acme-new; removed acme-old; 1 marked missing." from a sync report. */
export function syncWords(s: SyncReport): string {
  const parts = [`listed ${plural(s.listed, "repository", "repositories")}`];
  parts.push(s.registered.length ? `added ${s.registered.join(", ")}` : "added none");
  if (s.removed.length) parts.push(`removed ${s.removed.join(", ")}`);
  if (s.marked.length) parts.push(`${s.marked.map((m) => `${m.fullName} (${REASON_WORDS[m.reason] ?? m.reason})`).join(", ")} marked missing`);
  if (s.unmarked.length) parts.push(`${s.unmarked.join(", ")} back again`);
  if (s.skipped.length) parts.push(`skipped ${s.skipped.map((x) => `${x.fullName} (${REASON_WORDS[x.reason] ?? x.reason})`).join(", ")}`);
  if (s.waiting) parts.push(`${plural(s.waiting, "repository", "repositories")} waiting for the next sync`);
  return `${parts.join("; ")}.`;
}
