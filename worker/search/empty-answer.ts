/**
 * @module worker/search/empty-answer
 *
 * Why a search found nothing, when the reason is not the query's words: the searched snapshots
 * hold no chunks (an empty index, or one built before the statistics of format 9), or the filters
 * (path, language, tests) pass no indexed file. Said plainly instead of "No results." with every
 * query word listed as missing, which reads as if the code lacked them. Computed over the
 * searched repos only (the ones the caller may see).
 */
import { snapshotFiles } from "./channels/path";
import { normalizePathFilter, pathPasses } from "./path-filter";
import { dbOf, type TargetDb } from "./shard-targets";
import type { SearchFilters } from "./types";

/** A searched snapshot. */
interface Target {
  id: string;
  commit: string;
}

/** Files of the snapshot passing the path and language filters, and how many of them are tests. */
async function filteredFiles(db: D1Database, t: Target, filters: SearchFilters): Promise<{ total: number; passing: number; tests: number; caseHint?: string }> {
  const files = await snapshotFiles({ db, repo: t.id, commit: t.commit });
  let candidates = files;
  if (filters.language) {
    const { results } = await db
      .prepare(
        "SELECT sf.path AS path FROM snapshot_files sf JOIN files f ON f.repo = sf.repo AND f.file_id = sf.file_id WHERE sf.repo = ? AND sf.commit_sha = ? AND f.language = ?",
      )
      .bind(t.id, t.commit, filters.language)
      .all<{ path: string }>();
    const inLanguage = new Set(results.map((r) => r.path));
    candidates = files.filter((f) => inLanguage.has(f.path));
  }
  const glob = filters.pathGlob ? normalizePathFilter(filters.pathGlob) : null;
  const passing = candidates.filter((f) => (!filters.pathPrefix || f.path.startsWith(filters.pathPrefix)) && (!glob || pathPasses(glob, f.path)));
  let caseHint: string | undefined;
  if (filters.pathPrefix && !passing.length) {
    const lower = filters.pathPrefix.toLowerCase();
    const near = candidates.find((f) => f.path.toLowerCase().startsWith(lower));
    if (near) caseHint = near.path.slice(0, filters.pathPrefix.length);
  }
  return { total: files.length, passing: passing.length, tests: passing.filter((f) => f.test).length, caseHint };
}

/** The filters as the caller would read them back. */
function describeFilters(filters: SearchFilters): string {
  const parts: string[] = [];
  if (filters.pathPrefix) parts.push(`path_prefix "${filters.pathPrefix}"`);
  if (filters.pathGlob) parts.push(`path glob "${filters.pathGlob}"`);
  if (filters.language) parts.push(`language "${filters.language}"`);
  return parts.join(" and ");
}

/**
 * The reason for an empty result that is not the query's words, or null. `chunks`: the chunks
 * of each searched snapshot (null when the snapshot has no statistics: built before format 9).
 */
export async function explainEmpty(
  db: TargetDb<Target>,
  targets: Target[],
  filters: SearchFilters,
  chunks: Map<string, number | null>,
): Promise<string | null> {
  const legacy = targets.filter((t) => chunks.get(t.id) === null).map((t) => t.id);
  if (legacy.length === targets.length) {
    return `The index of ${legacy.join(", ")} was built by an older version and has no search statistics; re-index it (POST /api/repos/{id}/refresh, or upload the archive again).`;
  }
  if (targets.every((t) => !chunks.get(t.id))) {
    return `The index is empty: ${targets.map((t) => t.id).join(", ")} hold no indexed chunks (no file was indexable: see skipped files in the repo status).`;
  }
  if (!filters.pathPrefix && !filters.pathGlob && !filters.language) return null;
  const counted = await Promise.all(targets.map((t) => filteredFiles(dbOf(db, t), t, filters)));
  const passing = counted.reduce((n, c) => n + c.passing, 0);
  const what = describeFilters(filters);
  if (!passing) {
    const hint = counted.find((c) => c.caseHint)?.caseHint;
    const files = counted.reduce((n, c) => n + c.total, 0);
    return `filters matched no file: ${what} matches none of the ${files} indexed files${hint ? `; paths are case-sensitive, did you mean path_prefix "${hint}"?` : "; list paths with GET /api/repos/{id}/tree?path_prefix="}.`;
  }
  const tests = counted.reduce((n, c) => n + c.tests, 0);
  if (!filters.includeTests && tests === passing) {
    return `filters matched only test files (${tests}), which are left out unless the query mentions tests; pass include_tests: true.`;
  }
  return null;
}
